import test from 'ava';
import type { JournalEntry } from '../mocks/core/journal-format.js';
import { invalidEntries } from './helpers/github-openapi.js';
import { TOKENS, customWorld, exampleData, sender } from './helpers/github-requests.js';

/**
 * The world is a pure function of (dataset, seed, requests): two fresh worlds fed the same 500
 * mixed requests answer byte for byte the same; another seed changes the opaque IDs only.
 */
type Request = [method: string, target: string, body: unknown, token: string | null];

function mixedRequests(count: number): Request[] {
  let state = 2025;
  const random = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const n = () => 1 + Math.floor(random() * 45);
  const b64 = (text: string) => Buffer.from(text).toString('base64');
  const tokens = [TOKENS.alice, TOKENS.bob, TOKENS.carol, null];
  const makers: ((i: number) => Request)[] = [
    () => ['GET', `/repos/acme/widgets/issues?state=${pick(['open', 'closed', 'all'])}&page=${1 + Math.floor(random() * 3)}`, undefined, pick(tokens)],
    () => ['GET', `/repos/acme/widgets/issues/${n()}`, undefined, pick(tokens)],
    () => ['GET', `/repos/acme/widgets/issues/${n()}/comments`, undefined, pick(tokens)],
    () => ['GET', pick(['/repos/acme/widgets', '/repos/acme/infra', '/repos/alice/dotfiles', '/user', '/users/carol', '/orgs/acme']), undefined, pick(tokens)],
    () => ['GET', `/repos/acme/widgets/contents/${pick(['README.md', 'src', 'src/widget.ts', 'docs', ''])}`, undefined, pick(tokens)],
    () => ['GET', `/repos/acme/widgets/pulls/${pick([39, 40, 41, 42, 43])}`, undefined, pick(tokens)],
    () => ['GET', `/repos/acme/widgets/pulls/${pick([39, 40, 41])}/files`, undefined, pick(tokens)],
    () => ['GET', `/repos/acme/widgets/commits?per_page=${pick([2, 5, 30])}`, undefined, pick(tokens)],
    () => ['GET', `/repos/acme/widgets/git/refs/heads/${pick(['main', 'master', 'feature/color-support', 'b1', 'b7'])}`, undefined, pick(tokens)],
    () => ['GET', `/search/${pick(['issues?q=repo:acme/widgets+bug', 'repositories?q=widgets', 'code?q=widget', 'users?q=a'])}`, undefined, pick(tokens)],
    () => ['POST', '/repos/acme/widgets/issues', { title: `Issue ${Math.floor(random() * 1000)}`, labels: [pick(['bug', 'new', 'question'])] }, pick(tokens)],
    () => ['PATCH', `/repos/acme/widgets/issues/${n()}`, { state: pick(['open', 'closed']), title: pick([undefined, 'Renamed']) }, pick(tokens)],
    () => ['POST', `/repos/acme/widgets/issues/${n()}/comments`, { body: `Comment ${Math.floor(random() * 1000)}` }, pick(tokens)],
    (i) => ['POST', '/repos/acme/widgets/git/refs', { ref: `refs/heads/b${i % 10}`, sha: 'main' }, pick(tokens)],
    (i) => ['PUT', `/repos/acme/widgets/contents/notes/n${i}.md`, { message: `Note ${i}`, content: b64(`note ${i}\n`), branch: pick(['main', 'feature/color-support']) }, pick(tokens)],
    () => ['PUT', `/repos/acme/widgets/pulls/${pick([39, 40, 41])}/merge`, { merge_method: pick(['merge', 'squash', 'rebase']) }, pick(tokens)],
    () => ['POST', `/repos/acme/widgets/pulls/${pick([39, 40, 41])}/reviews`, { event: pick(['APPROVE', 'COMMENT']), body: 'ok' }, pick(tokens)],
    () => ['POST', '/repos/acme/widgets/forks', undefined, pick(tokens)],
    (i) => ['POST', '/user/repos', { name: `repo-${i % 7}`, auto_init: random() < 0.5 }, pick(tokens)],
    () => ['POST', '/repos/acme/widgets/pulls', { title: 'More', head: pick(['feature/color-support', 'fix/format-negative']), base: pick(['main', 'release/1.0']) }, pick(tokens)],
  ];
  return Array.from({ length: count }, (_, i) => pick(makers)(i));
}

function run(seed: number, requests: Request[]): JournalEntry[] {
  const send = sender(customWorld(exampleData(), { seed }));
  for (const [method, target, body, token] of requests) {
    // A ref's `sha: 'main'` is replaced by the current main head, as a client would look it up.
    let payload = body as Record<string, unknown> | undefined;
    if (payload?.sha === 'main') payload = { ...payload, sha: send('GET', '/repos/acme/widgets/git/ref/heads/main').json.object.sha };
    send(method, target, payload, { token });
  }
  return send.entries;
}

const decode = (body: Uint8Array) => new TextDecoder().decode(body);

test('two fresh worlds answer 500 mixed requests byte for byte the same', (t) => {
  const requests = mixedRequests(500);
  const a = run(42, requests);
  const b = run(42, requests);
  t.is(a.length, b.length);
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.response.status !== y.response.status || JSON.stringify(x.response.headers) !== JSON.stringify(y.response.headers)
      || Buffer.compare(x.response.body, y.response.body) !== 0) {
      t.fail(`response ${i} (${x.method} ${x.target}) differs`);
      return;
    }
  }
  const statuses = new Set(a.map((e) => e.response.status));
  for (const status of [200, 201, 404, 422]) t.true(statuses.has(status), `the mix includes ${status}`);
  t.true(a.filter((e) => e.method !== 'GET' && e.response.status < 300).length > 50, 'many writes succeeded');
  t.deepEqual(invalidEntries(a), []);
});

test('another seed changes node IDs and request IDs, and nothing else', (t) => {
  const requests = mixedRequests(500);
  const a = run(42, requests);
  const b = run(43, requests);
  const mask = (entry: JournalEntry) => ({
    status: entry.response.status,
    headers: entry.response.headers.filter(([name]) => !/^(x-github-request-id|etag|content-length)$/i.test(name)),
    body: decode(entry.response.body).replace(/"node_id":"[^"]*"/g, '"node_id":"*"'),
  });
  let nodeIdsDiffer = 0;
  for (let i = 0; i < a.length; i++) {
    t.deepEqual(mask(a[i]!), mask(b[i]!), `response ${i} (${a[i]!.method} ${a[i]!.target})`);
    if (decode(a[i]!.response.body) !== decode(b[i]!.response.body)) nodeIdsDiffer++;
    t.not(a[i]!.response.headers.find(([n]) => n === 'X-GitHub-Request-Id')![1], b[i]!.response.headers.find(([n]) => n === 'X-GitHub-Request-Id')![1]);
  }
  t.true(nodeIdsDiffer > 200, `node IDs differ between seeds (${nodeIdsDiffer} bodies)`);
});
