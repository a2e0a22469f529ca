import { z } from 'zod';
import { jsonResponse, type ServiceResponse } from '../core/http.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import { projectOf, type LdCtx } from './context.js';
import {
  API, audit, conflict, flagStatus, hexId, invalid, notFound, projectEnvironments, renderFlag,
  type FlagDoc, type FlagEnv, type Rule, type Target, type Variation,
} from './model.js';
import { applyJsonPatch, type PatchOp } from './patch.js';
import { applySemanticPatch } from './semantic.js';

/** Feature flags: list, get, create, JSON patch or semantic patch, delete, and status across environments. */

const flagKey = (project: string, key: string) => `${project}/${key}`;

export function flagOf(c: LdCtx, project: string, key: string): FlagDoc {
  projectOf(c, project);
  const flag = c.db.flags.get(flagKey(project, key));
  if (!flag) throw notFound();
  return flag;
}

const envList = (q: string | string[] | undefined): string[] => (Array.isArray(q) ? q : q === undefined ? [] : [q]).flatMap((e) => e.split(','));

/** `filter=query:dark-mode,tags:beta+test,state:live` as LaunchDarkly reads it. */
function matchesFilter(flag: FlagDoc, filter: string | undefined): boolean {
  if (!filter) return true;
  for (const part of filter.split(',')) {
    const colon = part.indexOf(':');
    if (colon === -1) throw invalid(`Invalid filter: ${part}`);
    const field = part.slice(0, colon);
    const value = part.slice(colon + 1);
    if (field === 'query') {
      const q = value.toLowerCase();
      if (!flag.key.toLowerCase().includes(q) && !flag.name.toLowerCase().includes(q)) return false;
    } else if (field === 'tags') {
      if (!value.split(/[+ ]/).filter(Boolean).every((t) => flag.tags.includes(t))) return false;
    } else if (field === 'state') {
      const state = flag.archived ? 'archived' : flag.deprecated ? 'deprecated' : 'live';
      if (!value.split(/[+ ]/).includes(state)) return false;
    } else if (field === 'type') {
      if ((flag.temporary ? 'temporary' : 'permanent') !== value) return false;
    } else if (field === 'maintainerId') {
      if (!value.split(/[+ ]/).includes(flag.maintainerId ?? '')) return false;
    }
    // Other documented fields (evaluated, hasExperiment, …) concern data the mock does not keep: no narrowing.
  }
  return true;
}

const ListQuery = z.object({
  env: z.union([z.string(), z.array(z.string())]).optional(),
  tag: z.string().optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
  offset: z.coerce.number().int().min(0).optional(),
  archived: z.enum(['true', 'false']).optional(),
  summary: z.enum(['true', 'false']).optional(),
  filter: z.string().optional(),
  sort: z.string().optional(),
  compare: z.string().optional(),
  expand: z.string().optional(),
}).passthrough();

