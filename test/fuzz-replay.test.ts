import test from 'ava';
import fc from 'fast-check';
import { prepareWorld } from './helpers/prepare-world.js';
import type { ChaosLevel } from '../mocks/core/fault-plan.js';
import type { JournalEntry } from '../mocks/core/journal-format.js';
import { MemoryJournal } from '../mocks/core/journal.js';
import { World, type WorldRequest } from '../mocks/core/world.js';
import { freshWorld } from '../replay/rebuild.js';
import { replayJournal } from '../replay/run.js';
import { fromJournal } from '../replay/source.js';
import { fcOptions, fuzzTimeout } from './helpers/fuzz.js';
import { TOKENS } from './helpers/replay-github.js';
import { EXAMPLE_SCENARIO } from './helpers/world.js';

// The world is a pure function of (dataset, seed, ordered requests): for any generated sequence
// of GitHub requests (real routes with odd ids, odd bodies and headers, bad tokens, resets,
// unknown hosts, oversize bodies), with or without a chaos fault plan, two fresh worlds answer
// with the same bytes, and replaying the first world's journal is identical.

const enc = new TextEncoder();
const owner = fc.constantFrom('acme', 'alice', 'bob', 'nobody', 'ACME', '');
const repo = fc.constantFrom('widgets', 'infra', 'gadgets', 'nope', '');
const num = fc.oneof(fc.integer({ min: 0, max: 60 }), fc.constantFrom(-1, 2 ** 31, 99_999_999_999), fc.constantFrom('abc', '1e3', '01'));
const name = fc.oneof(fc.constantFrom('main', 'develop', 'feature/x', 'README.md', 'docs/a b.md', '..', '%2F'), fc.stringMatching(/^[a-z0-9/._-]{1,12}$/));
const query = fc.oneof(fc.constant(''), fc.record({ per_page: fc.oneof(fc.nat(120), fc.constant('x')), page: fc.oneof(fc.nat(5), fc.constant(-1)), state: fc.constantFrom('open', 'closed', 'all', 'bogus') }, { requiredKeys: [] })
  .map((q) => (Object.keys(q).length ? `?${Object.entries(q).map(([k, v]) => `${k}=${v}`).join('&')}` : '')));
const target = fc.oneof(
  fc.tuple(owner, repo, num, name, query).chain(([o, r, n, b, q]) => fc.constantFrom(
    '/user', `/users/${o}`, `/orgs/${o}`, `/repos/${o}/${r}`, `/repos/${o}/${r}/issues${q}`, `/repos/${o}/${r}/issues/${n}`,
    `/repos/${o}/${r}/issues/${n}/comments${q}`, `/repos/${o}/${r}/issues/${n}/labels`, `/repos/${o}/${r}/pulls${q}`, `/repos/${o}/${r}/pulls/${n}`,
    `/repos/${o}/${r}/pulls/${n}/merge`, `/repos/${o}/${r}/pulls/${n}/reviews`, `/repos/${o}/${r}/pulls/${n}/files`, `/repos/${o}/${r}/git/refs`,
    `/repos/${o}/${r}/git/refs/heads/${b}`, `/repos/${o}/${r}/git/ref/heads/${b}`, `/repos/${o}/${r}/contents/${b}`, `/repos/${o}/${r}/branches${q}`,
    `/repos/${o}/${r}/commits${q}`, `/search/issues?q=repo:${o}/${r}+${b}`, `/search/repositories?q=${o}`, `/search/code?q=${b}`, `/user/repos`,
    `/repos/${o}/${r}/forks`, '/rate_limit', `/repos/${o}/${r}/git/trees/${b}`, `/repos/${o}/${r}/git/commits`, `/repos/${o}/${r}/git/trees`,
  )),
  fc.webPath().map((p) => (p.startsWith('/') ? p : `/${p}`)),
);
const value = fc.oneof(fc.string({ maxLength: 30 }), fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string({ maxLength: 10 }), { maxLength: 3 }));
const body = fc.oneof(
  { weight: 4, arbitrary: fc.record({
    title: value, body: value, state: fc.oneof(fc.constantFrom('open', 'closed'), value), labels: fc.oneof(fc.array(fc.constantFrom('bug', 'documentation', 'question', 'x'), { maxLength: 3 }), value),
    head: fc.oneof(name, value), base: fc.oneof(name, value), ref: fc.oneof(name.map((b) => `refs/heads/${b}`), value), sha: fc.oneof(fc.stringMatching(/^[0-9a-f]{40}$/), value),
    message: value, content: fc.oneof(fc.base64String({ maxLength: 40 }), value), branch: fc.oneof(name, value), event: fc.constantFrom('APPROVE', 'COMMENT', 'REQUEST_CHANGES', 'NOPE'),
    merge_method: fc.constantFrom('merge', 'squash', 'rebase', 'x'), name: fc.oneof(name, value), private: value, tree: value,
  }, { requiredKeys: [] }).map((b) => enc.encode(JSON.stringify(b))) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => enc.encode(JSON.stringify(v) ?? '')) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.constant(new Uint8Array(0)) },
);
const auth = fc.constantFrom(`Bearer ${TOKENS.alice}`, `token ${TOKENS.bob}`, `Bearer ${TOKENS.carol}`, 'Bearer ghp_wrong', 'Basic Og==', '', undefined);
const extraHeaders = fc.array(fc.tuple(fc.constantFrom('Accept', 'Content-Type', 'If-None-Match', 'X-GitHub-Api-Version', 'User-Agent', 'X-Odd'),
  fc.constantFrom('application/vnd.github+json', 'application/json', 'text/plain', 'W/"abc"', '2022-11-28', '1999-01-01', '')), { maxLength: 3 });

