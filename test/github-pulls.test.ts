import test from 'ava';
import { invalidEntries } from './helpers/github-openapi.js';
import { TOKENS, exampleWorld, sender } from './helpers/github-requests.js';

/** Pull requests: create, list, files, reviews, merges (merge, squash, rebase) and branch updates. */
const b64 = (text: string) => Buffer.from(text).toString('base64');

test('get and list: heads, bases, mergeability, counts; filters by head and base', async (t) => {
  const send = sender(await exampleWorld());
  const pr = send('GET', '/repos/acme/widgets/pulls/39').json;
  t.is(pr.head.ref, 'feature/color-support');
  t.is(pr.head.label, 'acme:feature/color-support');
  t.is(pr.head.sha, send('GET', '/repos/acme/widgets/git/ref/heads/feature/color-support').json.object.sha);
  t.is(pr.base.sha, send('GET', '/repos/acme/widgets/git/ref/heads/main').json.object.sha);
  t.is(pr.mergeable, true);
  t.is(pr.mergeable_state, 'clean');
  t.is(pr.commits, 2);
  t.is(pr.changed_files, 2);
  t.is(pr.review_comments, 1);
  t.is(pr.comments, 1);
  t.deepEqual(pr.requested_reviewers.map((u: { login: string }) => u.login), ['alice']);
  t.is(send('GET', '/repos/acme/widgets/pulls/40').json.mergeable_state, 'unstable', 'a pending status');
  const fork = send('GET', '/repos/acme/widgets/pulls/41').json;
  t.is(fork.head.repo.full_name, 'carol/widgets');
  t.is(fork.head.label, 'carol:docs-typo');
  t.deepEqual(send('GET', '/repos/acme/widgets/pulls').json.map((p: { number: number }) => p.number), [41, 40, 39]);
  t.deepEqual(send('GET', '/repos/acme/widgets/pulls?head=carol:docs-typo').json.map((p: { number: number }) => p.number), [41]);
  t.deepEqual(send('GET', '/repos/acme/widgets/pulls?base=release/1.0').json, []);
  t.deepEqual(send('GET', '/repos/acme/widgets/pulls?sort=created&direction=asc').json.map((p: { number: number }) => p.number), [39, 40, 41]);
  t.is(send('GET', '/repos/acme/widgets/pulls/1').status, 404, 'issue 1 is not a pull request');
  t.is(send('GET', '/repos/acme/widgets/issues/39').json.pull_request.url, 'https://api.github.com/repos/acme/widgets/pulls/39');
  t.deepEqual(invalidEntries(send.entries), []);
});

test('files and commits: a unified patch per file, counts that add up', async (t) => {
  const send = sender(await exampleWorld());
  const files = send('GET', '/repos/acme/widgets/pulls/40/files').json;
  t.deepEqual(files.map((f: { filename: string; status: string }) => `${f.status}:${f.filename}`), ['modified:src/util/format.ts', 'modified:test/widget.test.ts']);
  const format = files[0];
  t.is(format.patch, [
    '@@ -1,4 +1,5 @@',
    ' export function formatNumber(n: number): string {',
    '   const digits = String(Math.abs(n));',
    "-  return digits.replace(/\\B(?=(\\d{3})+(?!\\d))/g, ',');",
    "+  const grouped = digits.replace(/\\B(?=(\\d{3})+(?!\\d))/g, ',');",
    '+  return n < 0 ? `-${grouped}` : grouped;',
    ' }',
  ].join('\n'));
  t.is(format.additions, 2);
  t.is(format.deletions, 1);
  t.is(format.changes, 3);
  const commits = send('GET', '/repos/acme/widgets/pulls/39/commits').json;
  t.deepEqual(commits.map((c: { commit: { message: string } }) => c.commit.message), ['Add color module', 'Render widgets in color']);
  t.deepEqual(invalidEntries(send.entries), []);
});

