import test from 'ava';
import { Octokit } from '@octokit/rest';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import type { JournalEntry } from '../mocks/core/journal-format.js';
import { decode, faultyScenario, journalOf } from './helpers/faults.js';
import { TOKENS } from './helpers/github-requests.js';
import { startWorld, type TestWorld } from './helpers/world.js';

// Done when: @octokit/rest with its retry and throttling plugins recovers from a 429 with
// Retry-After, and the journal shows both attempts; a faulted POST leaves the store unchanged and
// the retried one changes it once. Over the world's plain GitHub port, on loopback.

const RetryingOctokit = Octokit.plugin(retry, throttling);
const quiet = { debug() {}, info() {}, warn() {}, error() {} };
// Each test's Octokit gets its own throttling `id`: plugin-throttling's limiters are shared per id
// across instances (one write a second), and the tests run concurrently.
/** plugin-retry's default list, plus 429: rate limits are left to plugin-throttling, which reads Retry-After. */
const LEAVE_429_TO_THROTTLING = [400, 401, 403, 404, 410, 422, 451, 429];

const FIRST_POST_FAILS = (kind: string) => `
[[faults]]
route = "/repos/:owner/:repo/issues"
method = "POST"
kind = "${kind}"
nth = [1]${kind === '429' || kind === '503' ? '\nretry_after = 1' : ''}
`;

const worlds: TestWorld[] = [];
async function world(kind: string): Promise<TestWorld> {
  const w = await startWorld({ scenario: faultyScenario(FIRST_POST_FAILS(kind)) });
  worlds.push(w);
  return w;
}
test.after.always(() => Promise.all(worlds.map((w) => w.close())));

type State = ReturnType<TestWorld['world']['state']>;
const titled = (state: State, title: string) => Object.values(state.github!.issues!).filter((issue) => (issue as { title: string }).title === title);
const posts = (entries: JournalEntry[]) => entries.filter((e) => e.method === 'POST' && e.target === '/repos/acme/widgets/issues');

test('plugin-throttling waits out the 429\'s Retry-After and recovers; the journal shows both attempts', async (t) => {
  const w = await world('429');
  const limits: { retryAfter: number; method: string; url: string; retryCount: number }[] = [];
  let stateAtLimit: State | undefined;
  const gh = new RetryingOctokit({
    baseUrl: w.urls.github, auth: TOKENS.alice, log: quiet,
    retry: { doNotRetry: LEAVE_429_TO_THROTTLING },
    throttle: {
      id: 'throttling-owns-429',
      onSecondaryRateLimit: (retryAfter, options, _octokit, retryCount) => {
        limits.push({ retryAfter, method: options.method, url: options.url, retryCount });
        stateAtLimit = w.world.state();
        return retryCount < 2;
      },
      onRateLimit: () => false,
    },
  });
  const before = w.world.state();
  const started = performance.now();
  const created = await gh.issues.create({ owner: 'acme', repo: 'widgets', title: 'Recovered from a secondary limit' });
  const elapsedMs = performance.now() - started;

  t.is(created.status, 201);
  t.deepEqual(limits, [{ retryAfter: 1, method: 'POST', url: '/repos/{owner}/{repo}/issues', retryCount: 0 }], 'recognised as GitHub\'s secondary rate limit');
  t.true(elapsedMs >= 950, `retried after ${Math.round(elapsedMs)} ms (Retry-After: 1)`);
  t.deepEqual(stateAtLimit, before, 'the faulted POST changed nothing');
  t.is(titled(w.world.state(), 'Recovered from a secondary limit').length, 1, 'the retried one made one issue');

  const [first, second, ...more] = posts(await journalOf(w.world));
  t.is(more.length, 0);
  t.like(first, { response: { status: 429 }, fault: { kind: '429', rule: '* POST /repos/:owner/:repo/issues 429', n: 1 } });
  t.true(first!.response.headers.some(([name, value]) => name === 'Retry-After' && value === '1'));
  t.like(second, { seq: first!.seq + 1, response: { status: 201 }, fault: null });
  t.deepEqual(second!.request.body, first!.request.body, 'the same request, sent again');
  t.is(JSON.parse(decode(second!.response.body)).number, created.data.number);
});

test('with plugin-retry\'s defaults the 429 is retried by plugin-retry instead: recovered, both attempts journaled', async (t) => {
  const w = await world('429');
  let limits = 0;
  const gh = new RetryingOctokit({
    baseUrl: w.urls.github, auth: TOKENS.alice, log: quiet,
    throttle: { id: 'retry-defaults', onSecondaryRateLimit: () => { limits += 1; return true; }, onRateLimit: () => false },
  });
  const created = await gh.issues.create({ owner: 'acme', repo: 'widgets', title: 'Retried by plugin-retry' });
  t.is(created.status, 201);
  t.is(limits, 0, 'plugin-retry got the 429 before plugin-throttling did');
  t.deepEqual(posts(await journalOf(w.world)).map((e) => [e.response.status, e.fault?.kind ?? null]), [[429, '429'], [201, null]]);
  t.is(titled(w.world.state(), 'Retried by plugin-retry').length, 1);
});

for (const kind of ['503', 'reset']) {
  test(`a POST that meets a ${kind} is retried by plugin-retry and creates the issue once`, async (t) => {
    const w = await world(kind);
    const gh = new RetryingOctokit({
      baseUrl: w.urls.github, auth: TOKENS.alice, log: quiet,
      throttle: { id: `retry-${kind}`, onSecondaryRateLimit: () => false, onRateLimit: () => false },
    });
    const title = `Survived a ${kind}`;
    const created = await gh.issues.create({ owner: 'acme', repo: 'widgets', title });
    t.is(created.status, 201);
    const attempts = posts(await journalOf(w.world));
    t.deepEqual(attempts.map((e) => e.fault?.kind ?? null), [kind, null]);
    t.is(titled(w.world.state(), title).length, 1);
  });
}
