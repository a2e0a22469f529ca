import test from 'ava';
import { execFileSync } from 'node:child_process';
import { githubService } from '../mocks/github/index.js';
import { blobText, githubViews, githubVolatile, type BranchView, type FileView, type PullRequestView } from '../mocks/github/views.js';
import { gradeState, volatileProblems } from '../scenarios/grade/state.js';
import { TOKENS, customWorld, exampleWorld, sender } from './helpers/github-requests.js';

/** The graders' view of GitHub: files and branches from git objects, pull requests whole, volatile fields. */
type Docs<T> = Record<string, T>;
const views = (world: Awaited<ReturnType<typeof exampleWorld>>, when: 'now' | 'initial' = 'now') => {
  const state = world.gradingState(when).github!;
  return { files: state.files as Docs<FileView>, branches: state.branches as Docs<BranchView>, pulls: state.pull_requests as Docs<PullRequestView>, state };
};
const b64 = (text: string) => Buffer.from(text).toString('base64');

test('files: one document per file per branch, keyed owner/repo@branch:path, with git\'s blob SHA and the text', async (t) => {
  const { files } = views(await exampleWorld());
  const readme = files['acme/widgets@main:README.md']!;
  t.like(readme, { repo: 'acme/widgets', branch: 'main', path: 'README.md', mode: '100644' });
  t.true(readme.content!.startsWith('# widgets\n'));
  t.is(readme.size, Buffer.byteLength(readme.content!));
  t.is(readme.sha, execFileSync('git', ['hash-object', '--stdin'], { input: readme.content! }).toString().trim());
  // A file only on a feature branch, nested paths, the same file on two branches sharing a blob.
  t.truthy(files['acme/widgets@feature/color-support:src/color.ts']);
  t.falsy(files['acme/widgets@main:src/color.ts']);
  t.truthy(files['acme/widgets@main:src/util/format.ts']);
  t.is(files['acme/widgets@release/1.0:README.md']!.sha, readme.sha);
  t.not(files['acme/widgets@fix/format-negative:src/util/format.ts']!.sha, files['acme/widgets@main:src/util/format.ts']!.sha);
  // Private repositories, default branches other than main, forks.
  t.truthy(files['acme/infra@main:modules/network/main.tf']);
  t.truthy(files['alice/dotfiles@master:.bashrc']);
  t.is(files['alice/dotfiles@master:install.sh']!.mode, '100755');
  t.truthy(files['carol/widgets@docs-typo:CONTRIBUTING.md']);
  t.true(Object.values(files).every((f) => f.path !== '' && !f.path.endsWith('/')), 'blobs only, no trees');
});

test('files: binary content is null; text is decoded once per blob', (t) => {
  t.is(blobText(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00])), null);
  t.is(blobText(new Uint8Array([0xff, 0xfe, 0x41])), null, 'invalid UTF-8');
  t.is(blobText(new TextEncoder().encode('Olá, ☃\n')), 'Olá, ☃\n');
  const world = customWorld({
    users: [{ login: 'dana', tokens: ['ghp_dana'] }],
    repos: [{ owner: 'dana', name: 'site', commits: [{ branch: 'main', message: 'Add assets', files: {
      'index.html': '<h1>Hi</h1>\n', 'logo.png': { base64: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==' },
    } }] }],
  });
  const files = world.gradingState().github!.files as Docs<FileView>;
  t.like(files['dana/site@main:logo.png'], { content: null, size: 70 });
  t.is(files['dana/site@main:index.html']!.content, '<h1>Hi</h1>\n');
});

test('branches: head commit, message and author, the default flagged', async (t) => {
  const { branches } = views(await exampleWorld());
  t.like(branches['acme/widgets@main'], { repo: 'acme/widgets', branch: 'main', default: true });
  t.like(branches['acme/widgets@feature/color-support'], { default: false });
  t.like(branches['alice/dotfiles@master'], { default: true });
  t.is(typeof branches['acme/widgets@main']!.message, 'string');
  t.is(branches['acme/widgets@release/1.0']!.sha, branches['acme/widgets@main']!.sha, 'a branch without commits of its own');
  t.deepEqual(Object.keys(branches).filter((k) => k.startsWith('acme/widgets@')).sort(),
    ['acme/widgets@feature/color-support', 'acme/widgets@fix/format-negative', 'acme/widgets@main', 'acme/widgets@release/1.0']);
});

test('views follow writes: a commit on a branch, a new branch, a deleted branch; the initial state is untouched', async (t) => {
  const world = await exampleWorld();
  const send = sender(world);
  const readme = send('GET', '/repos/acme/widgets/contents/README.md').json;
  t.is(send('PUT', '/repos/acme/widgets/contents/README.md', { message: 'Shorter README', content: b64('# widgets\n'), sha: readme.sha }).status, 200);
  const main = send('GET', '/repos/acme/widgets/git/ref/heads/main').json.object.sha;
  t.is(send('POST', '/repos/acme/widgets/git/refs', { ref: 'refs/heads/docs/new', sha: main }).status, 201);
  t.is(send('DELETE', '/repos/acme/widgets/git/refs/heads/release/1.0').status, 204);
  const now = views(world);
  t.is(now.files['acme/widgets@main:README.md']!.content, '# widgets\n');
  t.like(now.branches['acme/widgets@main'], { sha: main, message: 'Shorter README', author: 'Alice Chen' });
  t.is(now.files['acme/widgets@docs/new:README.md']!.content, '# widgets\n');
  t.falsy(now.branches['acme/widgets@release/1.0']);
  t.falsy(now.files['acme/widgets@release/1.0:README.md']);
  const before = views(world, 'initial');
  t.true(before.files['acme/widgets@main:README.md']!.content!.startsWith('# widgets\n\nSmall'));
  t.truthy(before.branches['acme/widgets@release/1.0']);
});

