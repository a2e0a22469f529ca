import { createHash } from 'node:crypto';
import test from 'ava';
import { invalidEntries } from './helpers/github-openapi.js';
import { TOKENS, customWorld, exampleWorld, sender } from './helpers/github-requests.js';

/** Git data, contents, branches and commits: real object IDs and GitHub's rules for writes. */
const gitSha = (type: string, content: string | Buffer) => {
  const bytes = Buffer.isBuffer(content) ? content : Buffer.from(content);
  return createHash('sha1').update(`${type} ${bytes.length}\0`).update(bytes).digest('hex');
};
const b64 = (text: string) => Buffer.from(text).toString('base64');

test('file contents: base64 of the bytes, with the blob SHA git would compute', async (t) => {
  const send = sender(await exampleWorld());
  const readme = send('GET', '/repos/acme/widgets/contents/README.md');
  t.is(readme.status, 200);
  const text = Buffer.from(readme.json.content, 'base64').toString('utf8');
  t.true(text.startsWith('# widgets\n'));
  t.is(readme.json.sha, gitSha('blob', text));
  t.is(readme.json.encoding, 'base64');
  t.regex(readme.json.content, /^([A-Za-z0-9+/=]{60}\n)*[A-Za-z0-9+/=]{1,60}\n$/, 'wrapped at 60 columns');
  t.is(readme.json.download_url, 'https://raw.githubusercontent.com/acme/widgets/main/README.md');
  t.is(readme.json.url, 'https://api.github.com/repos/acme/widgets/contents/README.md?ref=main');
  const raw = send('GET', '/repos/acme/widgets/contents/README.md', undefined, { headers: [['Accept', 'application/vnd.github.raw']] });
  t.is(raw.text, text);
  t.is(raw.header('X-GitHub-Media-Type'), 'github.v3; param=raw');
  t.is(send('GET', '/repos/alice/dotfiles/contents/install.sh').json.name, 'install.sh');
  t.deepEqual(invalidEntries(send.entries), []);
});

test('directories list files and dirs in git order; refs pick branches and commits', async (t) => {
  const send = sender(await exampleWorld());
  const root = send('GET', '/repos/acme/widgets/contents/');
  t.deepEqual(root.json.map((e: { name: string; type: string }) => `${e.type}:${e.name}`),
    ['file:.gitignore', 'file:CONTRIBUTING.md', 'file:LICENSE', 'file:README.md', 'file:package.json', 'dir:src', 'dir:test']);
  const src = send('GET', '/repos/acme/widgets/contents/src?ref=feature/color-support');
  t.deepEqual(src.json.map((e: { path: string }) => e.path), ['src/color.ts', 'src/index.ts', 'src/util', 'src/widget.ts']);
  t.is(src.json.find((e: { type: string }) => e.type === 'dir').download_url, null);
  t.is(send('GET', '/repos/acme/widgets/contents/src/color.ts').status, 404, 'not on main');
  const missingRef = send('GET', '/repos/acme/widgets/contents/README.md?ref=nope');
  t.is(missingRef.status, 404);
  t.is(missingRef.json.message, 'No commit found for the ref nope');
  const head = send('GET', '/repos/acme/widgets/git/ref/heads/main').json.object.sha;
  t.is(send('GET', `/repos/acme/widgets/contents/LICENSE?ref=${head}`).status, 200);
  t.is(send('GET', `/repos/acme/widgets/contents/LICENSE?ref=${head.slice(0, 7)}`).status, 200, 'abbreviated SHAs resolve');
  t.is(send('GET', '/repos/acme/widgets/readme').json.path, 'README.md');
  t.deepEqual(invalidEntries(send.entries), []);
});