test('create: from a new branch; 422 for a missing field, an unknown head, no commits, a duplicate', async (t) => {
  const send = sender(await exampleWorld(), TOKENS.bob);
  const main = send('GET', '/repos/acme/widgets/git/ref/heads/main').json.object.sha;
  send('POST', '/repos/acme/widgets/git/refs', { ref: 'refs/heads/docs/faq', sha: main });
  const noCommits = send('POST', '/repos/acme/widgets/pulls', { title: 'FAQ', head: 'docs/faq', base: 'main' });
  t.deepEqual(noCommits.json.errors, [{ resource: 'PullRequest', code: 'custom', message: 'No commits between main and docs/faq' }]);
  send('PUT', '/repos/acme/widgets/contents/FAQ.md', { message: 'Add FAQ', content: b64('# FAQ\n'), branch: 'docs/faq' });
  const made = send('POST', '/repos/acme/widgets/pulls', { title: 'Add a FAQ', head: 'docs/faq', base: 'main', body: 'Closes #10', draft: true });
  t.is(made.status, 201);
  t.is(made.json.number, 42);
  t.is(made.json.draft, true);
  t.is(made.json.mergeable_state, 'draft');
  t.is(made.json.user.login, 'bob');
  t.is(made.header('Location'), 'https://api.github.com/repos/acme/widgets/pulls/42');
  const duplicate = send('POST', '/repos/acme/widgets/pulls', { title: 'Again', head: 'acme:docs/faq', base: 'main' });
  t.deepEqual(duplicate.json.errors, [{ resource: 'PullRequest', code: 'custom', message: 'A pull request already exists for acme:docs/faq.' }]);
  t.deepEqual(send('POST', '/repos/acme/widgets/pulls', { title: 'x', base: 'main' }).json.errors, [{ resource: 'PullRequest', code: 'missing_field', field: 'head' }]);
  t.deepEqual(send('POST', '/repos/acme/widgets/pulls', { title: 'x', head: 'nope', base: 'main' }).json.errors, [{ resource: 'PullRequest', field: 'head', code: 'invalid' }]);
  t.deepEqual(send('POST', '/repos/acme/widgets/pulls', { title: 'x', head: 'docs/faq', base: 'nope' }).json.errors, [{ resource: 'PullRequest', field: 'base', code: 'invalid' }]);
  t.is(send('GET', '/repos/acme/widgets/pulls/42').json.head.sha, send('GET', '/repos/acme/widgets/git/ref/heads/docs/faq').json.object.sha);
  t.is(send('PATCH', '/repos/acme/widgets/pulls/42', { title: 'Add an FAQ', body: 'Updated' }).json.title, 'Add an FAQ');
  t.deepEqual(invalidEntries(send.entries), []);
});

test('merge: a merge commit with both parents; the PR and referenced issues close; merging again is 405', async (t) => {
  const send = sender(await exampleWorld());
  const before = send('GET', '/repos/acme/widgets/pulls/41').json;
  const stale = send('PUT', '/repos/acme/widgets/pulls/41/merge', { sha: before.base.sha });
  t.is(stale.status, 409);
  t.is(stale.json.message, 'Head branch was modified. Review and try the merge again.');
  t.is(send('PUT', '/repos/acme/widgets/pulls/41/merge', {}, { token: TOKENS.carol }).status, 404, 'no push access to the base');
  const merged = send('PUT', '/repos/acme/widgets/pulls/41/merge', { sha: before.head.sha });
  t.is(merged.status, 200);
  t.deepEqual(Object.keys(merged.json), ['sha', 'merged', 'message']);
  t.is(merged.json.message, 'Pull Request successfully merged');
  const commit = send('GET', `/repos/acme/widgets/git/commits/${merged.json.sha}`).json;
  t.deepEqual(commit.parents.map((p: { sha: string }) => p.sha), [before.base.sha, before.head.sha]);
  t.is(commit.message, 'Merge pull request #41 from carol/docs-typo\n\nFix typo in CONTRIBUTING.md');
  t.deepEqual(commit.committer.name, 'GitHub');
  t.is(send('GET', '/repos/acme/widgets/git/ref/heads/main').json.object.sha, merged.json.sha);
  const after = send('GET', '/repos/acme/widgets/pulls/41').json;
  t.is(after.state, 'closed');
  t.is(after.merged, true);
  t.is(after.merged_by.login, 'alice');
  t.is(after.merge_commit_sha, merged.json.sha);
  t.is(after.head.sha, before.head.sha, 'frozen once merged');
  t.is(send('GET', '/repos/acme/widgets/pulls/41/merge').status, 204);
  t.is(send('GET', '/repos/acme/widgets/issues/14').json.state, 'closed', '"Closes #14" closed the issue');
  const again = send('PUT', '/repos/acme/widgets/pulls/41/merge', {});
  t.is(again.status, 405);
  t.is(again.json.message, 'Pull Request is not mergeable');
  t.is(send('PATCH', '/repos/acme/widgets/pulls/41', { state: 'open' }).status, 422, 'a merged pull request cannot be reopened');
  const contributing = send('GET', '/repos/acme/widgets/contents/CONTRIBUTING.md').json;
  t.true(Buffer.from(contributing.content, 'base64').toString().includes('Keep each pull request small'));
  t.deepEqual(invalidEntries(send.entries), []);
});

