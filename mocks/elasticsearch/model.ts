import { jsonResponse, type HeaderList, type ServiceResponse } from '../core/http.js';
import type { Collection, DocumentStore } from '../core/store.js';
import { ServiceError } from '../kit/errors.js';
import type { FieldMapping } from './dataset.js';

/** The store's documents, as the mock keeps them. */

export interface ApiKeyDoc { id: string; name: string; encoded: string; role: 'read' | 'write' }
export interface IndexDoc {
  name: string;
  uuid: string;
  /** Creation time, ms since the epoch (logical). */
  created: number;
  aliases: string[];
  shards: number;
  replicas: number;
  dynamic: boolean | 'strict';
  properties: Record<string, FieldMapping>;
  /** The next `_seq_no`, and the insertion counter that orders equal scores. */
  nextSeq: number;
}
export interface DocDoc {
  index: string;
  id: string;
  source: Record<string, unknown>;
  version: number;
  seqNo: number;
  /** Insertion order within the index: Lucene's doc order, which breaks ties. */
  order: number;
}
export interface ClusterDoc { name: string; uuid: string; region: string }

export interface Db {
  cluster: Collection<ClusterDoc>;
  api_keys: Collection<ApiKeyDoc>;
  indices: Collection<IndexDoc>;
  docs: Collection<DocDoc>;
}

export function dbOf(store: DocumentStore): Db {
  return {
    cluster: store.collection('cluster'),
    api_keys: store.collection('api_keys'),
    indices: store.collection('indices'),
    docs: store.collection('docs'),
  };
}

export const docKey = (index: string, id: string): string => `${index}/${id}`;

/** The version the mock answers as (an Elastic Cloud 9.1 deployment). */
export const ES_VERSION = { number: '9.1.4', lucene: '10.2.2', build_hash: '0b7fe68d2e369469ff9e9f344ab6df64ab9c5293', build_date: '2025-09-16T22:05:19.073893347Z' };

/**
 * Elasticsearch's headers on every answer past authentication: the product header its clients
 * check (`@elastic/elasticsearch` refuses a server without it), and the media type the client
 * asked for (`compatible-with=9` when it sent that Accept, as 9.x clients do).
 */
export function esHeaders(accept: string | undefined): HeaderList {
  const compat = /compatible-with=(\d+)/.exec(accept ?? '');
  const type = compat ? `application/vnd.elasticsearch+json;compatible-with=${compat[1]}` : 'application/json';
  return [['X-elastic-product', 'Elasticsearch'], ['content-type', type]];
}

/** A JSON answer with Elasticsearch's headers. */
export function esJson(status: number, value: unknown, accept: string | undefined): ServiceResponse {
  const response = jsonResponse(status, value);
  return { ...response, headers: esHeaders(accept) };
}

export interface EsCause { type: string; reason: string; [key: string]: unknown }

/**
 * Elasticsearch's error: `{error: {root_cause: [...], type, reason, ...}, status}`. `root` is the
 * root cause when it differs from the top-level error (a search that failed on every shard).
 */
export class EsError extends ServiceError {
  constructor(status: number, readonly cause0: EsCause, readonly extra: Record<string, unknown> = {}, readonly rootCause: EsCause = cause0, headers: HeaderList = []) {
    super(status, cause0.type, cause0.reason, undefined, headers);
  }

  body(): unknown {
    if (this.plain) return { error: this.cause0.reason, status: this.status };
    return { error: { root_cause: [this.rootCause], ...this.cause0, ...this.extra }, status: this.status };
  }

  /** The REST layer's own refusals (no handler for a path, a method it does not take): `{error: "text", status}`. */
  static plain(status: number, reason: string): EsError {
    const error = new EsError(status, { type: 'rest', reason });
    error.plain = true;
    return error;
  }

  private plain = false;
}

export function indexNotFound(name: string): EsError {
  return new EsError(404, { type: 'index_not_found_exception', reason: `no such index [${name}]`, 'resource.type': 'index_or_alias', 'resource.id': name, index_uuid: '_na_', index: name });
}

export function badRequest(type: string, reason: string): EsError {
  return new EsError(400, { type, reason });
}

export const illegalArgument = (reason: string): EsError => badRequest('illegal_argument_exception', reason);
export const parsingError = (reason: string): EsError => badRequest('parsing_exception', reason);

/**
 * A failure inside the query phase: Elasticsearch reports it per shard, wrapped in
 * `search_phase_execution_exception` ("all shards failed"), with the shard's cause as root.
 */
export function shardFailure(index: IndexDoc, cause: EsCause, node: string): EsError {
  return new EsError(400, { type: 'search_phase_execution_exception', reason: 'all shards failed' }, {
    phase: 'query', grouped: true,
    failed_shards: [{ shard: 0, index: index.name, node, reason: cause }],
    caused_by: { ...cause, caused_by: cause },
  }, cause);
}

/** The text Elasticsearch answers for sorting or aggregating on a `text` field. */
export function fielddataDisabled(field: string, index: string): EsCause {
  return {
    type: 'illegal_argument_exception',
    reason: `Fielddata is disabled on [${field}] in [${index}]. Text fields are not optimised for operations that require per-document field data like aggregations and sorting, so these operations are disabled by default. Please use a keyword field instead. Alternatively, set fielddata=true on [${field}] in order to load field data by uninverting the inverted index. Note that this can use significant memory.`,
  };
}
