import { Octokit } from '@octokit/rest';
import test from 'ava';
import { invalidJournalEntries } from './helpers/github-openapi.js';
import { TOKENS } from './helpers/github-requests.js';
import { startWorld, type TestWorld } from './helpers/world.js';

/**
 * `@octokit/rest`, unmodified, against the mock's plain HTTP port: the client GitHub publishes
 * must work end to end (pagination through Link headers, errors as RequestError with GitHub's body),
 * and every response it received must match GitHub's OpenAPI description.
 */
let served: TestWorld;
const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const client = (token?: string) => new Octokit({ baseUrl: served.urls.github, log: quiet, ...(token ? { auth: token } : {}) });

test.before(async () => {
  served = await startWorld();
});

test.after.always(async () => {
  await served?.close();
});

test.serial('paginate lists every open issue across two pages; state=all gives all 41', async (t) => {
  const octokit = client(TOKENS.alice);
  const first = await octokit.rest.issues.listForRepo({ owner: 'acme', repo: 'widgets' });
  t.is(first.data.length, 30);
  t.regex(first.headers.link ?? '', /rel="next"/);
  const open = await octokit.paginate(octokit.rest.issues.listForRepo, { owner: 'acme', repo: 'widgets', per_page: 30 });
  t.is(open.length, 35);
  t.is(new Set(open.map((i) => i.number)).size, 35);
  const all = await octokit.paginate(octokit.rest.issues.listForRepo, { owner: 'acme', repo: 'widgets', state: 'all', per_page: 100 });
  t.is(all.length, 41);
});

test.serial('create an issue, update it, comment on it', async (t) => {
  const octokit = client(TOKENS.bob);
  const created = await octokit.rest.issues.create({ owner: 'acme', repo: 'widgets', title: 'Tooltip overlaps label', body: 'See screenshot.', labels: ['bug'] });
  t.is(created.status, 201);
  t.is(created.data.user?.login, 'bob');
  const number = created.data.number;
  const updated = await octokit.rest.issues.update({ owner: 'acme', repo: 'widgets', issue_number: number, state: 'closed', state_reason: 'completed', assignees: ['alice'] });
  t.is(updated.data.state, 'closed');
  t.deepEqual(updated.data.assignees?.map((a) => a.login), ['alice']);
  const comment = await octokit.rest.issues.createComment({ owner: 'acme', repo: 'widgets', issue_number: number, body: 'Fixed in main.' });
  t.is(comment.status, 201);
  const comments = await octokit.rest.issues.listComments({ owner: 'acme', repo: 'widgets', issue_number: number });
  t.deepEqual(comments.data.map((c) => c.body), ['Fixed in main.']);
  t.is((await octokit.rest.issues.get({ owner: 'acme', repo: 'widgets', issue_number: number })).data.comments, 1);
});

test.serial('read a file and a directory', async (t) => {
  const octokit = client(TOKENS.alice);
  const file = await octokit.rest.repos.getContent({ owner: 'acme', repo: 'widgets', path: 'src/widget.ts' });
  t.false(Array.isArray(file.data));
  if (Array.isArray(file.data) || file.data.type !== 'file') return;
  t.true(Buffer.from(file.data.content, 'base64').toString().includes('export class Widget'));
  const dir = await octokit.rest.repos.getContent({ owner: 'acme', repo: 'widgets', path: 'src', ref: 'feature/color-support' });
  t.true(Array.isArray(dir.data));
  const me = await octokit.rest.users.getAuthenticated();
  t.is(me.data.login, 'alice');
  const repo = await octokit.rest.repos.get({ owner: 'acme', repo: 'widgets' });
  t.is(repo.data.default_branch, 'main');
});

test.serial('create a branch and a file on it, open a pull request and merge it', async (t) => {
  const octokit = client(TOKENS.alice);
  const main = await octokit.rest.git.getRef({ owner: 'acme', repo: 'widgets', ref: 'heads/main' });
  const branch = await octokit.rest.git.createRef({ owner: 'acme', repo: 'widgets', ref: 'refs/heads/docs/changelog', sha: main.data.object.sha });
  t.is(branch.status, 201);
  const file = await octokit.rest.repos.createOrUpdateFileContents({
    owner: 'acme', repo: 'widgets', path: 'CHANGELOG.md', branch: 'docs/changelog',
    message: 'Add a changelog', content: Buffer.from('# Changelog\n\n## 1.1.0\n- Colours\n').toString('base64'),
  });
  t.is(file.status, 201);
  const pr = await octokit.rest.pulls.create({ owner: 'acme', repo: 'widgets', title: 'Add a changelog', head: 'docs/changelog', base: 'main', body: 'Closes #10' });
  t.is(pr.status, 201);
  t.is(pr.data.mergeable, true);
  const files = await octokit.rest.pulls.listFiles({ owner: 'acme', repo: 'widgets', pull_number: pr.data.number });
  t.deepEqual(files.data.map((f) => f.filename), ['CHANGELOG.md']);
  const merged = await octokit.rest.pulls.merge({ owner: 'acme', repo: 'widgets', pull_number: pr.data.number, merge_method: 'squash' });
  t.true(merged.data.merged);
  const after = await octokit.rest.pulls.get({ owner: 'acme', repo: 'widgets', pull_number: pr.data.number });
  t.true(after.data.merged);
  t.is(after.data.state, 'closed');
  const onMain = await octokit.rest.repos.getContent({ owner: 'acme', repo: 'widgets', path: 'CHANGELOG.md' });
  t.is((onMain.data as { sha: string }).sha, file.data.content?.sha ?? 'missing');
  t.is((await octokit.rest.pulls.checkIfMerged({ owner: 'acme', repo: 'widgets', pull_number: pr.data.number })).status, 204);
});

test.serial('401 without a token on a write, 401 with a bad token, 404 with GitHub\'s body for a missing repository', async (t) => {
  const anonymous = await t.throwsAsync(client().rest.issues.create({ owner: 'acme', repo: 'widgets', title: 'x' }));
  t.is((anonymous as unknown as { status: number }).status, 401);
  t.like((anonymous as unknown as { response: { data: unknown } }).response.data, { message: 'Requires authentication' });
  const bad = await t.throwsAsync(client('ghp_not_a_real_token').rest.repos.get({ owner: 'acme', repo: 'widgets' }));
  t.is((bad as unknown as { status: number }).status, 401);
  t.deepEqual((bad as unknown as { response: { data: unknown } }).response.data,
    { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest', status: '401' });
  const missing = await t.throwsAsync(client(TOKENS.alice).rest.repos.get({ owner: 'acme', repo: 'nope' }));
  t.is((missing as unknown as { status: number }).status, 404);
  t.deepEqual((missing as unknown as { response: { data: unknown } }).response.data,
    { message: 'Not Found', documentation_url: 'https://docs.github.com/rest/repos/repos#get-a-repository', status: '404' });
  const hidden = await t.throwsAsync(client(TOKENS.carol).rest.repos.get({ owner: 'acme', repo: 'infra' }));
  t.is((hidden as unknown as { status: number }).status, 404);
  t.is((await client().rest.repos.get({ owner: 'acme', repo: 'widgets' })).status, 200, 'anonymous reads of public repositories work');
});

test.serial('every response Octokit received matches GitHub\'s OpenAPI description', async (t) => {
  await served.world.journal.flush();
  t.deepEqual(await invalidJournalEntries(served.world.journal), []);
});
