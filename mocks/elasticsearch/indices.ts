import { ServiceRequest, type ServiceResponse } from '../core/http.js';
import { operation, rest } from '../kit/operation.js';
import { docBytes, NODES, nodeIndexOf, shardOf, humanBytes } from './cluster.js';
import type { EsCtx } from './context.js';
import { IndexSettingsSchema, MappingsSchema } from './dataset.js';
import { badRequest, ES_VERSION, EsError, esHeaders, esJson, illegalArgument, indexNotFound, type DocDoc, type IndexDoc } from './model.js';
import { wildcardRegex } from './fields.js';

/** Index-level APIs: resolving index expressions, `_cat`, mappings, create/delete/get, cluster info and health. */

/**
 * The indices an expression names: a comma list of names, aliases and `*` patterns, `-x`
 * excluding, `_all`. A missing concrete name is `index_not_found_exception` unless
 * `ignore_unavailable`; patterns that match nothing give no indices. Hidden (`.`) indices only
 * match patterns that start with a dot.
 */
export function resolveIndices(c: EsCtx, expression: string | undefined, options: { ignoreUnavailable?: boolean } = {}): IndexDoc[] {
  const all = c.db.indices.values().sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if (expression === undefined || expression === '' || expression === '_all' || expression === '*') return all.filter((i) => !i.name.startsWith('.'));
  const picked = new Map<string, IndexDoc>();
  for (const raw of expression.split(',')) {
    const part = raw.trim();
    if (part === '') continue;
    if (part.startsWith('-') && picked.size > 0) {
      const re = wildcardRegex(part.slice(1));
      for (const name of [...picked.keys()]) if (re.test(name)) picked.delete(name);
      continue;
    }
    if (part.includes('*')) {
      const re = wildcardRegex(part);
      for (const index of all) {
        if (index.name.startsWith('.') && !part.startsWith('.')) continue;
        if (re.test(index.name) || index.aliases.some((a) => re.test(a))) picked.set(index.name, index);
      }
      continue;
    }
    if (/^[_+-]/.test(part)) throw new EsError(400, { type: 'invalid_index_name_exception', reason: `Invalid index name [${part}], must not start with '_', '-', or '+'`, index_uuid: '_na_', index: part });
    const direct = c.db.indices.get(part) ?? null;
    const aliased = direct ? [direct] : all.filter((i) => i.aliases.includes(part));
    if (aliased.length === 0) {
      if (options.ignoreUnavailable) continue;
      throw indexNotFound(part);
    }
    for (const index of aliased) picked.set(index.name, index);
  }
  return [...picked.values()];
}

export function docsOf(c: EsCtx, index: IndexDoc): DocDoc[] {
  return c.db.docs.filter((doc) => doc.index === index.name).sort((a, b) => a.order - b.order);
}

const statusOf = (index: IndexDoc): string => (index.replicas >= NODES.length ? 'yellow' : 'green');

/** `_cat` answers: JSON rows (strings, as `_cat` gives them) or an aligned text table (`v` adds headers); `h` picks columns, `s` sorts. */
function catResponse(c: EsCtx, req: ServiceRequest, rows: Record<string, string | null>[], columns: string[]): ServiceResponse {
  const h = req.query.get('h');
  const chosen = h ? h.split(',').map((s) => s.trim()).filter((s) => columns.includes(s)) : columns;
  const s = req.query.get('s');
  if (s) {
    const keys = s.split(',').map((k) => k.split(':') as [string, string?]);
    rows = [...rows].sort((a, b) => {
      for (const [key, dir] of keys) {
        const va = a[key] ?? '';
        const vb = b[key] ?? '';
        const na = Number(va);
        const nb = Number(vb);
        const cmp = Number.isFinite(na) && Number.isFinite(nb) && va !== '' && vb !== '' ? na - nb : va < vb ? -1 : va > vb ? 1 : 0;
        if (cmp !== 0) return dir === 'desc' ? -cmp : cmp;
      }
      return 0;
    });
  }
  const picked = rows.map((row) => Object.fromEntries(chosen.map((col) => [col, row[col] ?? null])));
  if (req.query.get('format') === 'json') return esJson(200, picked, c.accept);
  const table = [...(req.query.get('v') === 'true' ? [Object.fromEntries(chosen.map((col) => [col, col]))] : []), ...picked];
  const widths = chosen.map((col) => Math.max(...table.map((row) => String(row[col] ?? '').length)));
  const text = table.map((row) => chosen.map((col, i) => String(row[col] ?? '').padEnd(widths[i]!)).join(' ').trimEnd() + '\n').join('');
  return { status: 200, headers: [['X-elastic-product', 'Elasticsearch'], ['content-type', 'text/plain; charset=UTF-8']], body: new TextEncoder().encode(text) };
}

