import { createHash } from 'node:crypto';
import { jsonResponse, type HeaderList, type ServiceResponse } from '../core/http.js';
import type { Collection, DocumentStore } from '../core/store.js';
import type { LoadContext } from '../core/service.js';
import { ServiceError } from '../kit/errors.js';
import { uuidId } from '../kit/ids.js';
import { pageParams } from '../kit/pagination/page-link.js';

/** The store's documents, as the mock keeps them (rendered into GitLab's shapes by render.ts). */

export interface UserDoc { id: number; username: string; name: string; email: string; state: string; bot: boolean; created_at: string }
export interface TokenDoc { token: string; user_id: number; scopes: string[] }
export interface MemberDoc { user_id: number; access_level: number }
export interface GroupDoc {
  id: number; name: string; path: string; full_path: string; parent_id: number | null; description: string;
  visibility: string; created_at: string; members: MemberDoc[];
}
export interface ProjectDoc {
  id: number; name: string; path: string; namespace_id: number; namespace_kind: 'group' | 'user'; namespace_full_path: string;
  description: string; default_branch: string; visibility: string; archived: boolean; topics: string[];
  only_allow_merge_if_pipeline_succeeds: boolean; created_at: string; last_activity_at: string; creator_id: number;
  members: MemberDoc[]; forked_from: number | null;
}
/** A commit with its whole tree (path → content): repositories here are small. */
export interface CommitDoc {
  project_id: number; id: string; parent_ids: string[]; title: string; message: string;
  author_id: number; authored_date: string; tree: Record<string, string>;
}
export interface BranchDoc { project_id: number; name: string; commit: string; protected: boolean }
export interface TagDoc { project_id: number; name: string; commit: string; message: string; created_at: string }
export interface IssueDoc {
  id: number; iid: number; project_id: number; title: string; description: string; state: 'opened' | 'closed';
  author_id: number; assignee_ids: number[]; labels: string[]; milestone_id: number | null; confidential: boolean;
  issue_type: string; due_date: string | null; weight: number | null; created_at: string; updated_at: string;
  closed_at: string | null; closed_by_id: number | null;
}
export interface MergeRequestDoc {
  id: number; iid: number; project_id: number; title: string; description: string; state: 'opened' | 'closed' | 'merged' | 'locked';
  source_branch: string; target_branch: string; source_project_id: number; author_id: number; assignee_ids: number[];
  reviewer_ids: number[]; labels: string[]; milestone_id: number | null; draft: boolean; approvals_required: number;
  approved_by_ids: number[]; created_at: string; updated_at: string; merged_at: string | null; merged_by_id: number | null;
  closed_at: string | null; closed_by_id: number | null; merge_commit_sha: string | null; squash_commit_sha: string | null;
  /** The source branch's head and the target's, when the merge request was merged (its diff stays readable). */
  head_sha: string | null; base_sha: string | null; squash: boolean; should_remove_source_branch: boolean | null;
  versions: { id: number; head_sha: string; base_sha: string; created_at: string }[];
}
export interface Position {
  base_sha: string; start_sha: string; head_sha: string; position_type: 'text';
  old_path: string; new_path: string; old_line: number | null; new_line: number | null;
}
export interface NoteDoc {
  id: number; project_id: number; noteable_type: 'Issue' | 'MergeRequest' | 'Commit'; noteable_id: number; noteable_iid: number;
  discussion_id: string; individual: boolean; type: null | 'DiscussionNote' | 'DiffNote'; body: string; author_id: number;
  system: boolean; internal: boolean; created_at: string; updated_at: string; resolvable: boolean; resolved: boolean;
  resolved_by_id: number | null; position: Position | null;
}
export interface DraftNoteDoc {
  id: number; project_id: number; merge_request_iid: number; author_id: number; note: string; discussion_id: string | null;
  resolve_discussion: boolean; position: Position | null;
}
export interface PipelineDoc {
  id: number; iid: number; project_id: number; sha: string; ref: string; status: string; source: string; user_id: number;
  created_at: string; updated_at: string; started_at: string | null; finished_at: string | null; duration: number | null;
  variables: { key: string; value: string; variable_type: string }[]; name: string | null;
}
export interface JobDoc {
  id: number; project_id: number; pipeline_id: number; name: string; stage: string; status: string; log: string;
  failure_reason: string | null; allow_failure: boolean; when: string; user_id: number; created_at: string;
  started_at: string | null; finished_at: string | null; duration: number | null; ref: string; sha: string; erased: boolean;
}
export interface LabelDoc { id: number; project_id: number; name: string; color: string; description: string | null; priority: number | null }
export interface MilestoneDoc {
  id: number; iid: number; project_id: number | null; group_id: number | null; title: string; description: string;
  state: string; due_date: string | null; start_date: string | null; created_at: string; updated_at: string;
}
export interface WikiDoc { project_id: number | null; group_id: number | null; slug: string; title: string; content: string; format: string }

