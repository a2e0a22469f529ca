import { createHash } from 'node:crypto';
import { jsonResponse, type HeaderList, type ServiceResponse } from '../core/http.js';
import type { Collection, DocumentStore } from '../core/store.js';
import type { ServiceContext } from '../core/service.js';
import { ServiceError } from '../kit/errors.js';
import { numericId, uuidId } from '../kit/ids.js';
import type { ImageDoc, RegionDoc, SizeDoc } from './catalogue.js';

/** The store's documents, in the shape the API answers them (DigitalOcean's JSON, snake_case). */

export const ORIGIN = 'https://api.digitalocean.com';

export interface NetworkV4 { ip_address: string; netmask: string; gateway: string; type: 'public' | 'private' }
export interface DropletDoc {
  id: number; name: string; memory: number; vcpus: number; disk: number; locked: boolean;
  status: 'new' | 'active' | 'off' | 'archive'; kernel: null; created_at: string; features: string[];
  backup_ids: number[]; next_backup_window: { start: string; end: string } | null; snapshot_ids: number[];
  image: ImageDoc; volume_ids: string[]; size: SizeDoc; size_slug: string;
  networks: { v4: NetworkV4[]; v6: { ip_address: string; netmask: number; gateway: string; type: 'public' }[] };
  region: RegionDoc; tags: string[]; vpc_uuid: string;
}
export interface ActionDoc {
  id: number; status: 'in-progress' | 'completed' | 'errored'; type: string; started_at: string; completed_at: string | null;
  resource_id: number | null; resource_type: string; region: RegionDoc | null; region_slug: string | null;
}
export interface VolumeDoc {
  id: string; name: string; description: string; size_gigabytes: number; region: RegionDoc; droplet_ids: number[];
  created_at: string; filesystem_type: string; filesystem_label: string; tags: string[];
}
export interface DomainDoc { name: string; ttl: number; zone_file: string }
export interface RecordDoc {
  id: number; domain: string; type: string; name: string; data: string; priority: number | null; port: number | null;
  ttl: number; weight: number | null; flags: number | null; tag: string | null;
}
export interface FirewallRuleIn { protocol: string; ports: string; sources: Targets }
export interface FirewallRuleOut { protocol: string; ports: string; destinations: Targets }
export interface Targets { addresses?: string[]; droplet_ids?: number[]; load_balancer_uids?: string[]; kubernetes_ids?: string[]; tags?: string[] }
export interface FirewallDoc {
  id: string; name: string; status: 'waiting' | 'succeeded' | 'failed'; created_at: string; pending_changes: { droplet_id: number; removing: boolean; status: string }[];
  inbound_rules: FirewallRuleIn[]; outbound_rules: FirewallRuleOut[]; droplet_ids: number[]; tags: string[];
}
export interface TagDoc { name: string }
export interface KeyDoc { id: number; fingerprint: string; public_key: string; name: string }
export interface ProjectDoc {
  id: string; owner_uuid: string; owner_id: number; name: string; description: string; purpose: string;
  environment: 'Development' | 'Staging' | 'Production'; created_at: string; updated_at: string; is_default: boolean;
}
/** A resource assigned to a project, by its URN (`do:droplet:4521`). */
export interface ProjectResourceDoc { project_id: string; urn: string; assigned_at: string; status: 'ok' }
export interface AccountDoc {
  droplet_limit: number; floating_ip_limit: number; volume_limit: number; email: string; name: string; uuid: string;
  email_verified: boolean; status: 'active' | 'warning' | 'locked'; status_message: string;
  team: { uuid: string; name: string };
}
export interface TokenDoc { token: string; scope: 'read' | 'write' }
/** The images a droplet's snapshot or backup makes, beside the public catalogue's. */
export type UserImageDoc = ImageDoc;