function listFlags(call: { params: { projectKey: string }; query: z.infer<typeof ListQuery> }, c: LdCtx): ServiceResponse {
  projectOf(c, call.params.projectKey);
  const q = call.query;
  let flags = c.db.flags.values().filter((f) => f.project === call.params.projectKey);
  // Archived flags are hidden unless asked for (`archived=true` or a `state:archived` filter).
  const wantsArchived = q.archived === 'true' || /state:[^,]*archived/.test(q.filter ?? '');
  flags = flags.filter((f) => (wantsArchived ? (q.archived === 'true' ? f.archived : true) : !f.archived));
  if (q.tag) flags = flags.filter((f) => f.tags.includes(q.tag!));
  flags = flags.filter((f) => matchesFilter(f, q.filter));
  const sort = q.sort ?? 'creationDate';
  const desc = sort.startsWith('-');
  const field = desc ? sort.slice(1) : sort;
  flags.sort((a, b) => {
    const cmp = field === 'key' ? a.key.localeCompare(b.key) : field === 'name' ? a.name.localeCompare(b.name) : a.creationDate - b.creationDate || a.key.localeCompare(b.key);
    return desc ? -cmp : cmp;
  });
  const total = flags.length;
  const offset = q.offset ?? 0;
  const limit = q.limit ?? 20;
  const page = flags.slice(offset, offset + limit);
  const envs = envList(q.env);
  const base = `${API}/flags/${call.params.projectKey}`;
  const pageLink = (o: number) => ({ href: `${base}?limit=${limit}&offset=${o}${q.filter ? `&filter=${encodeURIComponent(q.filter)}` : ''}`, type: 'application/json' });
  const links: Record<string, unknown> = { self: pageLink(offset), first: pageLink(0), last: pageLink(Math.max(0, Math.floor((total - 1) / limit) * limit)) };
  if (offset + limit < total) links['next'] = pageLink(offset + limit);
  if (offset > 0) links['prev'] = pageLink(Math.max(0, offset - limit));
  // API version 20240415: a list carries `environments` only when asked for by `env`.
  const items = page.map((f) => {
    const { environments, ...rest } = renderFlag(c.db, f, envs);
    return envs.length > 0 ? { ...rest, environments } : rest;
  });
  return jsonResponse(200, { items, _links: links, totalCount: total });
}

const VariationBody = z.object({ _id: z.string().optional(), value: z.unknown(), name: z.string().optional(), description: z.string().optional() });
const CreateBody = z.object({
  name: z.string().min(1, 'name is required'),
  key: z.string().regex(/^[\w.-]+$/, 'key must contain only letters, numbers, ".", "_" or "-"'),
  description: z.string().optional(),
  variations: z.array(VariationBody).optional(),
  temporary: z.boolean().optional(),
  tags: z.array(z.string()).optional(),
  maintainerId: z.string().optional(),
  defaults: z.object({ onVariation: z.number().int(), offVariation: z.number().int() }).optional(),
  isFlagOn: z.boolean().optional(),
}).passthrough();

function createFlag(call: { params: { projectKey: string }; body: z.infer<typeof CreateBody> }, c: LdCtx): ServiceResponse {
  const project = projectOf(c, call.params.projectKey);
  const body = call.body;
  if (c.db.flags.has(flagKey(project.key, body.key))) throw conflict(`A flag with key ${body.key} already exists`);
  const values = body.variations && body.variations.length > 0 ? body.variations : [{ value: true }, { value: false }];
  if (values.length < 2) throw invalid('A flag needs at least two variations');
  const kind = values.every((v) => typeof v.value === 'boolean') && values.length === 2 ? 'boolean' : 'multivariate';
  const variations: Variation[] = values.map((v) => ({ _id: hexId(c.ctx, 'variation'), value: v.value, ...(v.name === undefined ? {} : { name: v.name }), ...(v.description === undefined ? {} : { description: v.description }) }));
  const defaults = body.defaults ?? { onVariation: 0, offVariation: variations.length - 1 };
  if (defaults.onVariation >= variations.length || defaults.offVariation >= variations.length) throw invalid('defaults must name existing variations');
  const environments: Record<string, FlagEnv> = {};
  for (const env of projectEnvironments(c.db, project)) {
    environments[env.key] = newEnvConfig(c, body.isFlagOn ?? false, defaults.onVariation, defaults.offVariation);
  }
  const flag: FlagDoc = {
    project: project.key, key: body.key, name: body.name, description: body.description ?? '', kind, variations,
    tags: body.tags ?? [], temporary: body.temporary ?? true, archived: false, deprecated: false,
    ...(body.maintainerId ? { maintainerId: body.maintainerId } : {}),
    creationDate: c.ctx.nowMs, version: 1, environments,
  };
  c.db.flags.put(flagKey(project.key, body.key), flag);
  audit(c.db, c.ctx, { kind: 'flag', name: flag.name, description: `created the flag ${flag.name}`, resource: `proj/${project.key}:env/*:flag/${flag.key}`, action: 'createFlag' });
  return jsonResponse(201, renderFlag(c.db, flag));
}

