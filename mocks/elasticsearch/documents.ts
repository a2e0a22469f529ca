import type { ServiceResponse } from '../core/http.js';
import { operation, rest } from '../kit/operation.js';
import type { EsCtx } from './context.js';
import { mapDynamically, resolveField } from './fields.js';
import { createIndex, resolveIndices } from './indices.js';
import { badRequest, docKey, EsError, esJson, indexNotFound, type DocDoc, type IndexDoc } from './model.js';
import { indexedValue } from './scope.js';
import { isText, leafFields } from './fields.js';

/** Document APIs: index, create, get, delete, update and `_bulk`, with versions, sequence numbers and dynamic mapping. */

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The one concrete index a write goes to (an alias with one index included); created on first write, as `action.auto_create_index` does. */
function writeIndex(c: EsCtx, name: string): IndexDoc {
  const direct = c.db.indices.get(name);
  if (direct) return direct;
  const aliased = c.db.indices.values().filter((i) => i.aliases.includes(name));
  if (aliased.length === 1) return aliased[0]!;
  if (aliased.length > 1) throw badRequest('illegal_argument_exception', `no write index is defined for alias [${name}]. The write index may be explicitly disabled using is_write_index=false or the alias points to multiple indices without one being designated as a write index`);
  return createIndex(c, name, {});
}

function readIndex(c: EsCtx, name: string): IndexDoc {
  const [index] = resolveIndices(c, name);
  if (!index || name.includes('*') || name.includes(',')) throw indexNotFound(name);
  return index;
}

/** Checks a source against the index's mappings and maps new fields; the error Elasticsearch gives for a value a field cannot hold. */
function admit(c: EsCtx, index: IndexDoc, id: string, source: Json): IndexDoc {
  for (const field of leafFields(index.properties)) {
    if (isText(field.type) || field.path !== field.sourcePath) continue;
    const raw = field.sourcePath.split('.').reduce<unknown>((node, part) => (isObject(node) ? node[part] : undefined), source);
    for (const value of Array.isArray(raw) ? raw : [raw]) {
      if (value === undefined || value === null || isObject(value)) continue;
      if (indexedValue(value, field) === null && field.type !== 'keyword') {
        throw badRequest('document_parsing_exception', `[1:2] failed to parse field [${field.path}] of type [${field.type}] in document with id '${id}'. Preview of field's value: '${String(value)}'`);
      }
    }
  }
  const mapped = mapDynamically(index.properties, source);
  if (mapped === index.properties) return index;
  if (index.dynamic === 'strict') {
    const added = leafFields(mapped).find((f) => !resolveField(index.properties, f.path));
    throw new EsError(400, { type: 'strict_dynamic_mapping_exception', reason: `[1:2] mapping set to strict, dynamic introduction of [${added?.path ?? '?'}] within [_doc] is not allowed` });
  }
  if (index.dynamic === false) return index;
  return c.db.indices.put(index.name, { ...index, properties: mapped });
}

function shardsHeader(index: IndexDoc): Json {
  return { total: 1 + index.replicas, successful: 1 + index.replicas, failed: 0 };
}

interface WriteResult { status: number; body: Json }

/** Indexes (or, with `create`, only creates) one document; what both `PUT /_doc` and `_bulk` do. */
export function indexDocument(c: EsCtx, indexName: string, id: string | undefined, source: unknown, opType: 'index' | 'create'): WriteResult {
  if (!isObject(source)) throw badRequest('mapper_parsing_exception', 'failed to parse, document is empty');
  let index = writeIndex(c, indexName);
  const docId = id ?? c.ctx.ids.opaqueBase64('doc-id', `${index.name}/${index.nextSeq}`, 20);
  const key = docKey(index.name, docId);
  const existing = c.db.docs.get(key);
  if (existing && opType === 'create') {
    throw new EsError(409, { type: 'version_conflict_engine_exception', reason: `[${docId}]: version conflict, document already exists (current version [${existing.version}])`, index_uuid: index.uuid, shard: '0', index: index.name });
  }
  index = admit(c, index, docId, source);
  const seqNo = index.nextSeq;
  c.db.indices.put(index.name, { ...index, nextSeq: seqNo + 1 });
  const doc: DocDoc = { index: index.name, id: docId, source, version: (existing?.version ?? 0) + 1, seqNo, order: existing?.order ?? seqNo };
  c.db.docs.put(key, doc);
  return {
    status: existing ? 200 : 201,
    body: { _index: index.name, _id: docId, _version: doc.version, result: existing ? 'updated' : 'created', _shards: shardsHeader(index), _seq_no: seqNo, _primary_term: 1 },
  };
}