test('squash and rebase merges; a conflicting pull request is not mergeable', async (t) => {
  const send = sender(await exampleWorld());
  const base = send('GET', '/repos/acme/widgets/git/ref/heads/main').json.object.sha;
  const squash = send('PUT', '/repos/acme/widgets/pulls/39/merge', { merge_method: 'squash' });
  t.is(squash.status, 200);
  const squashed = send('GET', `/repos/acme/widgets/git/commits/${squash.json.sha}`).json;
  t.deepEqual(squashed.parents.map((p: { sha: string }) => p.sha), [base]);
  t.is(squashed.message, 'Add color support to widgets (#39)\n\n* Add color module\n\n* Render widgets in color');
  t.is(squashed.author.email, 'bob@acme.dev', 'the pull request author');
  const rebase = send('PUT', '/repos/acme/widgets/pulls/40/merge', { merge_method: 'rebase' });
  t.is(rebase.status, 200);
  const log = send('GET', '/repos/acme/widgets/commits?per_page=2').json;
  t.deepEqual(log.map((c: { commit: { message: string } }) => c.commit.message.split('\n')[0]), ['Keep the sign of negative numbers', 'Add color support to widgets (#39)']);
  t.is(send('GET', '/repos/acme/widgets/issues/4').json.state, 'closed', '"Fixes #4" closed #4');
  // Two branches that change the same file differently conflict.
  const main = send('GET', '/repos/acme/widgets/git/ref/heads/main').json.object.sha;
  for (const [branch, text] of [['left', 'left\n'], ['right', 'right\n']] as const) {
    send('POST', '/repos/acme/widgets/git/refs', { ref: `refs/heads/${branch}`, sha: main });
    const readme = send('GET', `/repos/acme/widgets/contents/README.md?ref=${branch}`).json.sha;
    send('PUT', '/repos/acme/widgets/contents/README.md', { message: branch, content: b64(text), sha: readme, branch });
  }
  const left = send('POST', '/repos/acme/widgets/pulls', { title: 'Left', head: 'left', base: 'main' }).json.number;
  const right = send('POST', '/repos/acme/widgets/pulls', { title: 'Right', head: 'right', base: 'main' }).json.number;
  t.is(send('PUT', `/repos/acme/widgets/pulls/${left}/merge`, {}).status, 200);
  const conflicted = send('GET', `/repos/acme/widgets/pulls/${right}`).json;
  t.is(conflicted.mergeable, false);
  t.is(conflicted.mergeable_state, 'dirty');
  t.is(send('PUT', `/repos/acme/widgets/pulls/${right}/merge`, {}).status, 405);
  t.is(send('PUT', `/repos/acme/widgets/pulls/${right}/update-branch`, {}).json.message, 'merge conflict between base and head');
  t.deepEqual(invalidEntries(send.entries), []);
});

