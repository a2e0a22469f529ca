import { jsonResponse, type ServiceResponse } from '../core/http.js';
import type { Collection, DocumentStore } from '../core/store.js';
import type { LoadContext } from '../core/service.js';
import { uuidId } from '../kit/ids.js';
import { ServiceError } from '../kit/errors.js';

/** The store's documents, as the mock keeps them (rendered into LaunchDarkly's representations by the functions below). */

export const API = '/api/v2';

export interface Clause { _id: string; attribute: string; op: string; values: unknown[]; contextKind: string; negate: boolean }
export interface Rule { _id: string; description?: string; clauses: Clause[]; variation?: number; trackEvents: boolean }
export interface Target { values: string[]; variation: number; contextKind?: string }
export interface FlagEnv {
  on: boolean;
  offVariation?: number;
  fallthrough?: { variation: number };
  targets: Target[];
  rules: Rule[];
  lastRequested?: string;
  lastModified: number;
  version: number;
  salt: string;
  sel: string;
}
export interface Variation { _id: string; value?: unknown; name?: string; description?: string }
export interface FlagDoc {
  project: string;
  key: string;
  name: string;
  description: string;
  kind: 'boolean' | 'multivariate';
  variations: Variation[];
  tags: string[];
  temporary: boolean;
  archived: boolean;
  archivedDate?: number;
  deprecated: boolean;
  maintainerId?: string;
  creationDate: number;
  version: number;
  environments: Record<string, FlagEnv>;
}
export interface ProjectDoc { _id: string; key: string; name: string; tags: string[]; environments: string[] }
export interface EnvironmentDoc {
  _id: string; project: string; key: string; name: string; color: string; critical: boolean; tags: string[];
  requireComments: boolean; confirmChanges: boolean; apiKey: string; mobileKey: string;
}
export interface AiVariationDoc {
  _id: string; key: string; name: string; model: Record<string, unknown>; modelConfigKey?: string;
  instructions?: string; messages?: { content: string; role: string }[]; description?: string; createdAt: number; version: number;
}
export interface AiTargetingEnv { enabled: boolean; fallthrough: { variation?: number }; offVariation?: number; targets: { contextKind: string; values: string[]; variation: number }[]; lastModified: number; version: number }
export interface AiConfigDoc {
  _id: string; project: string; key: string; name: string; description: string; mode: 'agent' | 'completion' | 'judge'; tags: string[];
  maintainerId?: string; version: number; createdAt: number; updatedAt: number; variations: AiVariationDoc[]; targeting: Record<string, AiTargetingEnv>;
}
export interface RepositoryDoc { name: string; type: 'bitbucket' | 'custom' | 'github' | 'gitlab'; defaultBranch: string; enabled: boolean; version: number; sourceLink?: string }
export interface AuditDoc { _id: string; seq: number; date: number; kind: string; name: string; description: string; shortDescription: string; member?: string; resource: string; action: string }
export interface MemberDoc { _id: string; email: string; firstName?: string; lastName?: string; role: string }
export interface TokenDoc { token: string; role: 'reader' | 'writer' | 'admin' }

export interface Db {
  tokens: Collection<TokenDoc>;
  members: Collection<MemberDoc>;
  projects: Collection<ProjectDoc>;
  environments: Collection<EnvironmentDoc>;
  flags: Collection<FlagDoc>;
  ai_configs: Collection<AiConfigDoc>;
  repositories: Collection<RepositoryDoc>;
  audit_log: Collection<AuditDoc>;
}

export function dbOf(store: DocumentStore): Db {
  return {
    tokens: store.collection('tokens'),
    members: store.collection('members'),
    projects: store.collection('projects'),
    environments: store.collection('environments'),
    flags: store.collection('flags'),
    ai_configs: store.collection('ai_configs'),
    repositories: store.collection('repositories'),
    audit_log: store.collection('audit_log'),
  };
}

