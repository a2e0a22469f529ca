import type { LoadContext } from '../core/service.js';
import type { ClusterRecord, FlexClusterRecord } from './dataset.js';
import { API, hostTag, iso, objectId, selfLinks, type ClusterDoc, type Db, type FlexClusterDoc, type Json } from './model.js';

/**
 * Clusters as the Admin API describes them (ClusterDescription20240805 and
 * FlexClusterDescription20241113): built from a dataset record or a create body, with the
 * connection strings Atlas gives once a cluster is IDLE, and the logical time a CREATING or
 * UPDATING cluster settles at.
 */

/** How long (logical ms) a create, resize, pause or resume takes before the cluster is IDLE again. */
export const SETTLE_MS = 10_000;

const ELECTABLE_NODES = [[3], [2, 1], [2, 2, 1]];

/** `mongodb://` with the three hosts of a replica set, and its `mongodb+srv://` form. */
function connectionStrings(name: string, tag: string): Json {
  const base = name.toLowerCase();
  const hosts = [0, 1, 2].map((i) => `${base}-shard-00-0${i}.${tag}.mongodb.net:27017`).join(',');
  return {
    standard: `mongodb://${hosts}/?ssl=true&authSource=admin&replicaSet=atlas-${tag}-shard-0`,
    standardSrv: `mongodb+srv://${base}.${tag}.mongodb.net`,
  };
}

/** The first region config's electable instance size (`M0` for a free cluster). */
export function instanceSizeOf(cluster: Json): string | undefined {
  const spec = (cluster.replicationSpecs as Json[] | undefined)?.[0];
  const region = (spec?.regionConfigs as Json[] | undefined)?.[0];
  return ((region?.electableSpecs as Json | undefined)?.instanceSize as string | undefined);
}

export const isFree = (cluster: Json) => instanceSizeOf(cluster) === 'M0';

function dedicatedRegionConfigs(r: ClusterRecord): Json[] {
  const regions = [r.region, ...r.extraRegions];
  const nodes = ELECTABLE_NODES[regions.length - 1] ?? [];
  return regions.map((regionName, i) => ({
    providerName: r.provider,
    regionName,
    priority: 7 - i,
    electableSpecs: { instanceSize: r.instanceSize, nodeCount: nodes[i] ?? 3, ...(r.diskSizeGB !== undefined ? { diskSizeGB: r.diskSizeGB } : {}) },
    readOnlySpecs: { instanceSize: r.instanceSize, nodeCount: 0 },
    analyticsSpecs: { instanceSize: r.instanceSize, nodeCount: 0 },
    autoScaling: {
      compute: r.computeAutoScaling ? { enabled: true, scaleDownEnabled: true, minInstanceSize: r.instanceSize, maxInstanceSize: 'M80' } : { enabled: false, scaleDownEnabled: false },
      diskGB: { enabled: true },
    },
  }));
}

/** A cluster document from a dataset record. */
export function clusterFromRecord(ctx: LoadContext, r: ClusterRecord): ClusterDoc {
  const createdMs = r.created ? Date.parse(r.created) : ctx.epochMs;
  const free = r.instanceSize === 'M0';
  const regionConfigs = free
    ? [{ providerName: 'TENANT', backingProviderName: r.provider, regionName: r.region, priority: 7, electableSpecs: { instanceSize: 'M0' } }]
    : dedicatedRegionConfigs(r);
  return finish(ctx, {
    id: r.id ?? objectId(ctx, 'cluster', createdMs),
    groupId: r.projectId,
    name: r.name,
    clusterType: r.clusterType,
    backupEnabled: free ? false : r.backupEnabled,
    pitEnabled: false,
    ...(r.diskSizeGB !== undefined ? { diskSizeGB: r.diskSizeGB } : {}),
    encryptionAtRestProvider: 'NONE',
    mongoDBMajorVersion: r.mongoDBVersion.split('.').slice(0, 2).join('.'),
    mongoDBVersion: r.mongoDBVersion,
    versionReleaseSystem: 'LTS',
    paused: r.paused,
    stateName: r.state,
    terminationProtectionEnabled: r.terminationProtectionEnabled,
    tags: r.tags,
    createDate: iso(createdMs),
    replicationSpecs: [{ zoneName: 'Zone 1', regionConfigs }],
  }, r.state === 'IDLE' ? null : ctx.epochMs + SETTLE_MS);
}

/** A cluster document from a `POST /groups/{groupId}/clusters` body (a free or a dedicated cluster). */
export function clusterFromBody(ctx: LoadContext & { nowMs: number }, groupId: string, body: Json): ClusterDoc {
  const major = typeof body.mongoDBMajorVersion === 'string' ? body.mongoDBMajorVersion : '8.0';
  const specs = (Array.isArray(body.replicationSpecs) ? body.replicationSpecs : []) as Json[];
  return finish(ctx, {
    ...body,
    id: objectId(ctx, 'cluster', ctx.nowMs),
    groupId,
    name: String(body.name),
    clusterType: body.clusterType ?? 'REPLICASET',
    backupEnabled: body.backupEnabled ?? false,
    pitEnabled: body.pitEnabled ?? false,
    encryptionAtRestProvider: body.encryptionAtRestProvider ?? 'NONE',
    mongoDBMajorVersion: major,
    mongoDBVersion: major === '7.0' ? '7.0.24' : '8.0.12',
    versionReleaseSystem: body.versionReleaseSystem ?? 'LTS',
    paused: false,
    stateName: 'CREATING',
    terminationProtectionEnabled: body.terminationProtectionEnabled ?? false,
    tags: body.tags ?? [],
    createDate: iso(ctx.nowMs),
    replicationSpecs: specs.map((spec) => ({ zoneName: 'Zone 1', ...spec })),
  }, ctx.nowMs + SETTLE_MS);
}

