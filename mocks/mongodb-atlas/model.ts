import { jsonResponse, type HeaderList, type ServiceResponse } from '../core/http.js';
import type { LoadContext } from '../core/service.js';
import type { Collection, DocumentStore } from '../core/store.js';
import { ServiceError } from '../kit/errors.js';

/**
 * The Atlas Admin API's documents as the store keeps them (the API's own field names, so a
 * handler answers a stored document as it is, links added), their collections, the seeded
 * ObjectIds, and Atlas's error envelope `{detail, error, errorCode, parameters, reason}`.
 */

export const BASE = 'https://cloud.mongodb.com';
export const API = '/api/atlas/v2';

export type Json = Record<string, unknown>;

export interface ServiceAccountDoc { clientId: string; clientSecret: string; name: string }
export interface TokenDoc { token: string; clientId: string; expiresAtMs: number }
export interface ApiKeyDoc { publicKey: string; privateKey: string; description: string }
export interface OrgDoc { id: string; name: string; isDeleted: boolean; skipDefaultAlertsSettings: boolean }
export interface ProjectDoc { id: string; name: string; orgId: string; created: string; clusterCount: number; tags: { key: string; value: string }[]; withDefaultAlertsSettings: boolean; regionUsageRestrictions: string }
/** A dedicated or free cluster: ClusterDescription20240805 as stored; `readyAtMs` is when a CREATING/UPDATING state settles. */
export interface ClusterDoc extends Json { id: string; groupId: string; name: string; stateName: string; paused: boolean; replicationSpecs: Json[]; readyAtMs: number | null }
export interface FlexClusterDoc extends Json { id: string; groupId: string; name: string; stateName: string; readyAtMs: number | null }
export interface DatabaseUserDoc extends Json { groupId: string; databaseName: string; username: string; roles: Json[]; scopes: Json[] }
export interface AccessEntryDoc extends Json { groupId: string; cidrBlock: string; ipAddress?: string; comment: string }
export interface AlertDoc extends Json { id: string; groupId: string; status: string; eventTypeName: string; created: string; updated: string }
export interface AdvisorDoc extends Json { groupId: string; clusterName: string }
export interface SampleLoadDoc extends Json { _id: string; groupId: string; clusterName: string; state: string; createDate: string; readyAtMs: number }
export interface KnowledgeSourceDoc { id: string; type: string; versions: { label: string; isCurrent: boolean }[] }
export interface KnowledgeDocumentDoc { url: string; title: string; text: string; dataSource: string; version?: string; tags: string[] }

export interface Db {
  serviceAccounts: Collection<ServiceAccountDoc>;
  tokens: Collection<TokenDoc>;
  apiKeys: Collection<ApiKeyDoc>;
  orgs: Collection<OrgDoc>;
  projects: Collection<ProjectDoc>;
  clusters: Collection<ClusterDoc>;
  flexClusters: Collection<FlexClusterDoc>;
  databaseUsers: Collection<DatabaseUserDoc>;
  accessList: Collection<AccessEntryDoc>;
  alerts: Collection<AlertDoc>;
  advisor: Collection<AdvisorDoc>;
  sampleLoads: Collection<SampleLoadDoc>;
  encryptionAtRest: Collection<Json>;
  settings: Collection<{ currentIpv4Address: string }>;
  knowledgeSources: Collection<KnowledgeSourceDoc>;
  knowledgeDocuments: Collection<KnowledgeDocumentDoc>;
}

export function dbOf(store: DocumentStore): Db {
  return {
    serviceAccounts: store.collection('service_accounts'),
    tokens: store.collection('tokens'),
    apiKeys: store.collection('api_keys'),
    orgs: store.collection('orgs'),
    projects: store.collection('projects'),
    clusters: store.collection('clusters'),
    flexClusters: store.collection('flex_clusters'),
    databaseUsers: store.collection('database_users'),
    accessList: store.collection('access_list'),
    alerts: store.collection('alerts'),
    advisor: store.collection('performance_advisor'),
    sampleLoads: store.collection('sample_dataset_loads'),
    encryptionAtRest: store.collection('encryption_at_rest'),
    settings: store.collection('settings'),
    knowledgeSources: store.collection('knowledge_sources'),
    knowledgeDocuments: store.collection('knowledge_documents'),
  };
}

export const clusterKey = (groupId: string, name: string) => `${groupId}/${name}`;
export const userKey = (groupId: string, databaseName: string, username: string) => `${groupId}/${databaseName}/${username}`;
export const accessKey = (groupId: string, entry: string) => `${groupId}/${entry}`;

/**
 * A 24-hex ObjectId as Atlas mints them: 4 bytes of the (logical) creation second, then 8 bytes
 * from the seeded hash of (seed, service, kind, counter).
 */
export function objectId(ctx: LoadContext, kind: string, atMs: number): string {
  const n = ctx.ids.next(`oid:${kind}`);
  const rest = ctx.ids.opaque(`oid:${kind}`, n, 16);
  return Math.floor(atMs / 1000).toString(16).padStart(8, '0').slice(-8) + rest;
}

/** A short seeded lower-case tag (the `abcde` of `cluster0.abcde.mongodb.net`). */
export function hostTag(ctx: LoadContext, kind: string): string {
  const n = ctx.ids.next(`tag:${kind}`);
  const hex = ctx.ids.opaque(`tag:${kind}`, n, 10);
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from({ length: 5 }, (_, i) => alphabet[parseInt(hex.slice(i * 2, i * 2 + 2), 16) % alphabet.length]).join('');
}

export const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** `links: [{href, rel: "self"}]`, as every Atlas resource carries. */
export const selfLinks = (path: string) => [{ href: `${BASE}${path}`, rel: 'self' }];

const REASONS: Record<number, string> = {
  400: 'Bad Request', 401: 'Unauthorized', 402: 'Payment Required', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed',
  406: 'Not Acceptable', 409: 'Conflict', 413: 'Payload Too Large', 415: 'Unsupported Media Type', 429: 'Too Many Requests',
  500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout',
};

/** An Atlas API error: `errorCode` and the `parameters` its `detail` was formatted from. */
export function atlasError(status: number, errorCode: string, detail: string, parameters: unknown[] = [], headers: [string, string][] = []): ServiceError {
  return new ServiceError(status, errorCode, detail, { parameters }, headers);
}

export function renderAtlasError(error: ServiceError): ServiceResponse {
  const parameters = Array.isArray(error.details.parameters) ? error.details.parameters : [];
  return jsonResponse(error.status, {
    detail: error.message, error: error.status, errorCode: error.code, parameters, reason: REASONS[error.status] ?? 'Error',
  }, [...error.headers] as HeaderList);
}

export const groupNotFound = (groupId: string) => atlasError(404, 'GROUP_NOT_FOUND', `No group with ID ${groupId} exists.`, [groupId]);
export const invalidGroupId = (groupId: string) => atlasError(400, 'INVALID_GROUP_ID', `An invalid group ID ${groupId} was specified.`, [groupId]);
export const clusterNotFound = (name: string, groupId: string) => atlasError(404, 'CLUSTER_NOT_FOUND', `No cluster named ${name} exists in group ${groupId}.`, [name, groupId]);
