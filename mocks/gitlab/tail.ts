import { emptyResponse, jsonResponse } from '../core/http.js';
import type { LoadContext } from '../core/service.js';
import { numericId } from '../kit/ids.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import { groupOf, me, visibleProject, writableProject, type GlCtx } from './context.js';
import { resolveRef } from './git.js';
import { glError, iso, key, notFound, paged } from './model.js';
import { argsOf, V4 } from './params.js';
import { renderCommit, renderUser } from './render.js';

/**
 * The long tail: GitLab resources the MCP server's tools reach that scenarios do not exercise
 * deeply (CI/CD variables, webhooks, releases, deployments, environments, pipeline schedules and
 * triggers, emoji reactions, todos, events, iterations). Each is declared once as a collection
 * under its parent (a project, a group, or a nested item), and answered statefully in GitLab's
 * conventions: a create is readable and listed (offset pages with `X-Total`), an update merges
 * the body, a delete answers 204, an unknown item is `404 <What> Not Found`, a missing required
 * parameter `{"error": "<name> is missing"}`.
 */

export interface TailResource {
  /** Operation prefix (`projectVariables` → `projectVariables.list`, `.get`, …). */
  readonly name: string;
  /** The store collection. */
  readonly collection: string;
  /** The collection's path; `:id` is the project (or group, by `scope`). */
  readonly path: string;
  /** The item's path parameter (`key`, `hook_id`); omitted: a collection without items. */
  readonly item?: string;
  readonly scope: 'project' | 'group' | 'none';
  /** The field that identifies an item, and whether it is a seeded number or given in the body. */
  readonly idField: string;
  readonly idFrom: 'seq' | 'body';
  readonly what: string;
  readonly required?: readonly string[];
  /** Fields a new item starts with, before the body. */
  readonly defaults?: (c: GlCtx, args: Record<string, unknown>) => Record<string, unknown>;
  /** Timestamps an item carries: the epoch for dataset records, the logical time for creates. */
  readonly stamps?: readonly string[];
  /** The item as GitLab answers it, from the merged create (nested objects the body names by value). */
  readonly finish?: (c: GlCtx, doc: Doc, params: Record<string, string>) => Doc;
  /** Whether a delete answers the deleted item (200) instead of 204. */
  readonly deleteAnswers?: boolean;
  readonly ops?: readonly ('list' | 'get' | 'create' | 'update' | 'delete')[];
  /** Access level writes need (Developer by default; Maintainer for settings). */
  readonly writeLevel?: number;
}

type Doc = Record<string, unknown>;

function parentKey(c: GlCtx, res: TailResource, params: Record<string, string>, write: boolean): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(params)) {
    if (name === res.item) continue;
    if (name === 'id' && res.scope === 'project') parts.push(String((write ? writableProject(c, value, res.writeLevel ?? 30) : visibleProject(c, value)).id));
    else if (name === 'id' && res.scope === 'group') parts.push(`g${groupOf(c, value).id}`);
    else parts.push(value);
  }
  return parts.join(':');
}

function tailOps(res: TailResource): Operation<GlCtx>[] {
  const ops = res.ops ?? ['list', 'get', 'create', 'update', 'delete'];
  const col = (c: GlCtx) => c.ctx.store.collection<Doc>(res.collection);
  const itemPath = res.item ? `${res.path}/:${res.item}` : res.path;
  const itemOf = (c: GlCtx, params: Record<string, string>, write: boolean): [string, Doc] => {
    const k = `${parentKey(c, res, params, write)}:${params[res.item!]}`;
    const doc = col(c).get(k);
    if (!doc) throw notFound(res.what);
    return [k, doc];
  };
  const out: Operation<GlCtx>[] = [];
  if (ops.includes('list')) out.push(operation<GlCtx, string>(`${res.name}.list`, rest('GET', res.path), (call, c) => {
    const prefix = `${parentKey(c, res, call.params, false)}:`;
    return paged(col(c).entries().filter(([k]) => k.startsWith(prefix) && !k.slice(prefix.length).includes(':')).map(([, d]) => d), call.req);
  }));
  if (ops.includes('create')) out.push(operation<GlCtx, string>(`${res.name}.create`, rest('POST', res.path), (call, c) => {
    const parent = parentKey(c, res, call.params, true);
    const args = argsOf(call);
    for (const field of res.required ?? []) if (args[field] === undefined || args[field] === '') throw glError(400, `${field} is missing`);
    const id = res.idFrom === 'seq' ? numericId(c.ctx, res.collection) : String(args[res.idField]);
    const k = `${parent}:${id}`;
    if (col(c).has(k)) throw glError(400, { [res.idField]: [`(${id}) has already been taken`] });
    const merged = { [res.idField]: id, ...stamp(res, iso(c.ctx.nowMs)), ...(res.defaults?.(c, args) ?? {}), ...pick(args, call.params), [res.idField]: id };
    return jsonResponse(201, col(c).put(k, res.finish ? res.finish(c, merged, call.params) : merged));
  }));
  if (res.item && ops.includes('get')) out.push(operation<GlCtx, string>(`${res.name}.get`, rest('GET', itemPath), (call, c) => jsonResponse(200, itemOf(c, call.params, false)[1])));
  if (res.item && ops.includes('update')) out.push(operation<GlCtx, string>(`${res.name}.update`, rest('PUT', itemPath), (call, c) => {
    const [k, doc] = itemOf(c, call.params, true);
    return jsonResponse(200, col(c).put(k, { ...doc, ...pick(argsOf(call), call.params), [res.idField]: doc[res.idField], ...('updated_at' in doc ? { updated_at: iso(c.ctx.nowMs) } : {}) }));
  }));
  if (res.item && ops.includes('delete')) out.push(operation<GlCtx, string>(`${res.name}.delete`, rest('DELETE', itemPath), (call, c) => {
    const [k, doc] = itemOf(c, call.params, true);
    col(c).delete(k);
    return res.deleteAnswers ? jsonResponse(200, doc) : emptyResponse(204);
  }));
  return out;
}

