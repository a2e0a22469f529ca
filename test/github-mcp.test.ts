import test from 'ava';
import { invalidJournalEntries } from './helpers/github-openapi.js';
import { TOKENS } from './helpers/github-requests.js';
import { startWorld, type TestWorld } from './helpers/world.js';

/**
 * The pinned `@modelcontextprotocol/server-github@2025.4.8` operations, unmodified, against the
 * mock: each tool's function runs its real requests (global fetch to https://api.github.com,
 * redirected here to the plain port) and parses the answers with the server's own zod schemas.
 * This test file's process owns its global fetch and environment; ava runs files in separate processes.
 */
let served: TestWorld;
// The package ships JavaScript without type declarations; its functions are used as they are.
type Ops = Record<string, (...args: any[]) => Promise<any>>;
const ops: Record<string, Ops> = {};

const as = (token: string) => {
  process.env.GITHUB_PERSONAL_ACCESS_TOKEN = token;
};

test.before(async () => {
  served = await startWorld();
  const realFetch = globalThis.fetch;
  globalThis.fetch = ((input: string | URL | Request, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : String(input);
    return realFetch(url.replace(/^https:\/\/api\.github\.com/, served.urls.github ?? 'http://unset'), init);
  }) as typeof fetch;
  for (const name of ['branches', 'commits', 'files', 'issues', 'pulls', 'repository', 'search']) {
    const specifier = `@modelcontextprotocol/server-github/dist/operations/${name}.js`;
    ops[name] = (await import(specifier)) as Ops;
  }
});

test.after.always(async () => {
  await served?.close();
});

test.serial('repositories: search, create, fork (into an org too)', async (t) => {
  as(TOKENS.alice);
  const found = await ops.repository!.searchRepositories!('widgets', 1, 30);
  t.deepEqual(found.items.map((r: { full_name: string }) => r.full_name), ['acme/widgets']);
  const made = await ops.repository!.createRepository!({ name: 'mcp-made', description: 'From the MCP server', private: false, autoInit: true });
  t.is(made.full_name, 'alice/mcp-made');
  as(TOKENS.bob);
  const fork = await ops.repository!.forkRepository!('acme', 'widgets');
  t.is(fork.full_name, 'bob/widgets');
  t.is(fork.parent.full_name, 'acme/widgets');
  as(TOKENS.alice);
  t.is((await ops.repository!.forkRepository!('alice', 'dotfiles', 'acme')).full_name, 'acme/dotfiles');
});

test.serial('branches: from the default branch (main, or master after main fails) and from another branch', async (t) => {
  as(TOKENS.alice);
  const fromMain = await ops.branches!.createBranchFromRef!('acme', 'widgets', 'mcp/work');
  t.is(fromMain.ref, 'refs/heads/mcp/work');
  const fromMaster = await ops.branches!.createBranchFromRef!('alice', 'dotfiles', 'tmux');
  t.is(fromMaster.ref, 'refs/heads/tmux');
  const fromFeature = await ops.branches!.createBranchFromRef!('acme', 'widgets', 'mcp/colors', 'feature/color-support');
  t.is(fromFeature.object.sha, (await ops.branches!.getBranchSHA!('acme', 'widgets', 'feature/color-support')));
});

test.serial('files: read a file and a directory, create and update a file, push several files', async (t) => {
  as(TOKENS.alice);
  const readme = await ops.files!.getFileContents!('acme', 'widgets', 'README.md');
  t.true(readme.content.startsWith('# widgets'));
  const dir = await ops.files!.getFileContents!('acme', 'widgets', 'src', 'feature/color-support');
  t.true(Array.isArray(dir));
  const made = await ops.files!.createOrUpdateFile!('acme', 'widgets', 'docs/usage.md', '# Usage\n', 'Add usage docs', 'mcp/work');
  t.is(made.content.path, 'docs/usage.md');
  const updated = await ops.files!.createOrUpdateFile!('acme', 'widgets', 'docs/usage.md', '# Usage\n\nMore.\n', 'Expand usage docs', 'mcp/work');
  t.deepEqual(updated.commit.parents.map((p: { sha: string }) => p.sha), [made.commit.sha], 'the update looked up the current sha itself');
  const pushed = await ops.files!.pushFiles!('acme', 'widgets', 'mcp/work', [
    { path: 'src/a.ts', content: 'export const a = 1;\n' }, { path: 'src/b.ts', content: 'export const b = 2;\n' },
  ], 'Add a and b');
  t.is(pushed.ref, 'refs/heads/mcp/work');
  const b = await ops.files!.getFileContents!('acme', 'widgets', 'src/b.ts', 'mcp/work');
  t.is(b.content, 'export const b = 2;\n');
  const log = await ops.commits!.listCommits!('acme', 'widgets', 1, 3, 'mcp/work');
  t.deepEqual(log.map((c: { commit: { message: string } }) => c.commit.message), ['Add a and b', 'Expand usage docs', 'Add usage docs']);
});