export function newEnvConfig(c: { ctx: { ids: LdCtx['ctx']['ids']; nowMs: number } }, on: boolean, onVariation: number, offVariation: number): FlagEnv {
  return { on, offVariation, fallthrough: { variation: onVariation }, targets: [], rules: [], lastModified: c.ctx.nowMs, version: 1, salt: hexId(c.ctx, 'salt'), sel: hexId(c.ctx, 'sel') };
}

/** What a JSON patch may change: the flag as rendered, reduced to its writable parts. */
const PatchedTarget = z.object({ values: z.array(z.string()), variation: z.number().int().min(0), contextKind: z.string().optional() }).strip();
const PatchedClause = z.object({ _id: z.string().optional(), attribute: z.string(), op: z.string(), values: z.array(z.unknown()), contextKind: z.string().optional(), negate: z.boolean().optional() }).strip();
const PatchedRule = z.object({ _id: z.string().optional(), description: z.string().optional(), clauses: z.array(PatchedClause), variation: z.number().int().min(0).optional(), trackEvents: z.boolean().optional() }).strip();
const PatchedEnv = z.object({
  on: z.boolean(), offVariation: z.number().int().min(0).optional(), fallthrough: z.object({ variation: z.number().int().min(0) }).strip().optional(),
  targets: z.array(PatchedTarget), rules: z.array(PatchedRule),
}).strip();
const Patched = z.object({
  name: z.string().min(1), description: z.string(), tags: z.array(z.string()), temporary: z.boolean(), archived: z.boolean(), deprecated: z.boolean(),
  variations: z.array(VariationBody).min(2), maintainerId: z.string().optional(),
  environments: z.record(PatchedEnv),
}).strip();

function patchable(flag: FlagDoc): z.input<typeof Patched> {
  const environments: Record<string, z.input<typeof PatchedEnv>> = {};
  for (const [key, env] of Object.entries(flag.environments)) {
    environments[key] = { on: env.on, ...(env.offVariation === undefined ? {} : { offVariation: env.offVariation }), ...(env.fallthrough ? { fallthrough: env.fallthrough } : {}), targets: env.targets, rules: env.rules };
  }
  return { name: flag.name, description: flag.description, tags: flag.tags, temporary: flag.temporary, archived: flag.archived, deprecated: flag.deprecated, variations: flag.variations, ...(flag.maintainerId ? { maintainerId: flag.maintainerId } : {}), environments };
}