test('update-branch merges the base into the head; expected_head_sha guards it', async (t) => {
  const send = sender(await exampleWorld());
  t.is(send('PUT', '/repos/acme/widgets/pulls/40/merge', {}).status, 200);
  const head = send('GET', '/repos/acme/widgets/pulls/39').json.head.sha;
  t.is(send('PUT', '/repos/acme/widgets/pulls/39/update-branch', { expected_head_sha: '0'.repeat(40) }).status, 422);
  const updated = send('PUT', '/repos/acme/widgets/pulls/39/update-branch', { expected_head_sha: head });
  t.is(updated.status, 202);
  t.deepEqual(updated.json, { message: 'Updating pull request branch.', url: 'https://github.com/acme/widgets/pull/39' });
  const pr = send('GET', '/repos/acme/widgets/pulls/39').json;
  t.not(pr.head.sha, head);
  const merge = send('GET', `/repos/acme/widgets/git/commits/${pr.head.sha}`).json;
  t.is(merge.message, "Merge branch 'main' into feature/color-support");
  t.is(send('PUT', '/repos/acme/widgets/pulls/39/update-branch', {}).json.message, 'There are no new commits on the base branch.');
  const fork = send('PUT', '/repos/acme/widgets/pulls/41/update-branch', {}, { token: TOKENS.carol });
  t.is(fork.status, 202, 'carol may update the branch of her fork');
  t.is(send('GET', '/repos/carol/widgets/git/ref/heads/docs-typo').json.object.sha, send('GET', '/repos/acme/widgets/pulls/41').json.head.sha);
  t.is(send('PUT', '/repos/acme/widgets/pulls/41/update-branch', {}, { token: TOKENS.bob }).status, 403, 'bob may not: maintainers cannot modify it');
  t.deepEqual(invalidEntries(send.entries), []);
});

test('reviews: approve, request changes, comment with inline comments; own pull request rules', async (t) => {
  const send = sender(await exampleWorld());
  const own = send('POST', '/repos/acme/widgets/pulls/40/reviews', { event: 'APPROVE' }, { token: TOKENS.bob });
  t.is(own.status, 422);
  t.deepEqual(own.json.errors, ['Review Can not approve your own pull request']);
  const approve = send('POST', '/repos/acme/widgets/pulls/40/reviews', { event: 'APPROVE', body: 'Ship it' });
  t.is(approve.status, 200);
  t.is(approve.json.state, 'APPROVED');
  t.is(approve.json.submitted_at, '2025-03-03T09:00:02Z');
  const inline = send('POST', '/repos/acme/widgets/pulls/40/reviews', {
    event: 'REQUEST_CHANGES', body: 'A couple of things',
    comments: [{ path: 'src/util/format.ts', line: 4, body: 'Prefer Math.sign?' }, { path: 'test/widget.test.ts', position: 3, body: 'Nice test' }],
  }, { token: TOKENS.carol });
  t.is(inline.status, 200);
  t.is(inline.json.state, 'CHANGES_REQUESTED');
  const comments = send('GET', '/repos/acme/widgets/pulls/40/comments').json;
  t.is(comments.length, 2);
  t.is(comments[0].position, 5);
  t.is(comments[0].diff_hunk.split('\n').at(-1), '+  return n < 0 ? `-${grouped}` : grouped;');
  t.is(comments[0].pull_request_review_id, inline.json.id);
  t.deepEqual(send('POST', '/repos/acme/widgets/pulls/40/reviews', { event: 'COMMENT', comments: [{ path: 'nope.ts', line: 1, body: 'x' }] }).json.errors, ['Path could not be resolved']);
  t.deepEqual(send('POST', '/repos/acme/widgets/pulls/40/reviews', { event: 'COMMENT', comments: [{ path: 'src/util/format.ts', line: 40, body: 'x' }] }).json.errors,
    ['Pull request review thread line must be part of the diff']);
  t.is(send('POST', '/repos/acme/widgets/pulls/40/reviews', { event: 'REQUEST_CHANGES' }, { token: TOKENS.carol }).status, 422, 'a body is required');
  const pending = send('POST', '/repos/acme/widgets/pulls/40/reviews', { body: 'draft' }, { token: TOKENS.carol });
  t.is(pending.json.state, 'PENDING');
  t.false('submitted_at' in pending.json);
  t.deepEqual(send('GET', '/repos/acme/widgets/pulls/40/reviews').json.map((r: { state: string }) => r.state), ['APPROVED', 'CHANGES_REQUESTED'], 'pending reviews are private');
  t.is(send('GET', '/repos/acme/widgets/pulls/39/reviews').json[0].body, 'Looks good overall; one question inline.');
  t.deepEqual(invalidEntries(send.entries), []);
});