export interface Db {
  tokens: Collection<TokenDoc>;
  account: Collection<AccountDoc>;
  droplets: Collection<DropletDoc>;
  actions: Collection<ActionDoc & { completes_at: number; resource_id_str?: string }>;
  volumes: Collection<VolumeDoc>;
  domains: Collection<DomainDoc>;
  records: Collection<RecordDoc>;
  firewalls: Collection<FirewallDoc>;
  tags: Collection<TagDoc>;
  keys: Collection<KeyDoc>;
  projects: Collection<ProjectDoc>;
  project_resources: Collection<ProjectResourceDoc>;
  images: Collection<UserImageDoc>;
  sizes: Collection<SizeDoc>;
  regions: Collection<RegionDoc>;
  /** Which volume each volume action is on (an action's resource_id is numeric; volume ids are UUIDs). */
  volume_actions: Collection<{ volume: string }>;
}

export function dbOf(store: DocumentStore): Db {
  const c = <T>(name: string) => store.collection<T>(name);
  return {
    tokens: c('tokens'), account: c('account'), droplets: c('droplets'), actions: c('actions'), volumes: c('volumes'),
    domains: c('domains'), records: c('records'), firewalls: c('firewalls'), tags: c('tags'), keys: c('keys'),
    projects: c('projects'), project_resources: c('project_resources'), images: c('images'), sizes: c('sizes'), regions: c('regions'), volume_actions: c('volume_actions'),
  };
}

/** DigitalOcean's error body `{id, message}` (plus the request's id, as the API sends one). */
export function doError(status: number, id: string, message: string, headers: HeaderList = []): ServiceError {
  return new ServiceError(status, id, message, {}, headers);
}

export const notFound = (): ServiceError => doError(404, 'not_found', 'The resource you were accessing could not be found.');
export const unprocessable = (message: string): ServiceError => doError(422, 'unprocessable_entity', message);
export const badRequest = (message: string): ServiceError => doError(400, 'bad_request', message);

export function renderError(error: ServiceError, requestId: string | null): ServiceResponse {
  const response = jsonResponse(error.status, { id: error.code, message: error.message, ...(requestId ? { request_id: requestId } : {}) });
  return { ...response, headers: [...response.headers, ...error.headers] };
}

export function requestId(ctx: Pick<ServiceContext, 'ids'>): string {
  return uuidId(ctx, 'request');
}

export const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Where each kind's seeded numbers start (DigitalOcean's ids are large; the dataset's are reserved below them or past them). */
const ID_START: Record<string, number> = { action: 2_410_000_001, droplet: 480_000_001, image: 171_000_001, record: 1_730_000_001, ssh_key: 41_000_001 };

export function nextId(ctx: Pick<ServiceContext, 'ids'>, kind: string): number {
  return numericId(ctx, kind, ID_START[kind] ?? 1);
}

export function md5(text: string): string {
  return createHash('md5').update(text).digest('hex');
}

/**
 * DigitalOcean's pages: `page` (1-based) and `per_page` (default 20, at most 200), the page's
 * items under `key`, `links.pages` with absolute `first`/`prev` (past page 1) and `next`/`last`
 * (before the last page), and `meta.total`.
 */
export function pageOf<T>(items: readonly T[], key: string, path: string, query: Readonly<Record<string, string | string[]>>, extra: Record<string, string> = {}): Record<string, unknown> {
  const one = (name: string) => { const v = query[name]; return Array.isArray(v) ? v[0] : v; };
  const perPage = Math.min(200, Math.max(1, Number.parseInt(one('per_page') ?? '20', 10) || 20));
  const last = Math.max(1, Math.ceil(items.length / perPage));
  const page = Math.max(1, Number.parseInt(one('page') ?? '1', 10) || 1);
  const url = (n: number) => {
    const params = new URLSearchParams({ ...extra, page: String(n), per_page: String(perPage) });
    return `${ORIGIN}${path}?${params.toString()}`;
  };
  const pages: Record<string, string> = {};
  if (page > 1) Object.assign(pages, { first: url(1), prev: url(Math.min(page - 1, last)) });
  if (page < last) Object.assign(pages, { next: url(page + 1), last: url(last) });
  return { [key]: items.slice((page - 1) * perPage, page * perPage), links: Object.keys(pages).length > 0 ? { pages } : {}, meta: { total: items.length } };
}

/** A query parameter's first value. */
export function one(query: Readonly<Record<string, string | string[]>>, name: string): string | undefined {
  const v = query[name];
  return Array.isArray(v) ? v[0] : v;
}