type Step = { kind: 'reset' } | { kind: 'http'; request: WorldRequest };
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 20, arbitrary: fc.record({ method: fc.oneof({ weight: 6, arbitrary: fc.constantFrom('GET', 'POST', 'PATCH', 'PUT', 'DELETE') }, fc.constantFrom('HEAD', 'OPTIONS', 'get', 'BREW')),
    target, body, auth, extra: extraHeaders, host: fc.oneof({ weight: 12, arbitrary: fc.constant('api.github.com') }, fc.constantFrom('API.GITHUB.COM', 'api.github.com:443', 'unknown.example')),
    oversize: fc.nat(30).map((n) => n === 0) })
    .map(({ method, target, body, auth, extra, host, oversize }): Step => ({ kind: 'http', request: {
      host, method, target, body: oversize ? new Uint8Array(0) : body, oversize,
      headers: [['Host', host], ...(auth === undefined ? [] : [['Authorization', auth] as [string, string]]), ...extra],
    } })) },
  { weight: 1, arbitrary: fc.constant<Step>({ kind: 'reset' }) },
);

function world(chaos: ChaosLevel, journal?: MemoryJournal) {
  const { header, services } = prepareWorld({ scenarioDir: EXAMPLE_SCENARIO, chaos });
  const built = new World({
    seed: header.seed, epochMs: Date.parse(header.epoch), tickMs: header.tickMs, services, journal: journal ?? new MemoryJournal(header),
    faults: header.faults, latency: 'skip', onHandlerError: (error, service, request) => handlerErrors.add(`${service} ${request.method} ${request.target}: ${(error as Error)?.message}`),
  });
  return { world: built, header, services };
}

async function run(w: World, steps: Step[]): Promise<JournalEntry[]> {
  for (const s of steps) {
    if (s.kind === 'reset') await w.reset();
    else await w.dispatch(s.request);
  }
  await w.journal.flush();
  const out: JournalEntry[] = [];
  for await (const entry of w.journal.entries()) out.push(entry);
  return out;
}

const handlerErrors = new Set<string>();

test('any generated request sequence: two fresh worlds answer byte for byte alike, and the journal replays identically', async (t) => {
  t.timeout(fuzzTimeout);
  let requests = 0;
  await fc.assert(fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 40, size: 'max' }), fc.constantFrom<ChaosLevel>('none', 'none', 'low', 'high'), async (steps, chaos) => {
    requests += steps.length;
    const a = world(chaos);
    const b = world(chaos);
    const [first, second] = [await run(a.world, steps), await run(b.world, steps)];
    if (first.length !== second.length) throw new Error(`${first.length} entries against ${second.length}`);
    for (const [i, entry] of first.entries()) {
      const other = second[i]!;
      const same = entry.response.status === other.response.status
        && JSON.stringify(entry.response.headers) === JSON.stringify(other.response.headers)
        && Buffer.from(entry.response.body).equals(Buffer.from(other.response.body))
        && JSON.stringify(entry.fault) === JSON.stringify(other.fault);
      if (!same) throw new Error(`seq ${entry.seq} (${entry.method} ${entry.target}) differs between two fresh worlds`);
    }
    const outcome = await replayJournal(fromJournal(a.world.journal, 'generated'), freshWorld(a.header, world(chaos).services));
    if (outcome.divergent !== 0) throw new Error(`replay diverges at seq ${outcome.first?.seq}: ${JSON.stringify(outcome.first).slice(0, 400)}`);
  }), fcOptions(100));
  t.log(`${requests} generated requests`);
  t.true(requests > 0);
  if (handlerErrors.size > 0) t.log(`handler failures found (bugs in a mock; deterministic, answered 500):\n${[...handlerErrors].slice(0, 10).join('\n')}`);
});
