import { z } from 'zod';
import { emptyResponse, jsonResponse } from '../core/http.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import { clusterFromBody, flexDoc, instanceSizeOf, isFree, renderCluster, renderFlex, SETTLE_MS } from './clusters.js';
import type { AtlasCtx } from './context.js';
import {
  accessKey, API, atlasError, clusterKey, clusterNotFound, groupNotFound, invalidGroupId, iso, objectId, selfLinks, userKey,
  type AccessEntryDoc, type ClusterDoc, type DatabaseUserDoc, type Json, type ProjectDoc,
} from './model.js';
import { page, PageQuery } from './pages.js';

/**
 * The Admin API v2 operations the MCP server's Atlas tools call, named by Atlas's operationIds:
 * organizations, projects, clusters and flex clusters (with tenant upgrades), database users,
 * the IP access list, alerts, Performance Advisor, sample-dataset loads and encryption at rest.
 */

const OBJECT_ID = /^[a-f0-9]{24}$/;

function projectOf(c: AtlasCtx, groupId: string): ProjectDoc {
  if (!OBJECT_ID.test(groupId)) throw invalidGroupId(groupId);
  const project = c.db.projects.get(groupId);
  if (!project) throw groupNotFound(groupId);
  return project;
}

function clusterOf(c: AtlasCtx, groupId: string, name: string): ClusterDoc {
  projectOf(c, groupId);
  const cluster = c.db.clusters.get(clusterKey(groupId, name));
  if (!cluster) {
    // Atlas refuses a flex cluster's name on the dedicated-cluster endpoints with a 400 (the MCP server relies on it).
    if (c.db.flexClusters.has(clusterKey(groupId, name))) throw atlasError(400, 'CANNOT_USE_FLEX_CLUSTER_IN_CLUSTER_API', `Flex cluster ${name} cannot be used in the Cluster API.`, [name]);
    throw clusterNotFound(name, groupId);
  }
  return cluster;
}

const renderProject = (p: ProjectDoc): Json => ({ ...p, clusterCount: 0, links: selfLinks(`${API}/groups/${p.id}`) });
const withClusterCount = (c: AtlasCtx, p: ProjectDoc): Json => ({
  ...renderProject(p),
  clusterCount: c.db.clusters.filter((x) => x.groupId === p.id).length + c.db.flexClusters.filter((x) => x.groupId === p.id).length,
});

const renderUser = (u: DatabaseUserDoc): Json => ({ ...u, links: selfLinks(`${API}/groups/${u.groupId}/databaseUsers/${encodeURIComponent(u.databaseName)}/${encodeURIComponent(u.username)}`) });
const renderEntry = (e: AccessEntryDoc): Json => ({ ...e, links: selfLinks(`${API}/groups/${e.groupId}/accessList/${encodeURIComponent(e.ipAddress ?? e.cidrBlock)}`) });