/** Writes a changed flag back: versions move where something changed; new rules and variations get ids. */
export function commitFlag(c: LdCtx, before: FlagDoc, next: z.output<typeof Patched>, comment: string | undefined): FlagDoc {
  const count = before.variations.length;
  const variations: Variation[] = next.variations.map((v) => ({ _id: v._id ?? hexId(c.ctx, 'variation'), value: v.value, ...(v.name === undefined ? {} : { name: v.name }), ...(v.description === undefined ? {} : { description: v.description }) }));
  const environments: Record<string, FlagEnv> = {};
  const changedEnvs: string[] = [];
  for (const [key, old] of Object.entries(before.environments)) {
    const patched = next.environments[key];
    if (!patched) throw invalid(`The environment ${key} cannot be removed from a flag`);
    const check = (i: number | undefined, what: string) => {
      if (i !== undefined && i >= variations.length) throw invalid(`${what} in ${key} names variation ${i}, but the flag has ${variations.length}`);
    };
    check(patched.offVariation, 'offVariation');
    check(patched.fallthrough?.variation, 'fallthrough');
    patched.targets.forEach((t) => check(t.variation, 'a target'));
    patched.rules.forEach((r) => check(r.variation, 'a rule'));
    const rules: Rule[] = patched.rules.map((r) => ({
      _id: r._id ?? hexId(c.ctx, 'rule'), ...(r.description === undefined ? {} : { description: r.description }),
      clauses: r.clauses.map((cl) => ({ _id: cl._id ?? hexId(c.ctx, 'clause'), attribute: cl.attribute, op: cl.op, values: cl.values, contextKind: cl.contextKind ?? 'user', negate: cl.negate ?? false })),
      ...(r.variation === undefined ? {} : { variation: r.variation }), trackEvents: r.trackEvents ?? false,
    }));
    const targets: Target[] = patched.targets.map((t) => ({ values: t.values, variation: t.variation, ...(t.contextKind ? { contextKind: t.contextKind } : {}) }));
    const env: FlagEnv = { ...old, on: patched.on, targets, rules };
    if (patched.offVariation === undefined) delete env.offVariation; else env.offVariation = patched.offVariation;
    if (patched.fallthrough === undefined) delete env.fallthrough; else env.fallthrough = patched.fallthrough;
    const changed = JSON.stringify({ ...env, lastModified: 0, version: 0 }) !== JSON.stringify({ ...old, lastModified: 0, version: 0 });
    if (changed) changedEnvs.push(key);
    environments[key] = changed ? { ...env, version: old.version + 1, lastModified: c.ctx.nowMs } : old;
  }
  for (const key of Object.keys(next.environments)) if (!before.environments[key]) throw invalid(`Unknown environment ${key}`);
  const flag: FlagDoc = {
    ...before, name: next.name, description: next.description, tags: next.tags, temporary: next.temporary, deprecated: next.deprecated,
    archived: next.archived, variations, environments,
    kind: variations.length === 2 && variations.every((v) => typeof v.value === 'boolean') ? 'boolean' : count === variations.length ? before.kind : 'multivariate',
  };
  if (next.maintainerId === undefined) delete flag.maintainerId; else flag.maintainerId = next.maintainerId;
  if (next.archived && !before.archived) flag.archivedDate = c.ctx.nowMs;
  if (!next.archived) delete flag.archivedDate;
  if (JSON.stringify(flag) === JSON.stringify(before)) return before;
  const saved = c.db.flags.put(flagKey(flag.project, flag.key), { ...flag, version: before.version + 1 });
  const where = changedEnvs.length > 0 ? changedEnvs.join(', ') : '*';
  audit(c.db, c.ctx, {
    kind: 'flag', name: flag.name, resource: `proj/${flag.project}:env/${where}:flag/${flag.key}`, action: 'updateFlag',
    description: `updated the flag ${flag.name}${changedEnvs.length > 0 ? ` in ${changedEnvs.join(', ')}` : ''}${comment ? `: ${comment}` : ''}`,
  });
  return saved;
}

const PatchBody = z.union([
  z.array(z.object({ op: z.string(), path: z.string(), value: z.unknown().optional(), from: z.string().optional() })),
  z.object({ patch: z.array(z.object({ op: z.string(), path: z.string(), value: z.unknown().optional(), from: z.string().optional() })), comment: z.string().optional() }),
  z.object({ environmentKey: z.string().optional(), instructions: z.array(z.record(z.unknown())), comment: z.string().optional() }),
]);

function patchFlag(call: { params: { projectKey: string; featureFlagKey: string }; req: { header(n: string): string | undefined }; body: unknown; query: Record<string, string | string[]> }, c: LdCtx): ServiceResponse {
  const flag = flagOf(c, call.params.projectKey, call.params.featureFlagKey);
  const semantic = /domain-model=launchdarkly\.semanticpatch/i.test(call.req.header('content-type') ?? '');
  const parsed = PatchBody.safeParse(call.body);
  if (!parsed.success) throw invalid(semantic ? 'A semantic patch needs an instructions array' : 'The body must be a JSON patch array or {patch, comment}');
  const body = parsed.data;
  let next: z.output<typeof Patched>;
  let comment: string | undefined;
  if (semantic) {
    if (Array.isArray(body) || !('instructions' in body)) throw invalid('A semantic patch needs an instructions array');
    comment = body.comment;
    next = applySemanticPatch(flag, patchable(flag) as z.output<typeof Patched>, body.environmentKey, body.instructions);
  } else {
    if (!Array.isArray(body) && !('patch' in body)) throw invalid('Semantic patch instructions need Content-Type: application/json; domain-model=launchdarkly.semanticpatch');
    const ops: PatchOp[] = Array.isArray(body) ? body : body.patch;
    comment = Array.isArray(body) ? undefined : body.comment;
    const result = Patched.safeParse(applyJsonPatch(patchable(flag), ops));
    if (!result.success) {
      const issue = result.error.issues[0]!;
      throw invalid(`Invalid patch: /${issue.path.join('/')}: ${issue.message}`);
    }
    next = result.data;
  }
  const project = projectOf(c, flag.project);
  const requires = projectEnvironments(c.db, project).filter((e) => e.requireComments && JSON.stringify(next.environments[e.key]) !== JSON.stringify(patchable(flag).environments[e.key]));
  if (requires.length > 0 && !comment) throw invalid(`A comment is required for changes in ${requires.map((e) => e.key).join(', ')}`);
  if (call.query['dryRun'] === 'true') return jsonResponse(200, renderFlag(c.db, { ...flag, ...next } as FlagDoc));
  return jsonResponse(200, renderFlag(c.db, commitFlag(c, flag, next, comment)));
}