/** Ids of the replication specs and zones, the host tag, and the fields every description has. */
function finish(ctx: LoadContext, doc: Json & { id: string; groupId: string; name: string }, readyAtMs: number | null): ClusterDoc {
  const tag = hostTag(ctx, 'cluster');
  const specs = (doc.replicationSpecs as Json[]).map((spec) => ({
    id: objectId(ctx, 'replication-spec', Date.parse(doc.createDate as string)),
    zoneId: objectId(ctx, 'zone', Date.parse(doc.createDate as string)),
    ...spec,
  }));
  return {
    biConnector: { enabled: false, readPreference: 'secondary' },
    globalClusterSelfManagedSharding: false,
    labels: [],
    redactClientLogData: false,
    replicaSetScalingStrategy: 'WORKLOAD_TYPE',
    rootCertType: 'ISRGROOTX1',
    ...doc,
    replicationSpecs: specs,
    hostTag: tag,
    stateName: doc.stateName as string,
    paused: doc.paused as boolean,
    readyAtMs,
  };
}

export function flexFromRecord(ctx: LoadContext, r: FlexClusterRecord): FlexClusterDoc {
  const createdMs = r.created ? Date.parse(r.created) : ctx.epochMs;
  return flexDoc(ctx, { id: r.id ?? objectId(ctx, 'flex-cluster', createdMs), groupId: r.projectId, name: r.name, provider: r.provider, region: r.region, state: r.state, version: r.mongoDBVersion, createdMs }, r.state === 'IDLE' ? null : ctx.epochMs + SETTLE_MS);
}

export function flexDoc(ctx: LoadContext, f: { id: string; groupId: string; name: string; provider: string; region: string; state: string; version: string; createdMs: number }, readyAtMs: number | null): FlexClusterDoc {
  return {
    id: f.id,
    groupId: f.groupId,
    name: f.name,
    clusterType: 'REPLICASET',
    backupSettings: { enabled: true },
    createDate: iso(f.createdMs),
    mongoDBVersion: f.version,
    providerSettings: { backingProviderName: f.provider, diskSizeGB: 5, providerName: 'FLEX', regionName: f.region },
    stateName: f.state,
    tags: [],
    terminationProtectionEnabled: false,
    versionReleaseSystem: 'LTS',
    hostTag: hostTag(ctx, 'flex-cluster'),
    readyAtMs,
  };
}

/** CREATING and UPDATING clusters whose time has come are IDLE. */
export function settleClusters(db: Db, nowMs: number): void {
  for (const [key, c] of db.clusters.entries()) if (c.readyAtMs !== null && c.readyAtMs <= nowMs) db.clusters.update(key, { stateName: 'IDLE', readyAtMs: null });
  for (const [key, c] of db.flexClusters.entries()) if (c.readyAtMs !== null && c.readyAtMs <= nowMs) db.flexClusters.update(key, { stateName: 'IDLE', readyAtMs: null });
}

/** A cluster as the API answers it: no bookkeeping fields, connection strings once it has hosts. */
export function renderCluster(c: ClusterDoc): Json {
  const { readyAtMs: _r, hostTag: tag, ...rest } = c;
  const hosts = c.stateName === 'CREATING' ? {} : connectionStrings(c.name, tag as string);
  return { ...rest, connectionStrings: hosts, links: selfLinks(`${API}/groups/${c.groupId}/clusters/${c.name}`) };
}

export function renderFlex(c: FlexClusterDoc): Json {
  const { readyAtMs: _r, hostTag: tag, ...rest } = c;
  const strings = c.stateName === 'CREATING' ? {} : { standard: `mongodb://${c.name.toLowerCase()}-shard-00-00.${tag}.mongodb.net:27017/?ssl=true&authSource=admin`, standardSrv: `mongodb+srv://${c.name.toLowerCase()}.${tag}.mongodb.net` };
  return { ...rest, connectionStrings: strings, links: selfLinks(`${API}/groups/${c.groupId}/flexClusters/${c.name}`) };
}

/**
 * The `cluster_summaries` grading view: each cluster (dedicated, free or flex) by
 * `<groupId>/<name>`, as a person describes it: its project's name, instance size (`M0`,
 * `FLEX`, `M30`), provider, region and whether it is paused.
 */
export function clusterSummaries(db: Db): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [key, c] of db.clusters.entries()) {
    const region = ((c.replicationSpecs[0]?.regionConfigs as Json[] | undefined)?.[0] ?? {}) as Json;
    out[key] = {
      projectId: c.groupId, projectName: db.projects.get(c.groupId)?.name ?? null, name: c.name, instanceSize: instanceSizeOf(c) ?? null,
      provider: region.providerName === 'TENANT' ? region.backingProviderName : region.providerName ?? null, region: region.regionName ?? null,
      paused: c.paused, computeAutoScaling: ((region.autoScaling as Json | undefined)?.compute as Json | undefined)?.enabled ?? false,
    };
  }
  for (const [key, c] of db.flexClusters.entries()) {
    const settings = c.providerSettings as Json;
    out[key] = { projectId: c.groupId, projectName: db.projects.get(c.groupId)?.name ?? null, name: c.name, instanceSize: 'FLEX', provider: settings.backingProviderName, region: settings.regionName, paused: false, computeAutoScaling: false };
  }
  return out;
}