const CreateGroupBody = z.object({
  name: z.string().min(1).max(64).regex(/^[\p{L}\p{N}\-_.(),:&@+' ]{1,64}$/u),
  orgId: z.string().regex(OBJECT_ID),
  withDefaultAlertsSettings: z.boolean().default(true),
  regionUsageRestrictions: z.string().default('COMMERCIAL_FEDRAMP_REGIONS_ONLY'),
  tags: z.array(z.object({ key: z.string(), value: z.string() })).default([]),
}).passthrough();
type CreateGroupBody = z.infer<typeof CreateGroupBody>;

const RoleBody = z.object({ roleName: z.string().min(1), databaseName: z.string().min(1), collectionName: z.string().optional() }).strict();
const CreateUserBody = z.object({
  groupId: z.string().optional(),
  username: z.string().min(1),
  databaseName: z.string().min(1),
  password: z.string().optional(),
  roles: z.array(RoleBody).default([]),
  scopes: z.array(z.object({ type: z.enum(['CLUSTER', 'DATA_LAKE', 'STREAM']), name: z.string().min(1) }).strict()).optional(),
  awsIAMType: z.string().default('NONE'),
  ldapAuthType: z.string().default('NONE'),
  oidcAuthType: z.string().default('NONE'),
  x509Type: z.string().default('NONE'),
  description: z.string().optional(),
  deleteAfterDate: z.string().optional(),
  labels: z.array(z.object({ key: z.string(), value: z.string() })).optional(),
}).strict();
type CreateUserBody = z.infer<typeof CreateUserBody>;

const AccessEntryBody = z.array(z.object({
  groupId: z.string().optional(),
  ipAddress: z.string().ip({ version: 'v4' }).optional(),
  cidrBlock: z.string().regex(/^\d{1,3}(\.\d{1,3}){3}\/\d{1,2}$/).optional(),
  awsSecurityGroup: z.string().optional(),
  comment: z.string().max(80).optional(),
  deleteAfterDate: z.string().optional(),
}).strict()).min(1);
type AccessEntryBody = z.infer<typeof AccessEntryBody>;

const ClusterBody = z.object({ name: z.string().regex(/^[a-zA-Z0-9-]{1,64}$/) }).passthrough();
type ClusterBody = z.infer<typeof ClusterBody>;
const UpdateClusterBody = z.record(z.unknown());
type UpdateClusterBody = z.infer<typeof UpdateClusterBody>;

const AlertsQuery = PageQuery.extend({ status: z.enum(['OPEN', 'TRACKING', 'CLOSED']).optional() });
type AlertsQuery = z.infer<typeof AlertsQuery>;

const SlowQueryQuery = z.object({
  since: z.coerce.number().int().optional(),
  duration: z.coerce.number().int().optional(),
  nLogs: z.coerce.number().int().min(0).max(20000).default(20000),
  namespaces: z.union([z.string(), z.array(z.string())]).optional(),
}).passthrough();
type SlowQueryQuery = z.infer<typeof SlowQueryQuery>;

/** The cluster a user's scopes name must exist in the project, as Atlas checks. */
function checkScopes(c: AtlasCtx, groupId: string, scopes: CreateUserBody['scopes']): void {
  for (const scope of scopes ?? []) {
    if (scope.type === 'CLUSTER' && !c.db.clusters.has(clusterKey(groupId, scope.name)) && !c.db.flexClusters.has(clusterKey(groupId, scope.name))) {
      throw atlasError(400, 'INVALID_CLUSTER_SCOPE', `Cluster ${scope.name} does not exist in group ${groupId}.`, [scope.name]);
    }
  }
}

/** The one cluster setting a PATCH may change while the cluster is paused is `paused` itself. */
function patchCluster(c: AtlasCtx, cluster: ClusterDoc, body: Json): ClusterDoc {
  const key = clusterKey(cluster.groupId, cluster.name);
  const changes = Object.keys(body).filter((k) => k !== 'paused');
  if (body.paused !== undefined && typeof body.paused !== 'boolean') throw atlasError(400, 'INVALID_ATTRIBUTE', 'Invalid attribute paused specified.', ['paused']);
  if (isFree(cluster) && (body.paused !== undefined || changes.length > 0)) {
    throw atlasError(400, 'TENANT_CLUSTER_UPDATE_UNSUPPORTED', 'Cannot update a M0/M2/M5 cluster through this API. Use the tenant upgrade endpoint.', []);
  }
  if (body.paused === true && cluster.paused) throw atlasError(409, 'CANNOT_UPDATE_PAUSED_CLUSTER', `Cannot update cluster ${cluster.name} while it is paused or being paused.`, [cluster.name]);
  if (cluster.paused && body.paused !== false && changes.length > 0) throw atlasError(409, 'CANNOT_UPDATE_PAUSED_CLUSTER', `Cannot update cluster ${cluster.name} while it is paused or being paused.`, [cluster.name]);
  if (body.paused === true && cluster.stateName !== 'IDLE') throw atlasError(409, 'CANNOT_PAUSE_CLUSTER_NOT_IDLE', `Cannot pause cluster ${cluster.name} while it is in state ${cluster.stateName}.`, [cluster.name, cluster.stateName]);
  const merged: Json = { ...cluster };
  for (const field of ['paused', 'replicationSpecs', 'backupEnabled', 'pitEnabled', 'terminationProtectionEnabled', 'diskSizeGB', 'tags', 'labels', 'mongoDBMajorVersion', 'encryptionAtRestProvider', 'clusterType']) {
    if (body[field] !== undefined) merged[field] = body[field];
  }
  const changed = JSON.stringify(merged) !== JSON.stringify(cluster);
  return c.db.clusters.put(key, { ...(merged as ClusterDoc), ...(changed ? { stateName: 'UPDATING', readyAtMs: c.ctx.nowMs + SETTLE_MS } : {}) });
}

export const atlasOperations: Operation<AtlasCtx>[] = [
  operation<AtlasCtx, '/api/private/ipinfo'>('getIpInfo', rest('GET', '/api/private/ipinfo'), (_call, c) =>
    jsonResponse(200, { currentIpv4Address: c.db.settings.get('ipinfo')?.currentIpv4Address ?? null })),

  operation<AtlasCtx, '/api/atlas/v2/orgs', PageQuery>('listOrgs', rest('GET', '/api/atlas/v2/orgs'), (call, c) => {
    const orgs = c.db.orgs.values().filter((o) => !o.isDeleted).map((o) => ({ ...o, links: selfLinks(`${API}/orgs/${o.id}`) }));
    return jsonResponse(200, page(`${API}/orgs`, orgs, call.query));
  }, { input: { query: PageQuery } }),

  operation<AtlasCtx, '/api/atlas/v2/orgs/:orgId/groups', PageQuery>('getOrgGroups', rest('GET', '/api/atlas/v2/orgs/:orgId/groups'), (call, c) => {
    const { orgId } = call.params;
    if (!OBJECT_ID.test(orgId)) throw atlasError(400, 'INVALID_ORG_ID', `An invalid organization ID ${orgId} was specified.`, [orgId]);
    if (!c.db.orgs.has(orgId)) throw atlasError(404, 'ORG_NOT_FOUND', `No organization with ID ${orgId} exists.`, [orgId]);
    const projects = c.db.projects.values().filter((p) => p.orgId === orgId).map((p) => withClusterCount(c, p));
    return jsonResponse(200, page(`${API}/orgs/${orgId}/groups`, projects, call.query));
  }, { input: { query: PageQuery } }),

  operation<AtlasCtx, '/api/atlas/v2/groups', PageQuery>('listGroups', rest('GET', '/api/atlas/v2/groups'), (call, c) =>
    jsonResponse(200, page(`${API}/groups`, c.db.projects.values().map((p) => withClusterCount(c, p)), call.query)), { input: { query: PageQuery } }),

  operation<AtlasCtx, '/api/atlas/v2/groups', Record<string, string>, CreateGroupBody>('createGroup', rest('POST', '/api/atlas/v2/groups'), (call, c) => {
    const { name, orgId } = call.body;
    if (!c.db.orgs.has(orgId)) throw atlasError(404, 'ORG_NOT_FOUND', `No organization with ID ${orgId} exists.`, [orgId]);
    if (c.db.projects.find((p) => p.orgId === orgId && p.name === name)) throw atlasError(409, 'GROUP_ALREADY_EXISTS', `A group with name "${name}" already exists.`, [name]);
    const id = objectId(c.ctx, 'group', c.ctx.nowMs);
    const project = c.db.projects.put(id, {
      id, name, orgId, created: iso(c.ctx.nowMs), clusterCount: 0, tags: call.body.tags,
      withDefaultAlertsSettings: call.body.withDefaultAlertsSettings, regionUsageRestrictions: call.body.regionUsageRestrictions,
    });
    return jsonResponse(200, renderProject(project));
  }, { input: { body: CreateGroupBody } }),

  operation<AtlasCtx, '/api/atlas/v2/groups/:groupId'>('getGroup', rest('GET', '/api/atlas/v2/groups/:groupId'), (call, c) =>
    jsonResponse(200, withClusterCount(c, projectOf(c, call.params.groupId)))),

  operation<AtlasCtx, '/api/atlas/v2/clusters', PageQuery>('listClusterDetails', rest('GET', '/api/atlas/v2/clusters'), (call, c) => {
    const rows = c.db.projects.values().map((p) => {
      const org = c.db.orgs.get(p.orgId);
      const clusters = [...c.db.clusters.filter((x) => x.groupId === p.id), ...c.db.flexClusters.filter((x) => x.groupId === p.id)].map((x) => ({
        alertCount: c.db.alerts.filter((a) => a.groupId === p.id && a.clusterName === x.name && a.status === 'OPEN').length,
        authEnabled: true,
        availability: x.paused === true ? 'unavailable' : 'available',
        backupEnabled: Boolean(x.backupEnabled ?? true),
        clusterId: x.id,
        dataSizeBytes: 0,
        name: x.name,
        nodeCount: 3,
        sslEnabled: true,
        type: 'REPLICA_SET',
        versions: [x.mongoDBVersion],
      }));
      return { clusters, groupId: p.id, groupName: p.name, orgId: p.orgId, orgName: org?.name ?? '', planType: 'Atlas', tags: [] };
    });
    return jsonResponse(200, page(`${API}/clusters`, rows, call.query));
  }, { input: { query: PageQuery } }),

  operation<AtlasCtx, '/api/atlas/v2/groups/:groupId/clusters', PageQuery>('listClusters', rest('GET', '/api/atlas/v2/groups/:groupId/clusters'), (call, c) => {
    const { groupId } = call.params;
    projectOf(c, groupId);
    return jsonResponse(200, page(`${API}/groups/${groupId}/clusters`, c.db.clusters.filter((x) => x.groupId === groupId).map(renderCluster), call.query));
  }, { input: { query: PageQuery } }),

  operation<AtlasCtx, '/api/atlas/v2/groups/:groupId/clusters', Record<string, string>, ClusterBody>('createCluster', rest('POST', '/api/atlas/v2/groups/:groupId/clusters'), (call, c) => {
    const { groupId } = call.params;
    projectOf(c, groupId);
    const name = call.body.name;
    if (c.db.clusters.has(clusterKey(groupId, name)) || c.db.flexClusters.has(clusterKey(groupId, name))) {
      throw atlasError(400, 'DUPLICATE_CLUSTER_NAME', `Cluster ${name} already exists in group ${groupId}.`, [name, groupId]);
    }
    const specs = call.body.replicationSpecs;
    if (!Array.isArray(specs) || specs.length === 0) throw atlasError(400, 'MISSING_ATTRIBUTE', 'The required attribute replicationSpecs was not specified.', ['replicationSpecs']);
    const doc = clusterFromBody(c.ctx, groupId, call.body as Json);
    const size = instanceSizeOf(doc);
    if (size === 'M0' && c.db.clusters.find((x) => x.groupId === groupId && isFree(x))) {
      throw atlasError(400, 'CANNOT_CREATE_FREE_CLUSTER_VIA_PUBLIC_API', 'This project already has a free M0 cluster: a project can hold one.', []);
    }
    return jsonResponse(201, renderCluster(c.db.clusters.put(clusterKey(groupId, name), doc)));
  }, { input: { body: ClusterBody } }),

  operation<AtlasCtx, '/api/atlas/v2/groups/:groupId/clusters/tenantUpgrade', Record<string, string>, ClusterBody>('upgradeTenantUpgrade', rest('POST', '/api/atlas/v2/groups/:groupId/clusters/tenantUpgrade'), (call, c) => {
    const { groupId } = call.params;
    const cluster = clusterOf(c, groupId, call.body.name);
    if (!isFree(cluster)) throw atlasError(400, 'CLUSTER_NOT_TENANT', `Cluster ${cluster.name} is not a shared-tier cluster.`, [cluster.name]);
    const settings = (call.body.providerSettings ?? {}) as Json;
    const region = ((cluster.replicationSpecs[0]?.regionConfigs as Json[])[0] ?? {}) as Json;
    const provider = String(settings.providerName ?? region.backingProviderName ?? 'AWS');
    const regionName = String(settings.regionName ?? region.regionName ?? 'US_EAST_1');
    const key = clusterKey(groupId, cluster.name);
    if (settings.instanceSizeName === 'FLEX') {
      c.db.clusters.delete(key);
      const flex = c.db.flexClusters.put(key, flexDoc(c.ctx, { id: cluster.id, groupId, name: cluster.name, provider, region: regionName, state: 'UPDATING', version: String(cluster.mongoDBVersion), createdMs: Date.parse(String(cluster.createDate)) }, c.ctx.nowMs + SETTLE_MS));
      return jsonResponse(200, { ...renderFlex(flex), providerSettings: { providerName: 'FLEX', backingProviderName: provider, regionName, instanceSizeName: 'FLEX' } });
    }
    const size = String(settings.instanceSizeName ?? 'M10');
    const upgraded = c.db.clusters.put(key, {
      ...cluster, stateName: 'UPDATING', readyAtMs: c.ctx.nowMs + SETTLE_MS, backupEnabled: true,
      replicationSpecs: cluster.replicationSpecs.map((spec) => ({ ...spec, regionConfigs: [{ providerName: provider, regionName, priority: 7, electableSpecs: { instanceSize: size, nodeCount: 3 }, autoScaling: { compute: { enabled: false, scaleDownEnabled: false }, diskGB: { enabled: true } } }] })),
    });
    return jsonResponse(200, { ...renderCluster(upgraded), providerSettings: { providerName: provider, regionName, instanceSizeName: size } });
  }, { input: { body: ClusterBody } }),

  operation<AtlasCtx, '/api/atlas/v2/groups/:groupId/clusters/:clusterName'>('getCluster', rest('GET', '/api/atlas/v2/groups/:groupId/clusters/:clusterName'), (call, c) =>
    jsonResponse(200, renderCluster(clusterOf(c, call.params.groupId, call.params.clusterName)))),

  operation<AtlasCtx, '/api/atlas/v2/groups/:groupId/clusters/:clusterName', Record<string, string>, UpdateClusterBody>('updateCluster', rest('PATCH', '/api/atlas/v2/groups/:groupId/clusters/:clusterName'), (call, c) =>
    jsonResponse(200, renderCluster(patchCluster(c, clusterOf(c, call.params.groupId, call.params.clusterName), call.body))), { input: { body: UpdateClusterBody } }),

  operation<AtlasCtx, '/api/atlas/v2/groups/:groupId/clusters/:clusterName'>('deleteCluster', rest('DELETE', '/api/atlas/v2/groups/:groupId/clusters/:clusterName'), (call, c) => {
    const cluster = clusterOf(c, call.params.groupId, call.params.clusterName);
    if (cluster.terminationProtectionEnabled === true) throw atlasError(400, 'CANNOT_TERMINATE_CLUSTER_WHEN_TERMINATION_PROTECTION_ENABLED', `Cannot terminate cluster ${cluster.name} while termination protection is enabled.`, [cluster.name]);
    c.db.clusters.put(clusterKey(cluster.groupId, cluster.name), { ...cluster, stateName: 'DELETING', readyAtMs: null });
    return emptyResponse(202);
  }),

  operation<AtlasCtx, '/api/atlas/v2/groups/:groupId/flexClusters', PageQuery>('listFlexClusters', rest('GET', '/api/atlas/v2/groups/:groupId/flexClusters'), (call, c) => {
    const { groupId } = call.params;
    projectOf(c, groupId);
    return jsonResponse(200, page(`${API}/groups/${groupId}/flexClusters`, c.db.flexClusters.filter((x) => x.groupId === groupId).map(renderFlex), call.query));
  }, { input: { query: PageQuery } }),

  operation<AtlasCtx, '/api/atlas/v2/groups/:groupId/flexClusters/:name'>('getFlexCluster', rest('GET', '/api/atlas/v2/groups/:groupId/flexClusters/:name'), (call, c) => {
    const { groupId, name } = call.params;
    projectOf(c, groupId);
    const flex = c.db.flexClusters.get(clusterKey(groupId, name));
    if (!flex) throw atlasError(404, 'FLEX_CLUSTER_NOT_FOUND', `Flex cluster ${name} not found in group ${groupId}.`, [name, groupId]);
    return jsonResponse(200, renderFlex(flex));
  }),

  operation<AtlasCtx, '/api/atlas/v2/groups/:groupId/flexClusters:tenantUpgrade', Record<string, string>, ClusterBody>('tenantUpgrade', rest('POST', '/api/atlas/v2/groups/:groupId/flexClusters:tenantUpgrade'), (call, c) => {
    const { groupId } = call.params;
    projectOf(c, groupId);
    const key = clusterKey(groupId, call.body.name);
    const flex = c.db.flexClusters.get(key);
    if (!flex) throw atlasError(404, 'FLEX_CLUSTER_NOT_FOUND', `Flex cluster ${call.body.name} not found in group ${groupId}.`, [call.body.name, groupId]);
    const specs = (Array.isArray(call.body.replicationSpecs) ? call.body.replicationSpecs : []) as Json[];
    const settings = flex.providerSettings as Json;
    const regionConfigs = ((specs[0]?.regionConfigs ?? []) as Json[]).map((rc) => ({ providerName: settings.backingProviderName, regionName: settings.regionName, priority: 7, electableSpecs: { instanceSize: 'M10', nodeCount: 3 }, ...rc }));
    c.db.flexClusters.delete(key);
    const cluster = clusterFromBody(c.ctx, groupId, { name: flex.name, clusterType: 'REPLICASET', backupEnabled: true, replicationSpecs: [{ regionConfigs: regionConfigs.length > 0 ? regionConfigs : [{ providerName: settings.backingProviderName, regionName: settings.regionName, priority: 7, electableSpecs: { instanceSize: 'M10', nodeCount: 3 } }] }] });
    c.db.clusters.put(key, { ...cluster, id: flex.id, stateName: 'UPDATING' });
    return jsonResponse(200, { ...renderFlex(flex), stateName: 'UPDATING' });
  }, { input: { body: ClusterBody } }),

  operation<AtlasCtx, '/api/atlas/v2/groups/:groupId/databaseUsers', PageQuery>('listDatabaseUsers', rest('GET', '/api/atlas/v2/groups/:groupId/databaseUsers'), (call, c) => {
    const { groupId } = call.params;
    projectOf(c, groupId);
    return jsonResponse(200, page(`${API}/groups/${groupId}/databaseUsers`, c.db.databaseUsers.filter((u) => u.groupId === groupId).map(renderUser), call.query));
  }, { input: { query: PageQuery } }),

  operation<AtlasCtx, '/api/atlas/v2/groups/:groupId/databaseUsers', Record<string, string>, CreateUserBody>('createDatabaseUser', rest('POST', '/api/atlas/v2/groups/:groupId/databaseUsers'), (call, c) => {
    const { groupId } = call.params;
    projectOf(c, groupId);
    const { password, ...body } = call.body;
    if (body.roles.length === 0) throw atlasError(400, 'MISSING_ATTRIBUTE', 'The required attribute roles was not specified.', ['roles']);
    if (body.databaseName === 'admin' && body.x509Type === 'NONE' && body.awsIAMType === 'NONE' && body.ldapAuthType === 'NONE' && body.oidcAuthType === 'NONE' && !password) {
      throw atlasError(400, 'MISSING_ATTRIBUTE', 'The required attribute password was not specified.', ['password']);
    }
    const key = userKey(groupId, body.databaseName, body.username);
    if (c.db.databaseUsers.has(key)) throw atlasError(409, 'USER_ALREADY_EXISTS', 'The specified user already exists.', []);
    checkScopes(c, groupId, body.scopes);
    const user = c.db.databaseUsers.put(key, { ...body, groupId, scopes: body.scopes ?? [], labels: body.labels ?? [] });
    // The password is write-only: Atlas never answers it.
    return jsonResponse(201, renderUser(user));
  }, { input: { body: CreateUserBody } }),

  operation<AtlasCtx, '/api/atlas/v2/groups/:groupId/databaseUsers/:databaseName/:username'>('getDatabaseUser', rest('GET', '/api/atlas/v2/groups/:groupId/databaseUsers/:databaseName/:username'), (call, c) => {
    const { groupId, databaseName, username } = call.params;
    projectOf(c, groupId);
    const user = c.db.databaseUsers.get(userKey(groupId, databaseName, username));
    if (!user) throw atlasError(404, 'USERNAME_NOT_FOUND', `No user with username ${username} exists.`, [username]);
    return jsonResponse(200, renderUser(user));
  }),

  operation<AtlasCtx, '/api/atlas/v2/groups/:groupId/databaseUsers/:databaseName/:username'>('deleteDatabaseUser', rest('DELETE', '/api/atlas/v2/groups/:groupId/databaseUsers/:databaseName/:username'), (call, c) => {
    const { groupId, databaseName, username } = call.params;
    projectOf(c, groupId);
    if (!c.db.databaseUsers.delete(userKey(groupId, databaseName, username))) throw atlasError(404, 'USERNAME_NOT_FOUND', `No user with username ${username} exists.`, [username]);
    return emptyResponse(204);
  }),

  operation<AtlasCtx, '/api/atlas/v2/groups/:groupId/accessList', PageQuery>('listAccessListEntries', rest('GET', '/api/atlas/v2/groups/:groupId/accessList'), (call, c) => {
    const { groupId } = call.params;
    projectOf(c, groupId);
    return jsonResponse(200, page(`${API}/groups/${groupId}/accessList`, c.db.accessList.filter((e) => e.groupId === groupId).map(renderEntry), call.query));
  }, { input: { query: PageQuery } }),

  // Atlas adds each entry, or updates the comment of one it already has, and answers the whole list.
  operation<AtlasCtx, '/api/atlas/v2/groups/:groupId/accessList', Record<string, string>, AccessEntryBody>('createAccessListEntry', rest('POST', '/api/atlas/v2/groups/:groupId/accessList'), (call, c) => {
    const { groupId } = call.params;
    projectOf(c, groupId);
    for (const entry of call.body) {
      const given = [entry.ipAddress, entry.cidrBlock, entry.awsSecurityGroup].filter((v) => v !== undefined).length;
      if (given !== 1) throw atlasError(400, 'INVALID_ATTRIBUTE', 'Specify exactly one of ipAddress, cidrBlock or awsSecurityGroup.', ['ipAddress']);
      if (entry.awsSecurityGroup !== undefined) throw atlasError(400, 'AWS_SECURITY_GROUP_NOT_SUPPORTED', 'Security groups need a network peering connection in this project.', []);
      const cidrBlock = entry.cidrBlock ?? `${entry.ipAddress}/32`;
      const value = entry.ipAddress ?? cidrBlock;
      c.db.accessList.put(accessKey(groupId, value), {
        groupId, cidrBlock, ...(entry.ipAddress !== undefined ? { ipAddress: entry.ipAddress } : {}), comment: entry.comment ?? '',
        ...(entry.deleteAfterDate !== undefined ? { deleteAfterDate: entry.deleteAfterDate } : {}),
      });
    }
    return jsonResponse(201, page(`${API}/groups/${groupId}/accessList`, c.db.accessList.filter((e) => e.groupId === groupId).map(renderEntry), PageQuery.parse({})));
  }, { input: { body: AccessEntryBody } }),

  operation<AtlasCtx, '/api/atlas/v2/groups/:groupId/accessList/:entryValue'>('getAccessListEntry', rest('GET', '/api/atlas/v2/groups/:groupId/accessList/:entryValue'), (call, c) => {
    const { groupId, entryValue } = call.params;
    projectOf(c, groupId);
    const entry = c.db.accessList.get(accessKey(groupId, entryValue));
    if (!entry) throw atlasError(404, 'ATLAS_NETWORK_PERMISSION_ENTRY_NOT_FOUND', `IP address ${entryValue} not on Atlas access list for group ${groupId}.`, [entryValue, groupId]);
    return jsonResponse(200, renderEntry(entry));
  }),

  operation<AtlasCtx, '/api/atlas/v2/groups/:groupId/accessList/:entryValue'>('deleteAccessListEntry', rest('DELETE', '/api/atlas/v2/groups/:groupId/accessList/:entryValue'), (call, c) => {
    const { groupId, entryValue } = call.params;
    projectOf(c, groupId);
    if (!c.db.accessList.delete(accessKey(groupId, entryValue))) {
      throw atlasError(404, 'ATLAS_NETWORK_PERMISSION_ENTRY_NOT_FOUND', `IP address ${entryValue} not on Atlas access list for group ${groupId}.`, [entryValue, groupId]);
    }
    return emptyResponse(204);
  }),

  operation<AtlasCtx, '/api/atlas/v2/groups/:groupId/alerts', AlertsQuery>('listAlerts', rest('GET', '/api/atlas/v2/groups/:groupId/alerts'), (call, c) => {
    const { groupId } = call.params;
    projectOf(c, groupId);
    const alerts = c.db.alerts.filter((a) => a.groupId === groupId && (call.query.status === undefined || a.status === call.query.status))
      .sort((a, b) => b.created.localeCompare(a.created))
      .map((a) => ({ ...a, links: selfLinks(`${API}/groups/${groupId}/alerts/${a.id}`) }));
    return jsonResponse(200, page(`${API}/groups/${groupId}/alerts`, alerts, call.query));
  }, { input: { query: AlertsQuery } }),

  operation<AtlasCtx, '/api/atlas/v2/groups/:groupId/encryptionAtRest'>('getEncryptionAtRest', rest('GET', '/api/atlas/v2/groups/:groupId/encryptionAtRest'), (call, c) => {
    const { groupId } = call.params;
    projectOf(c, groupId);
    const off = { enabled: false, valid: false };
    return jsonResponse(200, { awsKms: off, azureKeyVault: off, googleCloudKms: off, enabledForSearchNodes: false, ...c.db.encryptionAtRest.get(groupId) });
  }),

  ...advisorOperations(),

  operation<AtlasCtx, '/api/atlas/v2/groups/:groupId/sampleDatasetLoad/:name'>('requestSampleDatasetLoad', rest('POST', '/api/atlas/v2/groups/:groupId/sampleDatasetLoad/:name'), (call, c) => {
    const { groupId, name } = call.params;
    projectOf(c, groupId);
    if (!c.db.clusters.has(clusterKey(groupId, name)) && !c.db.flexClusters.has(clusterKey(groupId, name))) throw clusterNotFound(name, groupId);
    const id = objectId(c.ctx, 'sample-dataset-load', c.ctx.nowMs);
    const load = c.db.sampleLoads.put(id, { _id: id, groupId, clusterName: name, state: 'WORKING', createDate: iso(c.ctx.nowMs), readyAtMs: c.ctx.nowMs + 3 * SETTLE_MS });
    return jsonResponse(201, renderLoad(load));
  }),

  operation<AtlasCtx, '/api/atlas/v2/groups/:groupId/sampleDatasetLoad/:sampleDatasetId'>('getSampleDatasetLoad', rest('GET', '/api/atlas/v2/groups/:groupId/sampleDatasetLoad/:sampleDatasetId'), (call, c) => {
    const { groupId, sampleDatasetId } = call.params;
    projectOf(c, groupId);
    const load = c.db.sampleLoads.get(sampleDatasetId);
    if (!load || load.groupId !== groupId) throw atlasError(404, 'SAMPLE_DATASET_LOAD_NOT_FOUND', `No sample dataset load with ID ${sampleDatasetId} exists.`, [sampleDatasetId]);
    if (load.state === 'WORKING' && load.readyAtMs <= c.ctx.nowMs) {
      return jsonResponse(200, renderLoad(c.db.sampleLoads.put(sampleDatasetId, { ...load, state: 'COMPLETED', completeDate: iso(load.readyAtMs) })));
    }
    return jsonResponse(200, renderLoad(load));
  }),
];

const renderLoad = (load: Json): Json => {
  const { readyAtMs: _r, groupId: _g, ...rest } = load;
  return rest;
};

/** Performance Advisor: index suggestions, drop suggestions and schema advice per cluster, slow query logs per process. */
function advisorOperations(): Operation<AtlasCtx>[] {
  const findings = (c: AtlasCtx, groupId: string, clusterName: string): Json => {
    clusterOf(c, groupId, clusterName);
    return c.db.advisor.get(clusterKey(groupId, clusterName)) ?? {};
  };
  const list = (key: string) => (f: Json) => (Array.isArray(f[key]) ? f[key] : []);
  const enveloped = (content: Json) => jsonResponse(200, { content, status: 200 });
  return [
    operation<AtlasCtx, '/api/atlas/v2/groups/:groupId/clusters/:clusterName/performanceAdvisor/suggestedIndexes'>('listClusterSuggestedIndexes',
      rest('GET', '/api/atlas/v2/groups/:groupId/clusters/:clusterName/performanceAdvisor/suggestedIndexes'), (call, c) => {
        const f = findings(c, call.params.groupId, call.params.clusterName);
        return enveloped({ shapes: list('shapes')(f), suggestedIndexes: list('suggestedIndexes')(f) });
      }),
    operation<AtlasCtx, '/api/atlas/v2/groups/:groupId/clusters/:clusterName/performanceAdvisor/dropIndexSuggestions'>('listDropIndexSuggestions',
      rest('GET', '/api/atlas/v2/groups/:groupId/clusters/:clusterName/performanceAdvisor/dropIndexSuggestions'), (call, c) => {
        const f = findings(c, call.params.groupId, call.params.clusterName);
        return enveloped({ hiddenIndexes: list('hiddenIndexes')(f), redundantIndexes: list('redundantIndexes')(f), unusedIndexes: list('unusedIndexes')(f) });
      }),
    operation<AtlasCtx, '/api/atlas/v2/groups/:groupId/clusters/:clusterName/performanceAdvisor/schemaAdvice'>('listSchemaAdvice',
      rest('GET', '/api/atlas/v2/groups/:groupId/clusters/:clusterName/performanceAdvisor/schemaAdvice'), (call, c) => {
        const f = findings(c, call.params.groupId, call.params.clusterName);
        return enveloped({ recommendations: list('recommendations')(f) });
      }),
    operation<AtlasCtx, '/api/atlas/v2/groups/:groupId/processes/:processId/performanceAdvisor/slowQueryLogs', SlowQueryQuery>('listSlowQueryLogs',
      rest('GET', '/api/atlas/v2/groups/:groupId/processes/:processId/performanceAdvisor/slowQueryLogs'), (call, c) => {
        const { groupId, processId } = call.params;
        projectOf(c, groupId);
        // A process is `<cluster>-shard-00-0N.<tag>.mongodb.net:27017`; the slow queries are logged on the first node.
        const cluster = c.db.clusters.find((x) => x.groupId === groupId && processId === `${x.name.toLowerCase()}-shard-00-00.${String(x.hostTag)}.mongodb.net:27017`);
        const isHost = cluster !== undefined || c.db.clusters.find((x) => x.groupId === groupId && processId.startsWith(`${x.name.toLowerCase()}-shard-00-`) && processId.includes(`.${String(x.hostTag)}.`)) !== undefined;
        if (!isHost) throw atlasError(404, 'PROCESS_NOT_FOUND', `No process ${processId} exists in group ${groupId}.`, [processId, groupId]);
        const namespaces = call.query.namespaces === undefined ? null : [call.query.namespaces].flat();
        const all = cluster ? list('slowQueries')(c.db.advisor.get(clusterKey(groupId, cluster.name)) ?? {}) as Json[] : [];
        const slowQueries = all.filter((q) => namespaces === null || namespaces.includes(String(q.namespace))).slice(0, call.query.nLogs);
        return jsonResponse(200, { slowQueries });
      }, { input: { query: SlowQueryQuery } }),
  ];
}
