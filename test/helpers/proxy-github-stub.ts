import { z } from 'zod';
import { jsonResponse } from '../../mocks/core/http.js';
import { Router, get, post } from '../../mocks/core/router.js';
import type { ServiceContext, ServiceDefinition } from '../../mocks/core/service.js';

/**
 * A stand-in for the GitHub mock in proxy tests: just enough of the REST API (the user, a repo,
 * creating and listing issues) for real clients to get answers shaped like GitHub's.
 */
interface Issue { id: number; number: number; title: string; body: string | null; owner: string; repo: string; created_at: string }

const issues = (ctx: ServiceContext) => ctx.store.collection<Issue>('issues');
const render = (issue: Issue) => ({
  id: issue.id, number: issue.number, title: issue.title, body: issue.body, state: 'open',
  url: `https://api.github.com/repos/${issue.owner}/${issue.repo}/issues/${issue.number}`,
  user: { login: 'octocat' }, labels: [], assignees: [], created_at: issue.created_at, updated_at: issue.created_at,
});

const router = new Router<ServiceContext>([
  get('/user', () => jsonResponse(200, { login: 'octocat', id: 1, type: 'User' })),
  get('/repos/:owner/:repo', (_req, p) => jsonResponse(200, { id: 100, name: p.repo, full_name: `${p.owner}/${p.repo}`, owner: { login: p.owner } })),
  get('/repos/:owner/:repo/issues', (_req, p, ctx) =>
    jsonResponse(200, issues(ctx).values().filter((i) => i.owner === p.owner && i.repo === p.repo).map(render))),
  post('/repos/:owner/:repo/issues', (req, p, ctx) => {
    const body = req.json() as { title?: string; body?: string } | undefined;
    if (!body?.title) return jsonResponse(422, { message: 'Validation Failed' });
    const number = ctx.ids.next('issue');
    const issue = { id: 1000 + number, number, title: body.title, body: body.body ?? null, owner: p.owner, repo: p.repo, created_at: new Date(ctx.nowMs).toISOString() };
    issues(ctx).put(number, issue);
    return jsonResponse(201, render(issue));
  }),
]);

export const githubStub: ServiceDefinition<Record<string, never>> = {
  id: 'github',
  dataset: z.object({}).strict() as unknown as z.ZodType<Record<string, never>>,
  load() {},
  handle(req, ctx) {
    const found = router.match(req.method, req.path);
    if (found.kind !== 'found') return jsonResponse(404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' });
    return found.route.handler(req, found.params, ctx);
  },
  reject(reason) {
    return jsonResponse(reason === 'payload_too_large' ? 413 : 500, { message: reason });
  },
};