function catIndices(c: EsCtx, req: ServiceRequest, expression: string | undefined): ServiceResponse {
  const rows = resolveIndices(c, expression).map((index) => {
    const docs = docsOf(c, index);
    const bytes = docs.reduce((n, d) => n + docBytes(d), 0) + 225 * index.shards;
    return {
      health: statusOf(index), status: 'open', index: index.name, uuid: index.uuid, pri: String(index.shards), rep: String(index.replicas),
      'docs.count': String(docs.length), 'docs.deleted': '0', 'store.size': humanBytes(bytes * (1 + index.replicas)), 'pri.store.size': humanBytes(bytes), 'dataset.size': humanBytes(bytes),
    };
  });
  return catResponse(c, req, rows, ['health', 'status', 'index', 'uuid', 'pri', 'rep', 'docs.count', 'docs.deleted', 'store.size', 'pri.store.size', 'dataset.size']);
}

function catShards(c: EsCtx, req: ServiceRequest, expression: string | undefined): ServiceResponse {
  const rows: Record<string, string | null>[] = [];
  for (const index of resolveIndices(c, expression)) {
    const docs = docsOf(c, index);
    for (let shard = 0; shard < index.shards; shard++) {
      const own = docs.filter((d) => shardOf(index, d) === shard);
      const bytes = own.reduce((n, d) => n + docBytes(d), 0) + 225;
      for (let copy = 0; copy <= index.replicas; copy++) {
        const node = copy < NODES.length ? NODES[nodeIndexOf(index, shard, copy)]! : null;
        rows.push({
          index: index.name, shard: String(shard), prirep: copy === 0 ? 'p' : 'r', state: node ? 'STARTED' : 'UNASSIGNED',
          docs: node ? String(own.length) : null, store: node ? humanBytes(bytes) : null, dataset: node ? humanBytes(bytes) : null,
          ip: node?.ip ?? null, node: node?.name ?? null,
        });
      }
    }
  }
  return catResponse(c, req, rows, ['index', 'shard', 'prirep', 'state', 'docs', 'store', 'dataset', 'ip', 'node']);
}

function mappingOf(index: IndexDoc): Record<string, unknown> {
  return { ...(index.dynamic === true ? {} : { dynamic: String(index.dynamic) }), properties: index.properties };
}

function settingsOf(index: IndexDoc): Record<string, unknown> {
  return {
    index: {
      routing: { allocation: { include: { _tier_preference: 'data_content' } } },
      number_of_shards: String(index.shards), provided_name: index.name, creation_date: String(index.created),
      number_of_replicas: String(index.replicas), uuid: index.uuid, version: { created: '9009000' },
    },
  };
}

const ignoreUnavailable = (req: ServiceRequest): boolean => req.query.get('ignore_unavailable') === 'true';