/** A 24-hex-digit id, as LaunchDarkly's (MongoDB object ids) look; seeded. */
export function hexId(ctx: Pick<LoadContext, 'ids'>, kind: string): string {
  return uuidId(ctx, kind).replace(/-/g, '').slice(0, 24);
}

/** LaunchDarkly's error body: `{code, message}`. */
export function ldError(status: number, code: string, message: string, headers: [string, string][] = []): ServiceError {
  return new ServiceError(status, code, message, {}, headers);
}

export function renderError(error: ServiceError): ServiceResponse {
  const response = jsonResponse(error.status, { code: error.code, message: error.message });
  return { ...response, headers: [...response.headers, ...error.headers] };
}

export const notFound = (): ServiceError => ldError(404, 'not_found', 'Invalid resource identifier');
export const invalid = (message: string): ServiceError => ldError(400, 'invalid_request', message);
export const conflict = (message: string): ServiceError => ldError(409, 'conflict', message);

const link = (href: string) => ({ href, type: 'application/json' });

export function projectEnvironments(db: Db, project: ProjectDoc): EnvironmentDoc[] {
  return project.environments.map((key) => db.environments.get(`${project.key}/${key}`)).filter((e): e is EnvironmentDoc => e !== undefined);
}

export function renderEnvironment(env: EnvironmentDoc): Record<string, unknown> {
  return {
    _links: { self: link(`${API}/projects/${env.project}/environments/${env.key}`) },
    _id: env._id, key: env.key, name: env.name, apiKey: env.apiKey, mobileKey: env.mobileKey, color: env.color,
    defaultTtl: 0, secureMode: false, defaultTrackEvents: false, requireComments: env.requireComments,
    confirmChanges: env.confirmChanges, tags: env.tags, critical: env.critical,
  };
}

export function renderFlagEnv(flag: FlagDoc, env: EnvironmentDoc, config: FlagEnv): Record<string, unknown> {
  return {
    on: config.on, archived: flag.archived, salt: config.salt, sel: config.sel, lastModified: config.lastModified, version: config.version,
    targets: config.targets, contextTargets: [], rules: config.rules,
    fallthrough: config.fallthrough ?? { variation: 0 },
    ...(config.offVariation === undefined ? {} : { offVariation: config.offVariation }),
    prerequisites: [],
    _site: { href: `/${flag.project}/${env.key}/features/${flag.key}`, type: 'text/html' },
    _environmentName: env.name, trackEvents: false, trackEventsFallthrough: false,
  };
}

/** LaunchDarkly's FeatureFlag representation; `only` limits `environments` (the `env` query). */
export function renderFlag(db: Db, flag: FlagDoc, only?: readonly string[]): Record<string, unknown> {
  const project = db.projects.get(flag.project);
  const environments: Record<string, unknown> = {};
  for (const env of project ? projectEnvironments(db, project) : []) {
    if (only && only.length > 0 && !only.includes(env.key)) continue;
    const config = flag.environments[env.key];
    if (config) environments[env.key] = renderFlagEnv(flag, env, config);
  }
  const off = flag.variations.length - 1;
  return {
    name: flag.name, kind: flag.kind, description: flag.description, key: flag.key, _version: flag.version,
    creationDate: flag.creationDate, includeInSnippet: false,
    clientSideAvailability: { usingMobileKey: false, usingEnvironmentId: false },
    variations: flag.variations, temporary: flag.temporary, tags: flag.tags,
    _links: { parent: link(`${API}/flags/${flag.project}`), self: link(`${API}/flags/${flag.project}/${flag.key}`) },
    ...(flag.maintainerId ? { maintainerId: flag.maintainerId } : {}),
    goalIds: [], experiments: { baselineIdx: 0, items: [] }, customProperties: {},
    archived: flag.archived, ...(flag.archivedDate === undefined ? {} : { archivedDate: flag.archivedDate }),
    deprecated: flag.deprecated, defaults: { onVariation: 0, offVariation: off < 0 ? 0 : off },
    environments,
  };
}

