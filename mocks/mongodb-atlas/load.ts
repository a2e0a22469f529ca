import type { LoadContext } from '../core/service.js';
import { clusterFromRecord, flexFromRecord } from './clusters.js';
import type { MongodbAtlasDataset } from './dataset.js';
import { atlasFallback } from './fallback.js';
import { TOKEN_TTL_S } from './token.js';
import { accessKey, clusterKey, dbOf, iso, objectId, userKey } from './model.js';

/** The dataset into the store, once, when the world starts; ids it does not give are seeded, times are the epoch's or its own. */
export function loadAtlas(data: MongodbAtlasDataset, ctx: LoadContext): void {
  const db = dbOf(ctx.store);
  for (const sa of data.serviceAccounts) db.serviceAccounts.put(sa.clientId, sa);
  for (const k of data.apiKeys) db.apiKeys.put(k.publicKey, k);
  for (const t of data.accessTokens) db.tokens.put(t.token, { token: t.token, clientId: t.clientId, expiresAtMs: t.expiresAt ? Date.parse(t.expiresAt) : ctx.epochMs + TOKEN_TTL_S * 1000 });
  for (const org of data.orgs) db.orgs.put(org.id, { ...org, skipDefaultAlertsSettings: false });
  for (const p of data.projects) {
    db.projects.put(p.id, { id: p.id, name: p.name, orgId: p.orgId, created: p.created ?? iso(ctx.epochMs), clusterCount: 0, tags: p.tags, withDefaultAlertsSettings: true, regionUsageRestrictions: 'COMMERCIAL_FEDRAMP_REGIONS_ONLY' });
  }
  for (const r of data.clusters) db.clusters.put(clusterKey(r.projectId, r.name), clusterFromRecord(ctx, r));
  for (const r of data.flexClusters) db.flexClusters.put(clusterKey(r.projectId, r.name), flexFromRecord(ctx, r));
  for (const u of data.databaseUsers) {
    db.databaseUsers.put(userKey(u.projectId, u.databaseName, u.username), {
      groupId: u.projectId, databaseName: u.databaseName, username: u.username, roles: u.roles,
      scopes: u.clusters.map((name) => ({ type: 'CLUSTER', name })), labels: [],
      awsIAMType: 'NONE', ldapAuthType: 'NONE', oidcAuthType: 'NONE', x509Type: 'NONE',
      ...(u.description !== undefined ? { description: u.description } : {}),
      ...(u.deleteAfterDate !== undefined ? { deleteAfterDate: u.deleteAfterDate } : {}),
    });
  }
  for (const e of data.accessList) {
    const cidrBlock = e.cidrBlock ?? `${e.ipAddress}/32`;
    db.accessList.put(accessKey(e.projectId, e.ipAddress ?? cidrBlock), {
      groupId: e.projectId, cidrBlock, ...(e.ipAddress !== undefined ? { ipAddress: e.ipAddress } : {}), comment: e.comment,
      ...(e.deleteAfterDate !== undefined ? { deleteAfterDate: e.deleteAfterDate } : {}),
    });
  }
  for (const a of data.alerts) {
    const project = db.projects.get(a.projectId);
    const { projectId, id, ...rest } = a;
    const alertId = id ?? objectId(ctx, 'alert', Date.parse(a.created));
    db.alerts.put(alertId, {
      ...rest, id: alertId, groupId: projectId, ...(project ? { orgId: project.orgId } : {}),
      alertConfigId: objectId(ctx, 'alert-config', Date.parse(a.created)), updated: a.updated ?? a.created,
    });
  }
  for (const f of data.performanceAdvisor) {
    const { projectId, ...rest } = f;
    db.advisor.put(clusterKey(projectId, f.clusterName), { ...rest, groupId: projectId });
  }
  for (const [groupId, config] of Object.entries(data.encryptionAtRest)) db.encryptionAtRest.put(groupId, config);
  db.settings.put('ipinfo', { currentIpv4Address: data.currentIpv4Address });
  for (const s of data.knowledge.sources) db.knowledgeSources.put(s.id, s);
  data.knowledge.documents.forEach((d, i) => db.knowledgeDocuments.put(String(i + 1), d));
  for (const w of data.streamWorkspaces) {
    const id = objectId(ctx, 'stream-workspace', ctx.epochMs);
    ctx.store.collection('stream_workspaces').put(`${w.projectId}/${w.name}`, {
      _id: id, groupId: w.projectId, name: w.name, dataProcessRegion: { cloudProvider: w.provider, region: w.region }, streamConfig: { tier: w.tier },
      hostnames: [`atlas-stream-${id}-${w.region.toLowerCase().replace(/_/g, '-')}.a.query.mongodb.net`],
    });
    for (const conn of w.connections) ctx.store.collection('stream_connections').put(`${w.projectId}/${w.name}/${conn.name}`, { ...conn, state: 'READY' });
    for (const p of w.processors) ctx.store.collection('stream_processors').put(`${w.projectId}/${w.name}/${p.name}`, { _id: objectId(ctx, 'stream-processor', ctx.epochMs), ...p, stats: {} });
  }
  atlasFallback.seed(data.spec, ctx);
}
