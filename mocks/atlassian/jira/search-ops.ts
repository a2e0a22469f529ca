import { z } from 'zod';
import { jsonResponse, type ServiceRequest, type ServiceResponse } from '../../core/http.js';
import { operation, rest, type Operation } from '../../kit/operation.js';
import { me, type AtlassianCtx } from '../context.js';
import { jiraError } from '../errors.js';
import { intParam } from './common.js';
import { JqlError, jqlStructure, parseJql } from './jql.js';
import type { IssueDoc } from './model.js';
import { renderIssue, selectFields } from './render.js';
import { bounded, evaluate, type SearchContext } from './search.js';

/**
 * Issue search: the enhanced `/search/jql` (nextPageToken, no total; Jira Cloud's current API),
 * the older `/search` (startAt, maxResults, total), and `/jql/parse`. Both searches read their
 * parameters from the query (GET) or the JSON body (POST).
 */
type Params = { jql: string; fields: string | null; expand: string; maxResults: number | null; startAt: number | null; nextPageToken: string | null };

function searchContext(c: AtlassianCtx): SearchContext {
  return { view: c.view, me: me(c).accountId, nowMs: c.ctx.nowMs };
}

function paramsOf(req: ServiceRequest, body: unknown): Params {
  if (req.method === 'POST') {
    const b = z.object({
      jql: z.string().default(''), fields: z.array(z.string()).optional(), expand: z.union([z.string(), z.array(z.string())]).optional(),
      maxResults: z.number().int().nonnegative().optional(), startAt: z.number().int().nonnegative().optional(), nextPageToken: z.string().nullable().optional(),
    }).passthrough().safeParse(body ?? {});
    if (!b.success) throw jiraError(400, [`Invalid request payload: ${b.error.issues[0]!.path.join('.')}: ${b.error.issues[0]!.message}`]);
    return {
      jql: b.data.jql, fields: b.data.fields ? b.data.fields.join(',') : null, expand: Array.isArray(b.data.expand) ? b.data.expand.join(',') : b.data.expand ?? '',
      maxResults: b.data.maxResults ?? null, startAt: b.data.startAt ?? null, nextPageToken: b.data.nextPageToken ?? null,
    };
  }
  const q = req.query;
  const num = (name: string) => (q.get(name) === null || q.get(name) === '' ? null : intParam(req, name, 0));
  return { jql: q.get('jql') ?? '', fields: q.get('fields'), expand: q.get('expand') ?? '', maxResults: num('maxResults'), startAt: num('startAt'), nextPageToken: q.get('nextPageToken') };
}

function run(c: AtlassianCtx, jql: string, enhanced: boolean): IssueDoc[] {
  try {
    const query = parseJql(jql);
    if (enhanced && !bounded(query)) throw jiraError(400, ['Unbounded JQL queries are not allowed here. Please add a search restriction to your query.']);
    return evaluate(query, searchContext(c));
  } catch (error) {
    if (error instanceof JqlError) throw jiraError(400, [error.message]);
    throw error;
  }
}

/** The page token: the offset of the next page, opaque to clients (base64url of `o:<n>`). */
const token = (offset: number) => Buffer.from(`o:${offset}`).toString('base64url');
function offsetOf(t: string): number {
  const m = /^o:(\d+)$/.exec(Buffer.from(t, 'base64url').toString('utf8'));
  if (!m) throw jiraError(400, ['The provided next page token is invalid or expired.']);
  return Number(m[1]);
}

function enhancedSearch(call: { req: ServiceRequest; body: unknown }, c: AtlassianCtx): ServiceResponse {
  const p = paramsOf(call.req, call.body);
  const issues = run(c, p.jql, true);
  const max = Math.min(p.maxResults ?? 50, 5000) || 50;
  const start = p.nextPageToken ? offsetOf(p.nextPageToken) : 0;
  const slice = issues.slice(start, start + max);
  // The enhanced search returns only `id` unless fields are asked for.
  const wanted = selectFields(p.fields, 'id');
  const isLast = start + slice.length >= issues.length;
  return jsonResponse(200, { issues: slice.map((i) => renderIssue(c.view, i, wanted, p.expand)), ...(isLast ? {} : { nextPageToken: token(start + slice.length) }), isLast });
}

function classicSearch(call: { req: ServiceRequest; body: unknown }, c: AtlassianCtx): ServiceResponse {
  const p = paramsOf(call.req, call.body);
  const issues = run(c, p.jql, false);
  const max = Math.min(p.maxResults ?? 50, 100);
  const start = p.startAt ?? 0;
  const wanted = selectFields(p.fields, '*navigable');
  return jsonResponse(200, { expand: 'schema,names', startAt: start, maxResults: max, total: issues.length, issues: issues.slice(start, start + max).map((i) => renderIssue(c.view, i, wanted, p.expand)) });
}

export const searchOperations: Operation<AtlassianCtx>[] = [
  operation('search.jql', rest('GET', '/rest/api/3/search/jql'), enhancedSearch),
  operation('search.jql.post', rest('POST', '/rest/api/3/search/jql'), enhancedSearch),
  operation('search', rest('GET', '/rest/api/3/search'), classicSearch),
  operation('search.post', rest('POST', '/rest/api/3/search'), classicSearch),

  operation('search.approximateCount', rest('POST', '/rest/api/3/search/approximate-count'), (call, c: AtlassianCtx) => {
    const body = (call.body ?? {}) as { jql?: string };
    return jsonResponse(200, { count: run(c, body.jql ?? '', true).length });
  }),

  operation('jql.parse', rest('POST', '/rest/api/3/jql/parse'), (call, c: AtlassianCtx) => {
    const body = call.body as { queries: string[]; validation?: string };
    const validation = call.req.query.get('validation') ?? body.validation ?? 'strict';
    return jsonResponse(200, {
      queries: body.queries.map((query) => {
        try {
          const parsed = parseJql(query);
          if (validation !== 'none') evaluate(parsed, searchContext(c));
          return { query, structure: jqlStructure(parsed) };
        } catch (error) {
          if (!(error instanceof JqlError)) throw error;
          return { query, errors: [error.message] };
        }
      }),
    });
  }, { input: { body: z.object({ queries: z.array(z.string()).min(1), validation: z.string().optional() }).passthrough() } }),

  operation('jql.autocomplete.suggestions', rest('GET', '/rest/api/3/jql/autocompletedata/suggestions'), (call, c: AtlassianCtx) => {
    const field = (call.req.query.get('fieldName') ?? '').toLowerCase();
    const typed = (call.req.query.get('fieldValue') ?? '').toLowerCase();
    const candidates: { value: string; displayName: string }[] =
      field === 'project' ? c.jira.projects.values().map((p) => ({ value: p.key, displayName: `${p.name} (${p.key})` }))
        : field === 'status' ? c.jira.statuses.values().map((s) => ({ value: s.name, displayName: s.name }))
          : field === 'labels' ? [...new Set(c.jira.issues.values().flatMap((i) => i.labels))].sort().map((l) => ({ value: l, displayName: l }))
            : field === 'assignee' || field === 'reporter' ? c.tenant.users.values().map((u) => ({ value: u.accountId, displayName: `${u.displayName} - ${u.emailAddress}` }))
              : field === 'sprint' ? c.jira.sprints.values().map((s) => ({ value: String(s.id), displayName: `${s.name} (${s.state})` }))
                : [];
    return jsonResponse(200, { results: candidates.filter((x) => x.value.toLowerCase().startsWith(typed) || x.displayName.toLowerCase().includes(typed)).slice(0, 15) });
  }),
];