test('PUT contents: 201 creates, an update needs the current sha (422 without, 409 when stale), 200 updates', async (t) => {
  const send = sender(await exampleWorld());
  const made = send('PUT', '/repos/acme/widgets/contents/docs/guide.md', { message: 'Add a guide', content: b64('# Guide\n') });
  t.is(made.status, 201);
  t.is(made.json.content.path, 'docs/guide.md');
  t.is(made.json.content.sha, gitSha('blob', '# Guide\n'));
  t.is(made.json.commit.message, 'Add a guide');
  t.deepEqual(made.json.commit.author, { name: 'Alice Chen', email: 'alice@acme.dev', date: '2025-03-03T09:00:01Z' });
  const noSha = send('PUT', '/repos/acme/widgets/contents/docs/guide.md', { message: 'Edit', content: b64('v2\n') });
  t.is(noSha.status, 422);
  t.is(noSha.json.message, 'Invalid request.\n\n"sha" wasn\'t supplied.');
  const stale = send('PUT', '/repos/acme/widgets/contents/docs/guide.md', { message: 'Edit', content: b64('v2\n'), sha: gitSha('blob', 'old') });
  t.is(stale.status, 409);
  t.is(stale.json.message, `docs/guide.md does not match ${gitSha('blob', 'old')}`);
  const updated = send('PUT', '/repos/acme/widgets/contents/docs/guide.md', { message: 'Edit', content: b64('v2\n'), sha: made.json.content.sha });
  t.is(updated.status, 200);
  t.deepEqual(updated.json.commit.parents.map((p: { sha: string }) => p.sha), [made.json.commit.sha]);
  t.is(Buffer.from(send('GET', '/repos/acme/widgets/contents/docs/guide.md').json.content, 'base64').toString(), 'v2\n');
  t.is(send('PUT', '/repos/acme/widgets/contents/x.md', { message: 'x', content: b64('x'), branch: 'nope' }).status, 404);
  t.is(send('PUT', '/repos/acme/widgets/contents/x.md', { content: b64('x') }).status, 422, 'message is required');
  t.is(send('PUT', '/repos/acme/widgets/contents/x.md', { message: 'x', content: '%%%' }).json.message, 'content is not valid Base64');
  t.is(send('PUT', '/repos/acme/widgets/contents/x.md', { message: 'x', content: b64('x') }, { token: TOKENS.carol }).status, 404, 'no push access');
  const deleted = send('DELETE', '/repos/acme/widgets/contents/docs/guide.md', { message: 'Remove', sha: gitSha('blob', 'v2\n') });
  t.is(deleted.status, 200);
  t.is(deleted.json.content, null);
  t.is(send('GET', '/repos/acme/widgets/contents/docs').status, 404, 'empty directories disappear');
  t.deepEqual(invalidEntries(send.entries), []);
});

test('commits and trees hash like git: a commit written through the API has the SHA git would give it', async (t) => {
  const send = sender(await exampleWorld());
  const blob = send('POST', '/repos/acme/widgets/git/blobs', { content: 'hello\n' });
  t.is(blob.status, 201);
  t.is(blob.json.sha, 'ce013625030ba8dba906f756967f9e9ca394464a', 'git hash-object of "hello\\n"');
  const tree = send('POST', '/repos/acme/widgets/git/trees', { tree: [{ path: 'hello.txt', mode: '100644', type: 'blob', sha: blob.json.sha }] });
  t.is(tree.status, 201);
  const entry = Buffer.concat([Buffer.from('100644 hello.txt\0'), Buffer.from(blob.json.sha, 'hex')]);
  t.is(tree.json.sha, gitSha('tree', entry));
  const person = { name: 'Alice Chen', email: 'alice@acme.dev', date: '2025-01-01T00:00:00Z' };
  const commit = send('POST', '/repos/acme/widgets/git/commits', { message: 'Hello', tree: tree.json.sha, parents: [], author: person, committer: person });
  t.is(commit.status, 201);
  const raw = `tree ${tree.json.sha}\nauthor Alice Chen <alice@acme.dev> 1735689600 +0000\ncommitter Alice Chen <alice@acme.dev> 1735689600 +0000\n\nHello`;
  t.is(commit.json.sha, gitSha('commit', raw));
  t.is(send('GET', `/repos/acme/widgets/git/commits/${commit.json.sha}`).json.message, 'Hello');
  t.is(send('GET', `/repos/acme/widgets/git/blobs/${blob.json.sha}`).json.content, 'aGVsbG8K\n');
  t.is(send('POST', '/repos/acme/widgets/git/commits', { message: 'x', tree: '0'.repeat(40) }).json.message, 'Tree SHA does not exist');
  t.deepEqual(invalidEntries(send.entries), []);
});