export interface Db {
  users: Collection<UserDoc>;
  tokens: Collection<TokenDoc>;
  groups: Collection<GroupDoc>;
  projects: Collection<ProjectDoc>;
  commits: Collection<CommitDoc>;
  branches: Collection<BranchDoc>;
  tags: Collection<TagDoc>;
  issues: Collection<IssueDoc>;
  merge_requests: Collection<MergeRequestDoc>;
  notes: Collection<NoteDoc>;
  draft_notes: Collection<DraftNoteDoc>;
  pipelines: Collection<PipelineDoc>;
  jobs: Collection<JobDoc>;
  labels: Collection<LabelDoc>;
  milestones: Collection<MilestoneDoc>;
  wiki: Collection<WikiDoc>;
}

export function dbOf(store: DocumentStore): Db {
  const c = <T>(name: string) => store.collection<T>(name);
  return {
    users: c('users'), tokens: c('tokens'), groups: c('groups'), projects: c('projects'), commits: c('commits'), branches: c('branches'),
    tags: c('tags'), issues: c('issues'), merge_requests: c('merge_requests'), notes: c('notes'), draft_notes: c('draft_notes'),
    pipelines: c('pipelines'), jobs: c('jobs'), labels: c('labels'), milestones: c('milestones'), wiki: c('wiki'),
  };
}

/** Keys of per-project documents. */
export const key = (projectId: number, part: string | number): string => `${projectId}:${part}`;

export const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1Z');

/** A commit SHA from what makes it (deterministic; not git's object hash). */
export function shaOf(...parts: (string | number)[]): string {
  return createHash('sha1').update(parts.join('\0')).digest('hex');
}

/** 40 hex digits from the seeded IDs (discussion ids, new commits' SHAs): the same seed gives the same ones. */
export function seededSha(ctx: Pick<LoadContext, 'ids'>, kind: string): string {
  return shaOf(kind, uuidId(ctx, kind));
}
export const discussionIdOf = (ctx: Pick<LoadContext, 'ids'>): string => seededSha(ctx, 'discussion');

/**
 * GitLab's errors: `{"message": …}` from the API's own checks (`404 Project Not Found`,
 * `403 Forbidden`, a validation hash), `{"error": …}` from Grape's parameter validation
 * (`title is missing`) and for paths no route takes (`404 Not Found`).
 */
export function glError(status: number, message: unknown, headers: HeaderList = []): ServiceError {
  return new ServiceError(status, 'message', typeof message === 'string' ? message : JSON.stringify(message), { message }, headers);
}
export function glParamError(message: string): ServiceError {
  return new ServiceError(400, 'error', message, { error: message });
}
/** A path no route takes: Grape's `{"error": "404 Not Found"}`. */
export function glRouteNotFound(): ServiceError {
  return new ServiceError(404, 'error', '404 Not Found', { error: '404 Not Found' });
}
export const notFound = (what: string): ServiceError => glError(404, `404 ${what} Not Found`);