export type PatchedFlag = z.output<typeof Patched>;

export const flagOperations: Operation<LdCtx>[] = [
  operation<LdCtx, '/api/v2/flags/:projectKey', z.infer<typeof ListQuery>>('getFeatureFlags', rest('GET', '/api/v2/flags/:projectKey'), listFlags, { input: { query: ListQuery } }),
  operation<LdCtx, '/api/v2/flags/:projectKey', Record<string, string>, z.infer<typeof CreateBody>>('postFeatureFlag', rest('POST', '/api/v2/flags/:projectKey'), (call, c) => createFlag(call, c), { input: { body: CreateBody }, lazy: true }),
  operation<LdCtx, '/api/v2/flags/:projectKey/:featureFlagKey', Record<string, string | string[]>>('getFeatureFlag', rest('GET', '/api/v2/flags/:projectKey/:featureFlagKey'), (call, c) => {
    const flag = flagOf(c, call.params.projectKey, call.params.featureFlagKey);
    return jsonResponse(200, renderFlag(c.db, flag, envList(call.query['env'])));
  }),
  operation<LdCtx, '/api/v2/flags/:projectKey/:featureFlagKey', Record<string, string | string[]>>('patchFeatureFlag', rest('PATCH', '/api/v2/flags/:projectKey/:featureFlagKey'), (call, c) => patchFlag(call, c), { lazy: true }),
  operation<LdCtx, '/api/v2/flags/:projectKey/:featureFlagKey'>('deleteFeatureFlag', rest('DELETE', '/api/v2/flags/:projectKey/:featureFlagKey'), (call, c) => {
    const flag = flagOf(c, call.params.projectKey, call.params.featureFlagKey);
    c.db.flags.delete(flagKey(flag.project, flag.key));
    audit(c.db, c.ctx, { kind: 'flag', name: flag.name, description: `deleted the flag ${flag.name}`, resource: `proj/${flag.project}:env/*:flag/${flag.key}`, action: 'deleteFlag' });
    return { status: 204, headers: [], body: new Uint8Array() };
  }),
  operation<LdCtx, '/api/v2/flag-status/:projectKey/:featureFlagKey'>('getFeatureFlagStatusAcrossEnvironments', rest('GET', '/api/v2/flag-status/:projectKey/:featureFlagKey'), (call, c) => {
    const flag = flagOf(c, call.params.projectKey, call.params.featureFlagKey);
    const project = projectOf(c, flag.project);
    const environments: Record<string, unknown> = {};
    for (const env of projectEnvironments(c.db, project)) environments[env.key] = flagStatus(flag, flag.environments[env.key], c.ctx.nowMs);
    return jsonResponse(200, { environments, key: flag.key, _links: { parent: { href: `${API}/flag-status/${flag.project}`, type: 'application/json' }, self: { href: `${API}/flag-status/${flag.project}/${flag.key}`, type: 'application/json' } } });
  }),
];