test('refs: the MCP server\'s main/master lookup, create, fast-forward rules, prefix listing', async (t) => {
  const send = sender(await exampleWorld());
  const main = send('GET', '/repos/acme/widgets/git/refs/heads/main');
  t.is(main.json.ref, 'refs/heads/main');
  t.is(main.json.object.type, 'commit');
  t.is(send('GET', '/repos/alice/dotfiles/git/refs/heads/main').status, 404);
  t.is(send('GET', '/repos/alice/dotfiles/git/refs/heads/master').status, 200);
  const prefix = send('GET', '/repos/acme/widgets/git/refs/heads/f');
  t.deepEqual(prefix.json.map((r: { ref: string }) => r.ref), ['refs/heads/feature/color-support', 'refs/heads/fix/format-negative']);
  t.is(send('GET', '/repos/acme/widgets/git/matching-refs/heads/release').json.length, 1);
  const sha = main.json.object.sha;
  const made = send('POST', '/repos/acme/widgets/git/refs', { ref: 'refs/heads/topic', sha });
  t.is(made.status, 201);
  t.is(made.json.url, 'https://api.github.com/repos/acme/widgets/git/refs/heads/topic');
  t.is(send('POST', '/repos/acme/widgets/git/refs', { ref: 'refs/heads/topic', sha }).json.message, 'Reference already exists');
  t.is(send('POST', '/repos/acme/widgets/git/refs', { ref: 'refs/heads/other', sha: 'f'.repeat(40) }).json.message, 'Object does not exist');
  t.is(send('POST', '/repos/acme/widgets/git/refs', { ref: 'refs/heads/other' }).json.message, 'Invalid request.\n\n"sha" wasn\'t supplied.');
  const feature = send('GET', '/repos/acme/widgets/git/ref/heads/feature/color-support').json.object.sha;
  t.is(send('PATCH', '/repos/acme/widgets/git/refs/heads/topic', { sha: feature }).status, 200, 'fast-forward');
  const fix = send('GET', '/repos/acme/widgets/git/ref/heads/fix/format-negative').json.object.sha;
  const nonFf = send('PATCH', '/repos/acme/widgets/git/refs/heads/topic', { sha: fix });
  t.is(nonFf.status, 422);
  t.is(nonFf.json.message, 'Update is not a fast forward');
  t.is(send('PATCH', '/repos/acme/widgets/git/refs/heads/topic', { sha: fix, force: true }).json.object.sha, fix);
  t.is(send('PATCH', '/repos/acme/widgets/git/refs/heads/nope', { sha: fix }).json.message, 'Reference does not exist');
  t.is(send('DELETE', '/repos/acme/widgets/git/refs/heads/topic').status, 204);
  t.is(send('GET', '/repos/acme/widgets/git/ref/heads/topic').status, 404);
  t.deepEqual(invalidEntries(send.entries), []);
});

test('push_files flow: tree on a base commit, commit, ref update; branches and commit history follow', async (t) => {
  const send = sender(await exampleWorld());
  const base = send('GET', '/repos/acme/widgets/git/refs/heads/main').json.object.sha;
  const tree = send('POST', '/repos/acme/widgets/git/trees', {
    base_tree: base, tree: [{ path: 'src/extra.ts', mode: '100644', type: 'blob', content: 'export const extra = 1;\n' }, { path: 'README.md', mode: '100644', type: 'blob', content: '# widgets v2\n' }],
  });
  const commit = send('POST', '/repos/acme/widgets/git/commits', { message: 'Push two files', tree: tree.json.sha, parents: [base] });
  t.is(send('PATCH', '/repos/acme/widgets/git/refs/heads/main', { sha: commit.json.sha, force: true }).status, 200);
  const readme = send('GET', '/repos/acme/widgets/contents/README.md');
  t.is(Buffer.from(readme.json.content, 'base64').toString(), '# widgets v2\n');
  t.is(send('GET', '/repos/acme/widgets/contents/LICENSE').status, 200, 'base_tree kept the other files');
  const log = send('GET', '/repos/acme/widgets/commits?per_page=2');
  t.deepEqual(log.json.map((c: { commit: { message: string } }) => c.commit.message), ['Push two files', 'Document contributing']);
  t.is(log.json[0].author.login, 'alice', 'commit authors map to users by email');
  t.regex(log.header('Link')!, /rel="next"/);
  const one = send('GET', `/repos/acme/widgets/commits/${commit.json.sha}`);
  t.deepEqual(one.json.files.map((f: { filename: string; status: string }) => `${f.status}:${f.filename}`), ['modified:README.md', 'added:src/extra.ts']);
  t.deepEqual(one.json.stats, { total: 20, additions: 2, deletions: 18 }, 'the README had 18 lines');
  t.is(send('GET', '/repos/acme/widgets/commits?path=src/util/format.ts').json.length, 1);
  t.is(send('GET', '/repos/acme/widgets/commits?sha=fix/format-negative&per_page=1').json[0].commit.message, 'Keep the sign of negative numbers');
  t.is(send('GET', '/repos/acme/widgets/commits?author=bob').json.length, 1);
  const branch = send('GET', '/repos/acme/widgets/branches/feature/color-support');
  t.is(branch.json.name, 'feature/color-support');
  t.is(branch.json.commit.commit.message, 'Render widgets in color');
  t.is(send('GET', '/repos/acme/widgets/branches/nope').json.message, 'Branch not found');
  t.deepEqual(send('GET', '/repos/acme/widgets/branches').json.map((b: { name: string }) => b.name),
    ['feature/color-support', 'fix/format-negative', 'main', 'release/1.0']);
  t.deepEqual(invalidEntries(send.entries), []);
});