test.serial('issues: list with filters, get, create, update, comment', async (t) => {
  as(TOKENS.bob);
  const bugs = await ops.issues!.listIssues!('acme', 'widgets', { labels: ['bug'], state: 'all', per_page: 100 });
  t.true(bugs.length > 5);
  const issue = await ops.issues!.getIssue!('acme', 'widgets', 1);
  t.is(issue.number, 1);
  const made = await ops.issues!.createIssue!('acme', 'widgets', { title: 'From MCP', body: 'Hello', labels: ['question'], assignees: ['alice'] });
  t.is(made.assignees[0].login, 'alice');
  const closed = await ops.issues!.updateIssue!('acme', 'widgets', made.number, { state: 'closed' });
  t.is(closed.state, 'closed');
  const comment = await ops.issues!.addIssueComment!('acme', 'widgets', made.number, 'Done');
  t.is(comment.body, 'Done');
});

test.serial('pull requests: create, list, get, files, status, comments, reviews, update branch, merge', async (t) => {
  as(TOKENS.alice);
  const pr = await ops.pulls!.createPullRequest!({ owner: 'acme', repo: 'widgets', title: 'Usage docs', head: 'mcp/work', base: 'main', body: 'Docs' });
  t.is(pr.head.ref, 'mcp/work');
  const open = await ops.pulls!.listPullRequests!('acme', 'widgets', { state: 'open', sort: 'created', direction: 'desc' });
  t.is(open[0].number, pr.number);
  t.is((await ops.pulls!.getPullRequest!('acme', 'widgets', 39)).title, 'Add color support to widgets');
  const files = await ops.pulls!.getPullRequestFiles!('acme', 'widgets', pr.number);
  t.deepEqual(files.map((f: { filename: string }) => f.filename), ['docs/usage.md', 'src/a.ts', 'src/b.ts']);
  const status = await ops.pulls!.getPullRequestStatus!('acme', 'widgets', 39);
  t.is(status.state, 'success');
  const comments = await ops.pulls!.getPullRequestComments!('acme', 'widgets', 39);
  t.is(comments[0].body, 'Should we support 256 colours?');
  as(TOKENS.bob);
  const review = await ops.pulls!.createPullRequestReview!('acme', 'widgets', pr.number, {
    body: 'Two nits', event: 'COMMENT', comments: [{ path: 'src/a.ts', line: 1, body: 'const?' }, { path: 'src/b.ts', position: 1, body: 'ok' }],
  });
  t.is(review.state, 'COMMENTED');
  t.is((await ops.pulls!.getPullRequestReviews!('acme', 'widgets', pr.number)).length, 1);
  as(TOKENS.alice);
  t.is((await ops.pulls!.mergePullRequest!('acme', 'widgets', 40, { merge_method: 'merge' })).merged, true);
  await ops.pulls!.updatePullRequestBranch!('acme', 'widgets', pr.number);
  const merged = await ops.pulls!.mergePullRequest!('acme', 'widgets', pr.number, { merge_method: 'squash', commit_title: 'Usage docs (#42)' });
  t.true(merged.merged);
  const error = await t.throwsAsync(ops.pulls!.mergePullRequest!('acme', 'widgets', pr.number, {}));
  t.regex(error!.message, /not mergeable/);
});

test.serial('search: code, issues, users', async (t) => {
  as(TOKENS.alice);
  const code = await ops.search!.searchCode!({ q: 'formatNumber repo:acme/widgets' });
  t.true(code.total_count >= 3);
  const issues = await ops.search!.searchIssues!({ q: 'repo:acme/widgets is:pr is:open' });
  t.true(issues.items.every((i: { pull_request?: unknown }) => i.pull_request));
  const users = await ops.search!.searchUsers!({ q: 'type:user', per_page: 2 });
  t.is(users.items.length, 2);
  t.is(users.total_count, 3);
});

test.serial('a missing repository surfaces as the server\'s not-found error', async (t) => {
  as(TOKENS.alice);
  const error = await t.throwsAsync(ops.files!.getFileContents!('acme', 'nope', 'README.md'));
  t.is(error!.name, 'GitHubResourceNotFoundError');
  as('ghp_wrong');
  const denied = await t.throwsAsync(ops.issues!.getIssue!('acme', 'widgets', 1));
  t.is(denied!.name, 'GitHubAuthenticationError');
});

test.serial('every response the MCP server received matches GitHub\'s OpenAPI description', async (t) => {
  await served.world.journal.flush();
  t.deepEqual(await invalidJournalEntries(served.world.journal), []);
});