function stamp(res: TailResource, at: string): Doc {
  return Object.fromEntries((res.stamps ?? []).map((field) => [field, at]));
}

/** The body's fields, less path parameters and the API's own controls. */
function pick(args: Record<string, unknown>, params: Record<string, string>): Doc {
  const out: Doc = {};
  for (const [k, v] of Object.entries(args)) if (!(k in params) && k !== 'id' && k !== 'page' && k !== 'per_page' && k !== 'filter') out[k] = v;
  return out;
}

const now = (c: GlCtx) => iso(c.ctx.nowMs);
const variableDefaults = (_c: GlCtx) => ({ variable_type: 'env_var', value: '', protected: false, masked: false, hidden: false, raw: false, environment_scope: '*', description: null });
const hookDefaults = (c: GlCtx) => ({ created_at: now(c), push_events: true, issues_events: false, merge_requests_events: false, tag_push_events: false, note_events: false, job_events: false, pipeline_events: false, wiki_page_events: false, enable_ssl_verification: true, alert_status: 'executable', disabled_until: null, url_variables: [], custom_webhook_template: '', name: '', description: '' });

export const TAIL: readonly TailResource[] = [
  { name: 'projectVariables', collection: 'project_variables', path: `${V4}/projects/:id/variables`, item: 'key', scope: 'project', idField: 'key', idFrom: 'body', what: 'Variable', required: ['key', 'value'], defaults: variableDefaults, writeLevel: 40 },
  { name: 'groupVariables', collection: 'group_variables', path: `${V4}/groups/:id/variables`, item: 'key', scope: 'group', idField: 'key', idFrom: 'body', what: 'Variable', required: ['key', 'value'], defaults: variableDefaults },
  { name: 'projectHooks', collection: 'project_hooks', path: `${V4}/projects/:id/hooks`, item: 'hook_id', scope: 'project', idField: 'id', idFrom: 'seq', what: 'Hook', required: ['url'], defaults: hookDefaults, writeLevel: 40 },
  { name: 'groupHooks', collection: 'group_hooks', path: `${V4}/groups/:id/hooks`, item: 'hook_id', scope: 'group', idField: 'id', idFrom: 'seq', what: 'Hook', required: ['url'], defaults: hookDefaults },
  { name: 'projectHookEvents', collection: 'project_hook_events', path: `${V4}/projects/:id/hooks/:hook_id/events`, item: 'hook_event_id', scope: 'project', idField: 'id', idFrom: 'seq', what: 'Hook Event', ops: ['list', 'get'] },
  { name: 'groupHookEvents', collection: 'group_hook_events', path: `${V4}/groups/:id/hooks/:hook_id/events`, item: 'hook_event_id', scope: 'group', idField: 'id', idFrom: 'seq', what: 'Hook Event', ops: ['list', 'get'] },
  {
    name: 'releases', collection: 'releases', path: `${V4}/projects/:id/releases`, item: 'tag_name', scope: 'project', idField: 'tag_name', idFrom: 'body', what: 'Release', required: ['tag_name'],
    stamps: ['created_at', 'released_at'], deleteAnswers: true,
    defaults: (c, args) => ({ name: args.tag_name, description: '', upcoming_release: false, author: renderUser(me(c)), milestones: [], assets: { count: 0, sources: [], links: [] }, evidences: [] }),
    finish: releaseOf,
  },
  {
    name: 'deployments', collection: 'deployments', path: `${V4}/projects/:id/deployments`, item: 'deployment_id', scope: 'project', idField: 'id', idFrom: 'seq', what: 'Deployment',
    required: ['environment', 'sha', 'ref', 'tag', 'status'], stamps: ['created_at', 'updated_at'], defaults: (c) => ({ iid: 1, user: renderUser(me(c)), deployable: null }),
    finish: (c, doc, params) => ({ ...doc, environment: typeof doc.environment === 'string' ? environmentNamed(c, params, doc.environment) : doc.environment }),
  },
  { name: 'environments', collection: 'environments', path: `${V4}/projects/:id/environments`, item: 'environment_id', scope: 'project', idField: 'id', idFrom: 'seq', what: 'Environment', required: ['name'], stamps: ['created_at', 'updated_at'], defaults: (_c, args) => ({ slug: String(args.name ?? '').replace(/[^a-z0-9]+/gi, '-').toLowerCase(), external_url: null, state: 'available', tier: 'other', auto_stop_at: null }) },
  { name: 'pipelineSchedules', collection: 'pipeline_schedules', path: `${V4}/projects/:id/pipeline_schedules`, item: 'schedule_id', scope: 'project', idField: 'id', idFrom: 'seq', what: 'Pipeline Schedule', required: ['description', 'ref', 'cron'], stamps: ['created_at', 'updated_at', 'next_run_at'], defaults: (c) => ({ cron_timezone: 'UTC', active: true, owner: renderUser(me(c)), variables: [] }) },
  { name: 'pipelineScheduleVariables', collection: 'pipeline_schedule_variables', path: `${V4}/projects/:id/pipeline_schedules/:schedule_id/variables`, item: 'key', scope: 'project', idField: 'key', idFrom: 'body', what: 'Variable', required: ['key', 'value'], defaults: () => ({ variable_type: 'env_var' }), ops: ['create', 'get', 'update', 'delete'] },
  { name: 'triggers', collection: 'pipeline_triggers', path: `${V4}/projects/:id/triggers`, item: 'trigger_id', scope: 'project', idField: 'id', idFrom: 'seq', what: 'Trigger', required: ['description'], stamps: ['created_at', 'updated_at'], defaults: (c) => ({ token: `glptt-${c.ctx.seq.toString(16).padStart(20, '0')}`, last_used: null, owner: renderUser(me(c)) }), writeLevel: 40 },
  { name: 'issueAwardEmoji', collection: 'issue_award_emoji', path: `${V4}/projects/:id/issues/:iid/award_emoji`, item: 'award_id', scope: 'project', idField: 'id', idFrom: 'seq', what: 'Award Emoji', required: ['name'], defaults: (c) => ({ user: renderUser(me(c)), created_at: now(c), updated_at: now(c), awardable_type: 'Issue' }), ops: ['list', 'get', 'create', 'delete'], writeLevel: 10 },
  { name: 'issueNoteAwardEmoji', collection: 'issue_note_award_emoji', path: `${V4}/projects/:id/issues/:iid/notes/:note_id/award_emoji`, item: 'award_id', scope: 'project', idField: 'id', idFrom: 'seq', what: 'Award Emoji', required: ['name'], defaults: (c) => ({ user: renderUser(me(c)), created_at: now(c), updated_at: now(c), awardable_type: 'Note' }), ops: ['list', 'get', 'create', 'delete'], writeLevel: 10 },
  { name: 'mergeRequestAwardEmoji', collection: 'merge_request_award_emoji', path: `${V4}/projects/:id/merge_requests/:iid/award_emoji`, item: 'award_id', scope: 'project', idField: 'id', idFrom: 'seq', what: 'Award Emoji', required: ['name'], defaults: (c) => ({ user: renderUser(me(c)), created_at: now(c), updated_at: now(c), awardable_type: 'MergeRequest' }), ops: ['list', 'get', 'create', 'delete'], writeLevel: 10 },
  { name: 'mergeRequestNoteAwardEmoji', collection: 'merge_request_note_award_emoji', path: `${V4}/projects/:id/merge_requests/:iid/notes/:note_id/award_emoji`, item: 'award_id', scope: 'project', idField: 'id', idFrom: 'seq', what: 'Award Emoji', required: ['name'], defaults: (c) => ({ user: renderUser(me(c)), created_at: now(c), updated_at: now(c), awardable_type: 'Note' }), ops: ['list', 'get', 'create', 'delete'], writeLevel: 10 },
  { name: 'issueDiscussionNoteAwardEmoji', collection: 'issue_note_award_emoji', path: `${V4}/projects/:id/issues/:iid/discussions/:discussion_id/notes/:note_id/award_emoji`, item: 'award_id', scope: 'project', idField: 'id', idFrom: 'seq', what: 'Award Emoji', required: ['name'], defaults: (c) => ({ user: renderUser(me(c)), created_at: now(c), updated_at: now(c), awardable_type: 'Note' }), ops: ['list', 'get', 'create', 'delete'], writeLevel: 10 },
  { name: 'mergeRequestDiscussionNoteAwardEmoji', collection: 'merge_request_note_award_emoji', path: `${V4}/projects/:id/merge_requests/:iid/discussions/:discussion_id/notes/:note_id/award_emoji`, item: 'award_id', scope: 'project', idField: 'id', idFrom: 'seq', what: 'Award Emoji', required: ['name'], defaults: (c) => ({ user: renderUser(me(c)), created_at: now(c), updated_at: now(c), awardable_type: 'Note' }), ops: ['list', 'get', 'create', 'delete'], writeLevel: 10 },
  { name: 'commitStatuses', collection: 'commit_statuses', path: `${V4}/projects/:id/repository/commits/:sha/statuses`, scope: 'project', idField: 'id', idFrom: 'seq', what: 'Status', ops: ['list'] },
  { name: 'projectEvents', collection: 'events', path: `${V4}/projects/:id/events`, scope: 'project', idField: 'id', idFrom: 'seq', what: 'Event', ops: ['list'] },
  { name: 'iterations', collection: 'iterations', path: `${V4}/groups/:id/iterations`, scope: 'group', idField: 'id', idFrom: 'seq', what: 'Iteration', ops: ['list'], stamps: ['created_at', 'updated_at'] },
  { name: 'todos', collection: 'todos', path: `${V4}/todos`, item: 'todo_id', scope: 'none', idField: 'id', idFrom: 'seq', what: 'Todo', ops: ['list'] },
  { name: 'events', collection: 'user_events', path: `${V4}/events`, scope: 'none', idField: 'id', idFrom: 'seq', what: 'Event', ops: ['list'] },
];