export function createIndex(c: EsCtx, name: string, body: unknown): IndexDoc {
  if (name !== name.toLowerCase()) throw new EsError(400, { type: 'invalid_index_name_exception', reason: `Invalid index name [${name}], must be lowercase`, index_uuid: '_na_', index: name });
  if (!/^[a-z0-9][a-z0-9._-]*$/.test(name)) throw new EsError(400, { type: 'invalid_index_name_exception', reason: `Invalid index name [${name}], must not contain the following characters [ , ", *, \\, <, |, ,, >, /, ?, #, :]`, index_uuid: '_na_', index: name });
  const existing = c.db.indices.get(name);
  if (existing) throw new EsError(400, { type: 'resource_already_exists_exception', reason: `index [${name}/${existing.uuid}] already exists`, index_uuid: existing.uuid, index: name });
  const spec = (body ?? {}) as { settings?: unknown; mappings?: unknown; aliases?: unknown };
  const rawSettings = (spec.settings ?? {}) as Record<string, unknown>;
  const flat = (rawSettings.index ?? rawSettings) as Record<string, unknown>;
  const settings = IndexSettingsSchema.safeParse({
    ...(flat.number_of_shards === undefined ? {} : { number_of_shards: Number(flat.number_of_shards) }),
    ...(flat.number_of_replicas === undefined ? {} : { number_of_replicas: Number(flat.number_of_replicas) }),
  });
  if (!settings.success) throw illegalArgument(`Failed to parse value for setting [${settings.error.issues[0]?.path.join('.')}]`);
  const mappings = MappingsSchema.safeParse(spec.mappings ?? {});
  if (!mappings.success) throw badRequest('mapper_parsing_exception', `Failed to parse mapping: ${mappings.error.issues[0]?.path.join('.')}: ${mappings.error.issues[0]?.message}`);
  const dynamic = mappings.data.dynamic === undefined ? true : mappings.data.dynamic === 'strict' ? 'strict' : mappings.data.dynamic === true || mappings.data.dynamic === 'true';
  const doc: IndexDoc = {
    name, uuid: c.ctx.ids.opaqueBase64('index-uuid', name, 22), created: c.ctx.nowMs,
    aliases: Object.keys((spec.aliases ?? {}) as Record<string, unknown>), shards: settings.data.number_of_shards, replicas: settings.data.number_of_replicas,
    dynamic, properties: mappings.data.properties, nextSeq: 0,
  };
  return c.db.indices.put(name, doc);
}