function deleteDocument(c: EsCtx, indexName: string, id: string): WriteResult {
  const index = readIndex(c, indexName);
  const existing = c.db.docs.get(docKey(index.name, id));
  const seqNo = index.nextSeq;
  c.db.indices.put(index.name, { ...index, nextSeq: seqNo + 1 });
  if (existing) c.db.docs.delete(docKey(index.name, id));
  return {
    status: existing ? 200 : 404,
    body: { _index: index.name, _id: id, _version: (existing?.version ?? 0) + 1, result: existing ? 'deleted' : 'not_found', _shards: shardsHeader(index), _seq_no: seqNo, _primary_term: 1 },
  };
}

function deepMerge(base: Json, patch: Json): Json {
  const out: Json = { ...base };
  for (const [key, value] of Object.entries(patch)) out[key] = isObject(value) && isObject(base[key]) ? deepMerge(base[key] as Json, value) : value;
  return out;
}

function updateDocument(c: EsCtx, indexName: string, id: string, body: unknown): WriteResult {
  if (!isObject(body) || (!isObject(body.doc) && !isObject(body.upsert))) {
    throw new EsError(400, { type: 'action_request_validation_exception', reason: 'Validation Failed: 1: script or doc is missing;' });
  }
  const index = writeIndex(c, indexName);
  const existing = c.db.docs.get(docKey(index.name, id));
  if (!existing) {
    const upsert = body.doc_as_upsert === true ? body.doc : body.upsert;
    if (!isObject(upsert)) throw new EsError(404, { type: 'document_missing_exception', reason: `[${id}]: document missing`, index_uuid: index.uuid, shard: '0', index: index.name });
    return indexDocument(c, index.name, id, upsert, 'create');
  }
  const merged = deepMerge(existing.source, isObject(body.doc) ? body.doc : {});
  if (JSON.stringify(merged) === JSON.stringify(existing.source) && body.detect_noop !== false) {
    return { status: 200, body: { _index: index.name, _id: id, _version: existing.version, result: 'noop', _shards: { total: 0, successful: 0, failed: 0 }, _seq_no: existing.seqNo, _primary_term: 1 } };
  }
  const result = indexDocument(c, index.name, id, merged, 'index');
  return { status: 200, body: result.body };
}

const respond = (c: EsCtx, result: WriteResult): ServiceResponse => esJson(result.status, result.body, c.accept);

/** Runs one bulk action, turning its error into the item's `error` (a bulk request fails item by item). */
function bulkItem(c: EsCtx, action: string, run: () => WriteResult, meta: { index: string; id?: string }): Json {
  try {
    const result = run();
    return { [action]: { ...result.body, status: result.status } };
  } catch (error) {
    if (!(error instanceof EsError)) throw error;
    return { [action]: { _index: meta.index, _id: meta.id ?? null, status: error.status, error: { ...error.cause0 } } };
  }
}