test('pull_requests: the issue half and the git half together; live SHAs while open, frozen when merged', async (t) => {
  const world = await exampleWorld();
  const send = sender(world);
  const before = views(world).pulls;
  t.like(before['acme/widgets#39'], { repo: 'acme/widgets', number: 39, state: 'open', merged: false, base: 'main', head_repo: 'acme/widgets' });
  t.like(before['acme/widgets#41'], { head_repo: 'carol/widgets', head: 'docs-typo' });
  t.false('acme/widgets#1' in before, 'plain issues are not pull requests');
  const pull = send('GET', '/repos/acme/widgets/pulls/40').json;
  t.is(before['acme/widgets#40']!.head_sha, pull.head.sha);
  const merged = send('PUT', '/repos/acme/widgets/pulls/40/merge', { merge_method: 'squash' });
  t.is(merged.status, 200, merged.text);
  const after = views(world).pulls['acme/widgets#40']!;
  t.like(after, { state: 'closed', merged: true, merged_by: 'alice', merge_commit_sha: merged.json.sha, head_sha: pull.head.sha });
  t.is(views(world).branches['acme/widgets@main']!.sha, merged.json.sha);
});

test('volatile: every listed field exists in the documents of its collection', async (t) => {
  const world = await exampleWorld();
  const send = sender(world);
  // Put a document into every collection the example starts without.
  send('POST', '/repos/acme/widgets/pulls/39/reviews', { event: 'COMMENT', body: 'Looks fine', comments: [] });
  send('POST', '/repos/acme/widgets/statuses/' + send('GET', '/repos/acme/widgets/git/ref/heads/main').json.object.sha, { state: 'success', context: 'ci' });
  const state = world.gradingState() as { github: Record<string, Record<string, unknown>> };
  const volatile = { github: githubService.volatile as Record<string, '*' | readonly string[]> };
  t.deepEqual(volatileProblems(volatile, [state], { strict: true }).filter((p) => !p.includes('review_comments') && !p.includes('milestones')), []);
  for (const [collection, fields] of Object.entries(githubVolatile)) {
    const docs = Object.values(state.github[collection] ?? {}) as Record<string, unknown>[];
    if (fields === '*') {
      t.true(collection in state.github, `${collection} is a collection`);
      continue;
    }
    for (const doc of docs) for (const field of fields) t.true(field in doc, `${collection}.${field}`);
  }
});

test('volatile: a comment and a merge leave no unintended change beyond what they target', async (t) => {
  const world = await exampleWorld();
  const send = sender(world);
  send('POST', '/repos/acme/widgets/issues/3/comments', { body: 'Still happening on 1.0.2.' });
  send('PUT', '/repos/acme/widgets/pulls/40/merge', {});
  const volatile = { github: githubService.volatile as Record<string, '*' | readonly string[]> };
  const graded = gradeState([
    { service: 'github', collection: 'comments', where: { repo: 'acme/widgets', issue: 3, user: 'alice' }, fields: {}, absent: false, description: '' },
    { service: 'github', collection: 'pulls', where: { repo: 'acme/widgets', number: 40 }, fields: { merged: true, merged_by: 'alice' }, absent: false, description: '' },
    { service: 'github', collection: 'issues', where: { repo: 'acme/widgets', number: 40 }, fields: { state: 'closed', closed_by: 'alice' }, absent: false, description: '' },
    // Merging #40 (`Fixes #4`) closes #4 and brings two files to main.
    { service: 'github', collection: 'issues', where: { repo: 'acme/widgets', number: 4 }, fields: { state: 'closed', state_reason: 'completed', closed_by: 'alice' }, absent: false, description: '' },
    { service: 'github', collection: 'files', where: { repo: 'acme/widgets', branch: 'main', path: { $in: ['src/util/format.ts', 'test/widget.test.ts'] } }, fields: { content: { $regex: 'n < 0|negative' }, sha: { $exists: true }, size: { $gte: 1 } }, absent: false, description: '' },
  ], world.gradingState('initial'), world.gradingState(), volatile);
  t.true(graded.state_ok, JSON.stringify(graded.checks.filter((c) => !c.ok)));
  t.deepEqual(graded.unintended, []);
  t.is(graded.r_b, 0);
  // The same changes, graded without the expectations, are all unintended (the diff sees them).
  const blind = gradeState([], world.gradingState('initial'), world.gradingState(), volatile);
  t.true(blind.unintended.some((u) => u.startsWith('github/comments/')), blind.unintended.join('\n'));
  t.true(blind.unintended.some((u) => u.startsWith('github/files/acme/widgets@main:')), 'the merged files changed main');
  t.false(blind.unintended.some((u) => /updated_at|pushed_at|closed_at|github\/objects|github\/refs|rate_limits/.test(u)), blind.unintended.join('\n'));
});

// How fast views are is a benchmark's question (npm run bench), not a test's: a timed assertion
// fails on a loaded machine, and grading now loads every service's baseline.
test('views are pure: the same store gives the same documents, in the same order', async (t) => {
  const world = await exampleWorld();
  sender(world)('GET', '/repos/acme/widgets', undefined, { token: TOKENS.bob });
  const store = world.gradingState();
  const again = world.gradingState();
  t.deepEqual(again.github!.files, store.github!.files);
  t.deepEqual(JSON.stringify(again.github!.branches), JSON.stringify(store.github!.branches), 'same order too');
  t.is(typeof githubViews, 'function');
});