/** A new release's tag (made from `ref` when it does not exist yet, as GitLab does) and commit. */
function releaseOf(c: GlCtx, doc: Doc, params: Record<string, string>): Doc {
  const project = visibleProject(c, params.id!);
  const tagName = String(doc.tag_name);
  let tag = c.db.tags.get(key(project.id, tagName));
  if (!tag) {
    const commit = resolveRef(c, project, typeof doc.ref === 'string' ? doc.ref : null);
    if (!commit) throw glError(422, 'Ref is not specified');
    tag = c.db.tags.put(key(project.id, tagName), { project_id: project.id, name: tagName, commit: commit.id, message: '', created_at: iso(c.ctx.nowMs) });
  }
  const { ref: _ref, ...rest } = doc;
  return { ...rest, commit: renderCommit(c, c.db.commits.get(key(project.id, tag.commit))!) };
}

function environmentNamed(c: GlCtx, params: Record<string, string>, name: string): Doc {
  const project = visibleProject(c, params.id!);
  const env = c.ctx.store.collection<Doc>('environments').entries().find(([k, e]) => k.startsWith(`${project.id}:`) && e.name === name)?.[1];
  if (!env) throw glError(400, { environment: ['is invalid'] });
  return { id: env.id, name: env.name, slug: env.slug, external_url: env.external_url ?? null, state: env.state, tier: env.tier ?? 'other' };
}