export const indexOperations = [
  operation<EsCtx, '/'>('info', rest('GET', '/'), (_call, c) => {
    const cluster = c.db.cluster.get('cluster')!;
    return esJson(200, {
      name: 'instance-0000000000', cluster_name: cluster.name, cluster_uuid: cluster.uuid,
      version: { number: ES_VERSION.number, build_flavor: 'default', build_type: 'docker', build_hash: ES_VERSION.build_hash, build_date: ES_VERSION.build_date, build_snapshot: false, lucene_version: ES_VERSION.lucene, minimum_wire_compatibility_version: '8.19.0', minimum_index_compatibility_version: '8.0.0' },
      tagline: 'You Know, for Search',
    }, c.accept);
  }),
  operation<EsCtx, '/'>('ping', rest('HEAD', '/'), (_call, c) => ({ status: 200, headers: esHeaders(c.accept), body: new Uint8Array(0) })),
  operation<EsCtx, '/_cluster/health'>('cluster.health', rest('GET', '/_cluster/health'), (_call, c) => {
    const indices = c.db.indices.values();
    const primaries = indices.reduce((n, i) => n + i.shards, 0);
    const active = indices.reduce((n, i) => n + i.shards * (1 + Math.min(i.replicas, NODES.length - 1)), 0);
    const unassigned = indices.reduce((n, i) => n + i.shards * Math.max(0, i.replicas - (NODES.length - 1)), 0);
    return esJson(200, {
      cluster_name: c.db.cluster.get('cluster')!.name, status: unassigned > 0 ? 'yellow' : 'green', timed_out: false,
      number_of_nodes: NODES.length, number_of_data_nodes: NODES.length, active_primary_shards: primaries, active_shards: active,
      relocating_shards: 0, initializing_shards: 0, unassigned_shards: unassigned, unassigned_primary_shards: 0, delayed_unassigned_shards: 0,
      number_of_pending_tasks: 0, number_of_in_flight_fetch: 0, task_max_waiting_in_queue_millis: 0,
      active_shards_percent_as_number: active + unassigned === 0 ? 100.0 : (100 * active) / (active + unassigned),
    }, c.accept);
  }),
  operation<EsCtx, '/_cat/indices'>('cat.indices', rest('GET', '/_cat/indices'), (call, c) => catIndices(c, call.req, undefined)),
  operation<EsCtx, '/_cat/indices/:index'>('cat.indices', rest('GET', '/_cat/indices/:index'), (call, c) => catIndices(c, call.req, call.params.index)),
  operation<EsCtx, '/_cat/shards'>('cat.shards', rest('GET', '/_cat/shards'), (call, c) => catShards(c, call.req, undefined)),
  operation<EsCtx, '/_cat/shards/:index'>('cat.shards', rest('GET', '/_cat/shards/:index'), (call, c) => catShards(c, call.req, call.params.index)),
  operation<EsCtx, '/_mapping'>('indices.get_mapping', rest('GET', '/_mapping'), (_call, c) => esJson(200, Object.fromEntries(resolveIndices(c, undefined).map((i) => [i.name, { mappings: mappingOf(i) }])), c.accept)),
  operation<EsCtx, '/:index/_mapping'>('indices.get_mapping', rest('GET', '/:index/_mapping'), (call, c) => esJson(200, Object.fromEntries(resolveIndices(c, call.params.index, { ignoreUnavailable: ignoreUnavailable(call.req) }).map((i) => [i.name, { mappings: mappingOf(i) }])), c.accept)),
  operation<EsCtx, '/:index'>('indices.get', rest('GET', '/:index'), (call, c) => esJson(200, Object.fromEntries(resolveIndices(c, call.params.index).map((i) => [i.name, {
    aliases: Object.fromEntries(i.aliases.map((a) => [a, {}])), mappings: mappingOf(i), settings: settingsOf(i),
  }])), c.accept)),
  operation<EsCtx, '/:index'>('indices.exists', rest('HEAD', '/:index'), (call, c) => {
    try {
      const found = resolveIndices(c, call.params.index);
      return { status: found.length > 0 ? 200 : 404, headers: [['X-elastic-product', 'Elasticsearch']], body: new Uint8Array(0) };
    } catch {
      return { status: 404, headers: [['X-elastic-product', 'Elasticsearch']], body: new Uint8Array(0) };
    }
  }),
  operation<EsCtx, '/:index'>('indices.create', rest('PUT', '/:index'), (call, c) => {
    const index = createIndex(c, call.params.index, call.body);
    return esJson(200, { acknowledged: true, shards_acknowledged: true, index: index.name }, c.accept);
  }),
  operation<EsCtx, '/:index'>('indices.delete', rest('DELETE', '/:index'), (call, c) => {
    for (const index of resolveIndices(c, call.params.index)) {
      for (const doc of docsOf(c, index)) c.db.docs.delete(`${index.name}/${doc.id}`);
      c.db.indices.delete(index.name);
    }
    return esJson(200, { acknowledged: true }, c.accept);
  }),
  ...(['GET', 'POST'] as const).flatMap((method) => [
    operation<EsCtx, '/_refresh'>('indices.refresh', rest(method, '/_refresh'), (_call, c) => refreshed(c, resolveIndices(c, undefined))),
    operation<EsCtx, '/:index/_refresh'>('indices.refresh', rest(method, '/:index/_refresh'), (call, c) => refreshed(c, resolveIndices(c, call.params.index))),
  ]),
];

/** Every write is searchable at once in this mock, so a refresh only reports its shards. */
function refreshed(c: EsCtx, indices: IndexDoc[]): ServiceResponse {
  const total = indices.reduce((n, i) => n + i.shards * (1 + i.replicas), 0);
  return esJson(200, { _shards: { total, successful: total, failed: 0 } }, c.accept);
}