test('reviews: submitting a review answers the review request (the reviewer leaves requested_reviewers); a pending one does not', async (t) => {
  const requested = (send: ReturnType<typeof sender>) => send('GET', '/repos/acme/widgets/pulls/39').json.requested_reviewers.map((u: { login: string }) => u.login);
  const send = sender(await exampleWorld());
  t.deepEqual(requested(send), ['alice']);
  t.is(send('POST', '/repos/acme/widgets/pulls/39/reviews', { event: 'COMMENT', body: 'One question' }, { token: TOKENS.carol }).status, 200);
  t.deepEqual(requested(send), ['alice'], 'someone else reviewing changes nothing');
  t.is(send('POST', '/repos/acme/widgets/pulls/39/reviews', { event: 'REQUEST_CHANGES', body: 'Please add a test' }).status, 200);
  t.deepEqual(requested(send), []);
  t.deepEqual(invalidEntries(send.entries), []);

  const drafting = sender(await exampleWorld());
  t.is(drafting('POST', '/repos/acme/widgets/pulls/39/reviews', { body: 'draft' }).json.state, 'PENDING');
  t.deepEqual(requested(drafting), ['alice'], 'still requested while the review is pending');
});

test('statuses: create, list, combined state', async (t) => {
  const send = sender(await exampleWorld());
  const sha = send('GET', '/repos/acme/widgets/pulls/40').json.head.sha;
  const combined = send('GET', `/repos/acme/widgets/commits/${sha}/status`).json;
  t.is(combined.state, 'pending');
  t.is(combined.total_count, 1);
  t.is(send('POST', `/repos/acme/widgets/statuses/${sha}`, { state: 'success', context: 'ci/test' }).status, 201);
  t.is(send('POST', `/repos/acme/widgets/statuses/${sha}`, { state: 'failure', context: 'lint' }).status, 201);
  const now = send('GET', `/repos/acme/widgets/commits/${sha}/status`).json;
  t.is(now.state, 'failure');
  t.deepEqual(now.statuses.map((s: { context: string; state: string }) => `${s.context}=${s.state}`), ['ci/test=success', 'lint=failure']);
  t.is(send('GET', `/repos/acme/widgets/commits/${sha}/statuses`).json.length, 3);
  t.is(send('GET', '/repos/acme/widgets/commits/feature/color-support/status').json.state, 'success');
  t.is(send('POST', `/repos/acme/widgets/statuses/${sha}`, { state: 'great' }).status, 422);
  t.deepEqual(invalidEntries(send.entries), []);
});

test('deleting the head branch of an open pull request closes it, keeping its last head', async (t) => {
  const send = sender(await exampleWorld());
  const head = send('GET', '/repos/acme/widgets/pulls/40').json.head.sha;
  t.is(send('DELETE', '/repos/acme/widgets/git/refs/heads/fix/format-negative').status, 204);
  const pr = send('GET', '/repos/acme/widgets/pulls/40').json;
  t.is(pr.state, 'closed');
  t.false(pr.merged);
  t.is(pr.head.sha, head);
  t.is(pr.mergeable, null);
  t.deepEqual(invalidEntries(send.entries), []);
});