test('an empty repository: git data is 409, contents is 404, the first PUT creates the branch', async (t) => {
  const send = sender(await exampleWorld());
  t.is(send('POST', '/user/repos', { name: 'empty', description: 'Nothing yet' }).status, 201);
  const ref = send('GET', '/repos/alice/empty/git/refs/heads/main');
  t.is(ref.status, 409);
  t.is(ref.json.message, 'Git Repository is empty.');
  t.is(send('GET', '/repos/alice/empty/contents/README.md').json.message, 'This repository is empty.');
  t.is(send('GET', '/repos/alice/empty/commits').status, 409);
  const first = send('PUT', '/repos/alice/empty/contents/README.md', { message: 'First', content: b64('hi\n') });
  t.is(first.status, 201);
  t.deepEqual(first.json.commit.parents, []);
  t.is(send('GET', '/repos/alice/empty/git/refs/heads/main').json.object.sha, first.json.commit.sha);
  const init = send('POST', '/user/repos', { name: 'seeded', auto_init: true });
  t.is(init.json.default_branch, 'main');
  t.is(Buffer.from(send('GET', '/repos/alice/seeded/contents/README.md').json.content, 'base64').toString(), '# seeded\n');
  t.is(send('POST', '/user/repos', { name: 'seeded' }).json.errors[0].message, 'name already exists on this account');
  t.is(send('POST', '/user/repos', {}).json.errors[0].code, 'missing_field');
  t.deepEqual(invalidEntries(send.entries), []);
});

test('forks copy branches, share objects and are found again; organization from the query string', async (t) => {
  const send = sender(await exampleWorld());
  const fork = send('POST', '/repos/acme/widgets/forks', undefined, { token: TOKENS.bob });
  t.is(fork.status, 202);
  t.is(fork.json.full_name, 'bob/widgets');
  t.true(fork.json.fork);
  t.is(fork.json.parent.full_name, 'acme/widgets');
  t.is(fork.json.source.full_name, 'acme/widgets');
  t.is(send('POST', '/repos/acme/widgets/forks', undefined, { token: TOKENS.bob }).json.id, fork.json.id, 'forking again returns the fork');
  t.is(send('GET', '/repos/bob/widgets/git/refs/heads/main').json.object.sha, send('GET', '/repos/acme/widgets/git/refs/heads/main').json.object.sha);
  const own = send('POST', '/repos/alice/dotfiles/forks');
  t.is(own.status, 422, 'not into the account that owns it');
  const intoOrg = send('POST', '/repos/alice/dotfiles/forks?organization=acme');
  t.is(intoOrg.json.full_name, 'acme/dotfiles');
  t.is(send('GET', '/repos/acme/widgets/forks').json.length, 2);
  t.deepEqual(invalidEntries(send.entries), []);
});

test('a dataset with bad references fails to load with the path of the mistake', (t) => {
  const error = t.throws(() => customWorld({
    users: [{ login: 'dana' }],
    repos: [{ owner: 'dana', name: 'r', commits: [{ branch: 'topic', from: 'main', message: 'x' }] }],
  }));
  t.regex(error!.message, /repos\[0\]\.commits\[0\]\.from: no branch main yet/);
  t.throws(() => customWorld({ repos: [{ owner: 'ghost2', name: 'r' }] }), { message: /repos\[0\]\.owner: no user or org ghost2/ });
});