export const tailOperations: Operation<GlCtx>[] = TAIL.flatMap(tailOps);

/**
 * Dataset records of the long-tail collections, by resource name: `{"projectHooks": [{"project":
 * 101, "url": "…"}]}` (`project`, `group` or `parent` says whose they are).
 */
export function seedTail(ctx: LoadContext, records: Readonly<Record<string, readonly Record<string, unknown>[]>>): void {
  for (const [name, list] of Object.entries(records)) {
    const res = TAIL.find((r) => r.name === name);
    if (!res) throw new Error(`dataset/gitlab.json: records.${name} is no long-tail resource (${TAIL.map((r) => r.name).join(', ')})`);
    for (const record of list) {
      const { project, group, parent, ...doc } = record as { project?: number; group?: number; parent?: string } & Doc;
      const owner = parent ?? (res.scope === 'project' ? String(project) : res.scope === 'group' ? `g${group}` : '');
      const id = res.idFrom === 'seq' ? (doc[res.idField] as number | undefined) ?? numericId(ctx, res.collection) : String(doc[res.idField]);
      if (res.idFrom === 'seq') ctx.ids.reserve(res.collection, Number(id));
      ctx.store.collection<Doc>(res.collection).put(`${owner}:${id}`, { [res.idField]: id, ...stamp(res, iso(ctx.epochMs)), ...doc });
    }
  }
}