/** The status LaunchDarkly derives: launched (on, one variation served), active (evaluated), inactive (evaluated long ago), new (never). */
export function flagStatus(flag: FlagDoc, config: FlagEnv | undefined, nowMs: number): { name: 'new' | 'inactive' | 'active' | 'launched'; lastRequested: string | null } {
  const lastRequested = config?.lastRequested ?? null;
  if (lastRequested === null) return { name: 'new', lastRequested };
  if (nowMs - Date.parse(lastRequested) > 7 * 86_400_000) return { name: 'inactive', lastRequested };
  if (config && config.on && config.rules.length === 0 && config.targets.length === 0 && flag.variations.length > 0) return { name: 'launched', lastRequested };
  return { name: 'active', lastRequested };
}

export function renderAiVariation(config: AiConfigDoc, v: AiVariationDoc): Record<string, unknown> {
  return {
    _links: { parent: link(`${API}/projects/${config.project}/ai-configs/${config.key}`) },
    key: v.key, _id: v._id, model: v.model, name: v.name, createdAt: v.createdAt, version: v.version, state: 'published',
    ...(v.description === undefined ? {} : { description: v.description }),
    ...(v.instructions === undefined ? {} : { instructions: v.instructions }),
    ...(v.messages === undefined ? {} : { messages: v.messages }),
    ...(v.modelConfigKey === undefined ? {} : { modelConfigKey: v.modelConfigKey }),
  };
}

export function renderAiConfig(config: AiConfigDoc): Record<string, unknown> {
  return {
    _links: { parent: link(`${API}/projects/${config.project}/ai-configs`), self: link(`${API}/projects/${config.project}/ai-configs/${config.key}`) },
    description: config.description, key: config.key, mode: config.mode, name: config.name, tags: config.tags,
    version: config.version, variations: config.variations.map((v) => renderAiVariation(config, v)),
    createdAt: config.createdAt, updatedAt: config.updatedAt,
  };
}

export function renderAiTargeting(db: Db, config: AiConfigDoc): Record<string, unknown> {
  const project = db.projects.get(config.project);
  const environments: Record<string, unknown> = {};
  for (const env of project ? projectEnvironments(db, project) : []) {
    const t = config.targeting[env.key] ?? { enabled: false, fallthrough: {}, targets: [], lastModified: config.createdAt, version: 1 };
    environments[env.key] = {
      contextTargets: [], enabled: t.enabled, fallthrough: t.fallthrough, lastModified: t.lastModified, rules: [], targets: t.targets,
      trackEvents: false, trackEventsFallthrough: false, _environmentName: env.name, _version: t.version,
      ...(t.offVariation === undefined ? {} : { offVariation: t.offVariation }),
    };
  }
  return {
    createdAt: config.createdAt, environments, experiments: { baselineIdx: 0, items: [] }, key: config.key, name: config.name, tags: config.tags,
    variations: config.variations.map((v) => ({ _id: v._id, description: v.description ?? '', name: v.name, value: { model: v.model, ...(v.instructions ? { instructions: v.instructions } : {}), ...(v.messages ? { messages: v.messages } : {}) } })),
    _version: config.version,
  };
}

/** Writes one audit-log entry for a change, as LaunchDarkly records every write. */
export function audit(db: Db, ctx: { ids: LoadContext['ids']; nowMs: number }, entry: { kind: string; name: string; description: string; resource: string; action: string; member?: string }): void {
  const _id = hexId(ctx, 'audit');
  const seq = db.audit_log.values().length;
  db.audit_log.put(_id, { _id, seq, date: ctx.nowMs, shortDescription: entry.description, ...entry });
}

export function renderAudit(entry: AuditDoc): Record<string, unknown> {
  return {
    _links: { self: link(`${API}/auditlog/${entry._id}`) }, _id: entry._id, _accountId: '5f0cd446a773cd5e3d6b0a1c', date: entry.date,
    accesses: [{ action: entry.action, resource: entry.resource }], kind: entry.kind, name: entry.name, description: entry.description,
    shortDescription: entry.shortDescription,
  };
}