export function renderError(error: ServiceError): ServiceResponse {
  const body = error.code === 'error' ? { error: error.details.error ?? error.message } : { message: error.details.message ?? error.message };
  return jsonResponse(error.status, body, [...error.headers]);
}

/**
 * GitLab's offset pagination: `page`/`per_page` (20 by default, at most 100), the `X-*` headers
 * (`X-Total` and `X-Total-Pages` omitted past 10,000 items, as GitLab does), and a `Link` header
 * with `prev`, `next`, `first`, `last` in GitLab's order.
 */
export function paged<T>(items: readonly T[], req: { path: string; query: URLSearchParams }, render: (item: T) => unknown = (x) => x): ServiceResponse {
  const { page, perPage } = pageParams(req.query, { defaultPerPage: 20, maxPerPage: 100 });
  const total = items.length;
  const totalPages = Math.max(1, Math.ceil(total / perPage));
  const slice = items.slice((page - 1) * perPage, page * perPage);
  const url = (n: number) => {
    const query = new URLSearchParams(req.query);
    query.set('page', String(n));
    query.set('per_page', String(perPage));
    return `<https://gitlab.com${req.path}?${query.toString()}>`;
  };
  const links: string[] = [];
  if (page > 1) links.push(`${url(page - 1)}; rel="prev"`);
  if (page < totalPages) links.push(`${url(page + 1)}; rel="next"`);
  links.push(`${url(1)}; rel="first"`, `${url(totalPages)}; rel="last"`);
  const headers: HeaderList = [
    ['Link', links.join(', ')],
    ['X-Next-Page', page < totalPages ? String(page + 1) : ''],
    ['X-Page', String(page)],
    ['X-Per-Page', String(perPage)],
    ['X-Prev-Page', page > 1 ? String(page - 1) : ''],
  ];
  if (total <= 10_000) headers.push(['X-Total', String(total)], ['X-Total-Pages', String(totalPages)]);
  return jsonResponse(200, slice.map(render), headers);
}

/**
 * Keyset pagination (`pagination=keyset&order_by=id`), as GitLab offers for projects: no totals,
 * a `Link` with `rel="next"` carrying `id_after` (or `id_before` when sorted descending).
 */
export function keysetPaged<T extends { id: number }>(items: readonly T[], req: { path: string; query: URLSearchParams }, render: (item: T) => unknown): ServiceResponse {
  const { perPage } = pageParams(req.query, { defaultPerPage: 20, maxPerPage: 100 });
  const desc = (req.query.get('sort') ?? 'asc') === 'desc';
  const after = Number(req.query.get('id_after') ?? NaN);
  const before = Number(req.query.get('id_before') ?? NaN);
  const ordered = [...items].sort((a, b) => (desc ? b.id - a.id : a.id - b.id))
    .filter((item) => (Number.isFinite(after) ? item.id > after : true) && (Number.isFinite(before) ? item.id < before : true));
  const slice = ordered.slice(0, perPage);
  const headers: HeaderList = [['X-Per-Page', String(perPage)]];
  if (ordered.length > perPage) {
    const query = new URLSearchParams(req.query);
    query.delete('id_after');
    query.delete('id_before');
    query.set(desc ? 'id_before' : 'id_after', String(slice.at(-1)!.id));
    headers.unshift(['Link', `<https://gitlab.com${req.path}?${query.toString()}>; rel="next"`]);
  }
  return jsonResponse(200, slice.map(render), headers);
}

/** A query parameter GitLab takes as a comma-separated list or repeated `name[]`. */
export function listParam(query: URLSearchParams, name: string): string[] | null {
  const values = [...query.getAll(name), ...query.getAll(`${name}[]`)];
  if (values.length === 0) return null;
  return values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
}

export function boolParam(query: URLSearchParams, name: string): boolean | null {
  const value = query.get(name);
  if (value === null) return null;
  return value === 'true' || value === '1';
}