function bulk(c: EsCtx, text: string, defaultIndex: string | undefined): ServiceResponse {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  const items: Json[] = [];
  for (let i = 0; i < lines.length; i++) {
    let header: unknown;
    try {
      header = JSON.parse(lines[i]!);
    } catch {
      throw new EsError(400, { type: 'x_content_parse_exception', reason: `[1:1] Unexpected character in line ${i + 1} of the bulk body` });
    }
    const [action, metaRaw] = isObject(header) ? Object.entries(header)[0] ?? [] : [];
    if (!action || !['index', 'create', 'update', 'delete'].includes(action)) {
      throw illegalBulk(`Malformed action/metadata line [${i + 1}], expected one of [create, delete, index, update] but found [${action ?? ''}]`);
    }
    const meta = isObject(metaRaw) ? metaRaw : {};
    const index = typeof meta._index === 'string' ? meta._index : defaultIndex;
    if (index === undefined) throw new EsError(400, { type: 'action_request_validation_exception', reason: 'Validation Failed: 1: index is missing;' });
    const id = typeof meta._id === 'string' ? meta._id : undefined;
    if (action === 'delete') {
      items.push(bulkItem(c, action, () => deleteDocument(c, index, id ?? ''), { index, id }));
      continue;
    }
    const sourceLine = lines[++i];
    if (sourceLine === undefined) throw illegalBulk('The bulk request must be terminated by a newline [\\n]');
    let source: unknown;
    try {
      source = JSON.parse(sourceLine);
    } catch {
      throw new EsError(400, { type: 'x_content_parse_exception', reason: `[1:1] Unexpected character in line ${i + 1} of the bulk body` });
    }
    if (action === 'update') items.push(bulkItem(c, action, () => updateDocument(c, index, id ?? '', source), { index, id }));
    else items.push(bulkItem(c, action, () => indexDocument(c, index, id, source, action as 'index' | 'create'), { index, id }));
  }
  const errors = items.some((item) => Object.values(item).some((v) => isObject(v) && 'error' in v));
  return esJson(200, { errors, took: 1 + Math.floor(items.length / 100), items }, c.accept);
}

const illegalBulk = (reason: string): EsError => badRequest('illegal_argument_exception', reason);

export const documentOperations = [
  ...(['PUT', 'POST'] as const).flatMap((method) => [
    operation<EsCtx, '/:index/_doc/:id'>('index', rest(method, '/:index/_doc/:id'), (call, c) => respond(c, indexDocument(c, call.params.index, call.params.id, call.body, call.req.query.get('op_type') === 'create' ? 'create' : 'index'))),
    operation<EsCtx, '/:index/_create/:id'>('create', rest(method, '/:index/_create/:id'), (call, c) => respond(c, indexDocument(c, call.params.index, call.params.id, call.body, 'create'))),
    operation<EsCtx, '/_bulk'>('bulk', rest(method, '/_bulk'), (call, c) => bulk(c, call.req.text(), undefined), { lazy: true }),
    operation<EsCtx, '/:index/_bulk'>('bulk', rest(method, '/:index/_bulk'), (call, c) => bulk(c, call.req.text(), call.params.index), { lazy: true }),
  ]),
  operation<EsCtx, '/:index/_doc'>('index', rest('POST', '/:index/_doc'), (call, c) => respond(c, indexDocument(c, call.params.index, undefined, call.body, 'index'))),
  operation<EsCtx, '/:index/_doc/:id'>('get', rest('GET', '/:index/_doc/:id'), (call, c) => {
    const index = readIndex(c, call.params.index);
    const doc = c.db.docs.get(docKey(index.name, call.params.id));
    if (!doc) return esJson(404, { _index: index.name, _id: call.params.id, found: false }, c.accept);
    return esJson(200, { _index: index.name, _id: doc.id, _version: doc.version, _seq_no: doc.seqNo, _primary_term: 1, found: true, _source: doc.source }, c.accept);
  }),
  operation<EsCtx, '/:index/_doc/:id'>('exists', rest('HEAD', '/:index/_doc/:id'), (call, c) => {
    const index = c.db.indices.get(call.params.index);
    const found = index !== undefined && c.db.docs.has(docKey(index.name, call.params.id));
    return { status: found ? 200 : 404, headers: [['X-elastic-product', 'Elasticsearch']], body: new Uint8Array(0) };
  }),
  operation<EsCtx, '/:index/_doc/:id'>('delete', rest('DELETE', '/:index/_doc/:id'), (call, c) => respond(c, deleteDocument(c, call.params.index, call.params.id))),
  operation<EsCtx, '/:index/_update/:id'>('update', rest('POST', '/:index/_update/:id'), (call, c) => respond(c, updateDocument(c, call.params.index, call.params.id, call.body))),
];
