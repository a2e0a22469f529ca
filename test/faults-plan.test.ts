import test from 'ava';
import { join } from 'node:path';
import { openWorld } from '../scenarios/world.js';
import { chaosRules, FaultPlanSchema, FaultRuleSchema, MAX_HOLD_MS, resolveFaultPlan } from '../mocks/core/fault-plan.js';
import { resetCut, resetPart, sample } from '../mocks/core/faults.js';
import { compilePathPattern as compileRoute } from '../mocks/core/patterns.js';
import { LevelJournal, MemoryJournal } from '../mocks/core/journal.js';
import type { Fault, JournalEntry } from '../mocks/core/journal-format.js';
import { World } from '../mocks/core/world.js';
import { loadScenarioManifest } from '../scenarios/manifest.js';
import { counterService } from './helpers/counter-service.js';
import { decode, faultyScenario, faultyWorld, outcome } from './helpers/faults.js';
import type { Send } from './helpers/github-requests.js';
import { tempDir, testHeader } from './helpers/journal.js';

// The fault plan in process (no sockets): its format, how rules match, and the Done-when items
// that need no transport: the same seed meets the same faults and another seed other ones, and a
// faulted write changes nothing while its retry changes the store once.

/** A fixed, mixed sequence of reads and writes on several endpoints. */
function traffic(send: Send, count: number, only?: (i: number) => boolean): JournalEntry[] {
  const steps: ((i: number) => JournalEntry)[] = [
    () => send('GET', '/repos/acme/widgets').entry,
    (i) => send('GET', `/repos/acme/widgets/issues?per_page=5&page=${1 + (i % 3)}`).entry,
    (i) => send('POST', '/repos/acme/widgets/issues', { title: `Traffic ${i}` }).entry,
    () => send('GET', '/user').entry,
    (i) => send('GET', `/repos/acme/widgets/issues/${1 + (i % 5)}`).entry,
    (i) => send('PATCH', `/repos/acme/widgets/issues/${1 + (i % 5)}`, { body: `Edited ${i}` }).entry,
  ];
  const out: JournalEntry[] = [];
  for (let i = 0; i < count; i++) if (!only || only(i)) out.push(steps[i % steps.length]!(i));
  return out;
}

const faultsOf = (entries: JournalEntry[]) => entries.map((e) => e.fault);
const kindsOf = (entries: JournalEntry[]) => entries.map((e) => e.fault?.kind ?? '-').join(' ');

test('plan format: kinds as numbers or strings, methods upper-cased, every path by default', (t) => {
  t.like(FaultRuleSchema.parse({ kind: 429, method: 'post', nth: [1, 3] }), { kind: '429', method: 'POST', route: '/**', nth: [1, 3] });
  t.like(FaultRuleSchema.parse({ kind: 'reset', rate: 0.5, route: '/repos/:owner/*' }), { kind: 'reset', rate: 0.5 });
  t.like(FaultRuleSchema.parse({ latency: { dist: 'uniform', min_ms: 10, max_ms: 20 } }), { latency: { dist: 'uniform', min_ms: 10, max_ms: 20 } });
  // What the header stores parses back to itself (replay reads it again).
  const plan = resolveFaultPlan([FaultRuleSchema.parse({ kind: 503, retry_after: 2, service: 'github' })], 'high');
  t.deepEqual(FaultPlanSchema.parse(JSON.parse(JSON.stringify(plan))), plan);
  t.is(plan.rules[0]!.kind, '503', 'the scenario\'s rules come before the preset\'s');
  t.deepEqual(plan.rules.slice(1), chaosRules('high'));
});

test('plan format: nonsense is refused, naming the field', (t) => {
  const problem = (rule: unknown) => {
    const result = FaultRuleSchema.safeParse(rule);
    return result.success ? 'accepted' : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
  };
  t.regex(problem({ route: '/x' }), /^kind: a rule needs a kind, a latency or both/);
  t.regex(problem({ kind: 404 }), /^kind: Invalid enum value/);
  t.regex(problem({ kind: 429, nth: [1], rate: 0.5 }), /^rate: give nth or rate, not both/);
  t.regex(problem({ kind: 500, retry_after: 3 }), /^retry_after: only a 429 or 503/);
  t.regex(problem({ kind: 502, hold_ms: 10 }), /^hold_ms: only a timeout holds/);
  t.regex(problem({ kind: 'timeout', hold_ms: MAX_HOLD_MS + 1 }), /^hold_ms: Number must be less than or equal to 120000/);
  t.regex(problem({ kind: 'timeout', latency: { dist: 'fixed', ms: 5 } }), /^latency: a timeout waits hold_ms/);
  t.regex(problem({ latency: { dist: 'uniform', min_ms: 9, max_ms: 2 } }), /^latency: min_ms is above max_ms/);
  t.regex(problem({ kind: 429, rate: 1.5 }), /^rate: Number must be less than or equal to 1/);
  t.regex(problem({ kind: 429, route: 'repos' }), /^route: must start with \//);
  t.regex(problem({ kind: 429, nth: [0] }), /^nth.0: Number must be greater than 0/);
  t.regex(problem({ kind: 429, colour: 'red' }), /Unrecognized key/);
});

test('scenario.toml: [[faults]] are validated with the file, and a rule may only name a catalog service', async (t) => {
  const bad = faultyScenario('[[faults]]\nkind = 418');
  const error = t.throws(() => loadScenarioManifest(bad));
  t.is((error as { code?: string }).code, 'TB_ERR_SCENARIO');
  t.regex(error!.message, /faults/);
  const elsewhere = faultyScenario('[[faults]]\nservice = "acme-nowhere"\nkind = 503');
  const refused = await t.throwsAsync(openWorld({ scenarioDir: elsewhere }));
  t.is((refused as { code?: string }).code, 'TB_ERR_SCENARIO');
  t.regex(refused!.message, /faults\[0\]\.service names "acme-nowhere", which is not in the catalog/);
  const fine = loadScenarioManifest(faultyScenario('[[faults]]\nroute = "/repos/:owner/:repo/issues"\nmethod = "POST"\nkind = 429\nnth = [1]'));
  t.deepEqual(fine.faults, [{ route: '/repos/:owner/:repo/issues', method: 'POST', kind: '429', nth: [1] }]);
});

test('route patterns: :name and * one segment, ** any number, * inside a segment', (t) => {
  const cases: [string, string, boolean][] = [
    ['/repos/:owner/:repo/issues', '/repos/acme/widgets/issues', true],
    ['/repos/:owner/:repo/issues', '/repos/acme/widgets/issues/1', false],
    ['/repos/:owner/:repo/issues', '/repos/acme//issues', false],
    ['/repos/*/widgets', '/repos/acme/widgets', true],
    ['/repos/**', '/repos', true],
    ['/repos/**', '/repos/acme/widgets/git/refs/heads/main', true],
    ['/repos/**', '/user', false],
    ['/**/comments', '/repos/acme/widgets/issues/3/comments', true],
    ['/**/comments', '/repos/acme/widgets/issues/3', false],
    ['/search/issue*', '/search/issues', true],
    ['/search/issue*', '/search/users', false],
    ['/a.b', '/axb', false],
    ['/**', '/', true],
  ];
  for (const [pattern, path, expected] of cases) t.is(compileRoute(pattern)(path), expected, `${pattern} ${path}`);
});

test('latency distributions stay in their bounds', (t) => {
  for (const u of [0, 0.25, 0.5, 0.999999]) {
    t.is(sample({ dist: 'fixed', ms: 40 }, u), 40);
    const uniform = sample({ dist: 'uniform', min_ms: 10, max_ms: 20 }, u);
    t.true(uniform >= 10 && uniform <= 20);
    const exponential = sample({ dist: 'exponential', mean_ms: 100, max_ms: 300 }, u);
    t.true(exponential >= 0 && exponential <= 300);
  }
  t.is(sample({ dist: 'exponential', mean_ms: 100, max_ms: 300 }, 0.999999), 300, 'the tail is cut');
});

test('same seed: the same fault sequence on every run; another seed: another sequence', async (t) => {
  const run = async (seed: number) => {
    const { world, send } = await faultyWorld('', { chaos: 'high', seed });
    const entries = traffic(send, 300);
    return { faults: faultsOf(entries), outcomes: entries.map((e) => [e.response.status, decode(e.response.body)]), world };
  };
  const first = await run(42);
  const again = await run(42);
  t.deepEqual(again.faults, first.faults, 'identical faults (kind, latency, rule, n)');
  t.deepEqual(again.outcomes, first.outcomes, 'and identical answers');
  t.deepEqual(again.world.state(), first.world.state());
  const errors = first.faults.filter((f) => f !== null && f.kind !== 'latency');
  t.true(errors.length > 30 && errors.length < 120, `${errors.length} of 300 requests faulted at chaos high`);
  t.true(new Set(errors.map((f) => f!.kind)).size >= 5, 'several kinds');
  t.true(first.faults.every((f) => f !== null), 'the preset delays every request');

  const other = await run(43);
  t.notDeepEqual(other.faults, first.faults);
  t.notDeepEqual(kindsOf(traffic((await faultyWorld('', { chaos: 'high', seed: 43 })).send, 300)),
    kindsOf(traffic((await faultyWorld('', { chaos: 'high', seed: 42 })).send, 300)), 'the kinds fall elsewhere, not just the latencies');
});

test('a fault stays where it is when other endpoints get more or fewer requests', async (t) => {
  // Requests to the issue list, with and without every other endpoint's traffic in between.
  const isList = (i: number) => i % 6 === 1;
  const all = traffic((await faultyWorld('', { chaos: 'high' })).send, 600).filter((e) => e.target.startsWith('/repos/acme/widgets/issues?'));
  const alone = traffic((await faultyWorld('', { chaos: 'high' })).send, 600, isList);
  t.is(alone.length, all.length);
  t.deepEqual(faultsOf(alone), faultsOf(all));
  t.true(alone.some((e) => e.fault?.kind !== 'latency'), 'some of them fault');
});

test('faults come from their own stream: the IDs and content of what a write creates do not move', async (t) => {
  const clean = (await faultyWorld('')).send;
  const faulty = (await faultyWorld('[[faults]]\nroute = "/repos/:owner/:repo/issues"\nmethod = "POST"\nkind = 503\nnth = [1, 2]')).send;
  const created = clean('POST', '/repos/acme/widgets/issues', { title: 'Same' });
  t.is(faulty('POST', '/repos/acme/widgets/issues', { title: 'Same' }).status, 503);
  t.is(faulty('POST', '/repos/acme/widgets/issues', { title: 'Same' }).status, 503);
  const retried = faulty('POST', '/repos/acme/widgets/issues', { title: 'Same' });
  t.is(retried.status, 201);
  for (const field of ['id', 'node_id', 'number', 'url', 'title']) t.is(retried.json[field], created.json[field], field);
});

test('a faulted POST leaves the store unchanged; the retried one changes it once', async (t) => {
  const { world, send } = await faultyWorld('[[faults]]\nroute = "/repos/:owner/:repo/issues"\nmethod = "POST"\nkind = 429\nnth = [1]\nretry_after = 1');
  send('GET', '/repos/acme/widgets');
  const before = world.state();
  const faulted = send('POST', '/repos/acme/widgets/issues', { title: 'Only once' });
  t.is(faulted.status, 429);
  t.deepEqual(faulted.entry.fault, { kind: '429', latencyMs: 0, rule: '* POST /repos/:owner/:repo/issues 429', n: 1 });
  t.deepEqual(world.state(), before, 'not a document changed, not even the rate-limit counter');
  const retried = send('POST', '/repos/acme/widgets/issues', { title: 'Only once' });
  t.is(retried.status, 201);
  t.is(retried.entry.fault, null);
  const after = world.state();
  const issues = (state: typeof after) => Object.values(state.github!.issues!) as { title: string }[];
  t.is(issues(after).length, issues(before).length + 1);
  t.is(issues(after).filter((i) => i.title === 'Only once').length, 1);
  t.is(send('GET', `/repos/acme/widgets/issues/${retried.json.number}`).json.title, 'Only once');
});

test('GitHub\'s fault answers: the secondary rate limit, server errors, the gateway timeout', async (t) => {
  const rules = ['429', '500', '502', '503', 'reset', 'timeout'].map((kind, i) =>
    `[[faults]]\nroute = "/repos/acme/widgets"\nkind = "${kind}"\nnth = [${i + 1}]${kind === '429' || kind === '503' ? '\nretry_after = 7' : ''}`).join('\n');
  const { send } = await faultyWorld(rules);
  const used = send('GET', '/rate_limit').json.resources.core.used;
  const [limited, server, gateway, unavailable, reset, timeout] = Array.from({ length: 6 }, () => send('GET', '/repos/acme/widgets'));
  t.is(limited!.status, 429);
  t.is(limited!.header('retry-after'), '7');
  t.regex(limited!.json.message, /^You have exceeded a secondary rate limit\. Please wait a few minutes before you try again\. If you reach out to GitHub Support for help, please include the request ID [0-9A-F:]+\.$/);
  t.true(limited!.json.message.includes(limited!.header('x-github-request-id')!), 'the request ID of the answer');
  t.is(limited!.json.documentation_url, 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits');
  t.is(limited!.json.status, '429');
  t.is(limited!.header('x-ratelimit-used'), String(used), 'the primary limit as it stands, not counted');
  t.like(server!, { status: 500, json: { message: 'Server Error', documentation_url: 'https://docs.github.com/rest', status: '500' } });
  t.like(gateway!, { status: 502, json: { message: 'Server Error' } });
  t.like(unavailable!, { status: 503, json: { message: 'Service Unavailable' } });
  t.is(unavailable!.header('retry-after'), '7');
  t.like(reset!, { status: 502, json: { message: 'Server Error' } });
  t.is(timeout!.status, 504);
  t.regex(timeout!.json.message, /^We couldn't respond to your request in time/);
  t.deepEqual([limited, server, gateway, unavailable, reset, timeout].map((s) => s!.entry.fault?.kind), ['429', '500', '502', '503', 'reset', 'timeout']);
  t.is(timeout!.entry.fault!.latencyMs, 30_000, 'a timeout holds 30 s unless the rule says');
  t.is(send('GET', '/repos/acme/widgets').status, 200);
  t.is(send('GET', '/rate_limit').json.resources.core.used, used + 1, 'only the request that reached the handler counted');
});

test('a service without fault answers of its own gets the generic ones', async (t) => {
  const header = testHeader({ seed: 3 });
  const world = new World({
    seed: 3, epochMs: Date.parse(header.epoch), tickMs: 1000, journal: new MemoryJournal(header),
    services: [{ id: 'counter', hostnames: ['counter.test'], definition: counterService, data: { items: [] } }],
    faults: { chaos: 'none', rules: [FaultRuleSchema.parse({ route: '/items', kind: 503, nth: [1], retry_after: 4 }), FaultRuleSchema.parse({ route: '/items', kind: 'timeout', nth: [2] })] },
  });
  const post = () => world.process({ host: 'counter.test', method: 'POST', target: '/items', headers: [], body: new TextEncoder().encode('{"name":"a"}') });
  const first = post();
  t.is(first.response.status, 503);
  t.deepEqual(first.response.headers.slice(1, 3), [['Content-Type', 'application/json; charset=utf-8'], ['Retry-After', '4']]);
  t.is(decode(first.response.body), '{"message":"Service Unavailable"}');
  t.is(post().response.status, 504);
  t.is(post().response.status, 201);
  t.deepEqual(Object.keys(world.state(['counter']).counter!.items!), ['1'], 'one item, made by the third request');
});

test('a latency-only fault delays but never changes a byte', async (t) => {
  const slow = await faultyWorld('[[faults]]\nlatency = { dist = "uniform", min_ms = 100, max_ms = 900 }');
  const plain = await faultyWorld('');
  const a = traffic(slow.send, 60);
  const b = traffic(plain.send, 60);
  t.deepEqual(a.map((e) => e.response), b.map((e) => e.response));
  t.true(a.every((e) => e.fault?.kind === 'latency' && e.fault.latencyMs >= 100 && e.fault.latencyMs <= 900));
  t.true(b.every((e) => e.fault === null));
});

test('the journal header records the plan, scenario rules first, and it survives LevelDB', async (t) => {
  const scenarioDir = faultyScenario('[[faults]]\nroute = "/user"\nkind = 500\nnth = [2]');
  const journalDir = join(tempDir(), 'journal');
  const { world, header } = await openWorld({ scenarioDir, journalDir, chaos: 'low' });
  await world.journal.close();
  t.deepEqual(header.faults, { chaos: 'low', rules: [{ route: '/user', kind: '500', nth: [2] }, ...chaosRules('low')] });
  const reopened = await LevelJournal.open(journalDir);
  t.deepEqual(reopened.header.faults, header.faults);
  await reopened.close();
  const none = await openWorld({ scenarioDir: faultyScenario('') });
  t.deepEqual(none.header.faults, { chaos: 'none', rules: [] });
});

test('chaos presets nest: each kind\'s faults at a lower level are among those at a higher one', async (t) => {
  const at = async (chaos: 'low' | 'medium' | 'high') => traffic((await faultyWorld('', { chaos })).send, 600);
  const [low, medium, high] = [await at('low'), await at('medium'), await at('high')];
  const seqs = (entries: JournalEntry[], kind: Fault['kind']) => entries.filter((e) => e.fault?.kind === kind).map((e) => e.seq);
  const subset = (a: number[], b: number[]) => a.every((seq) => b.includes(seq));
  t.true(seqs(low, '429').length > 0);
  t.true(subset(seqs(low, '429'), seqs(medium, '429')));
  t.true(subset(seqs(medium, '429'), seqs(high, '429')));
  t.true(seqs(low, '429').length < seqs(high, '429').length);
  t.is(seqs((traffic((await faultyWorld('', { chaos: 'none' })).send, 60)), 'latency').length, 0, 'none adds nothing');
});

test('after a world reset the same requests meet the same faults again', async (t) => {
  const { world, send } = await faultyWorld('', { chaos: 'high' });
  const first = faultsOf(traffic(send, 120));
  await world.reset();
  t.deepEqual(faultsOf(traffic(send, 120)), first);
});

test('an addon that throws is reported and skipped; the others still run', async (t) => {
  const errors: string[] = [];
  const { world: base } = await faultyWorld('[[faults]]\nroute = "/user"\nkind = 502');
  const world = new World({
    ...base.config,
    addons: [
      { name: 'broken', request() { throw new Error('addon bug'); } },
      { name: 'late', request(exchange) { if (exchange.route === 'GET /user') exchange.fault = { ...exchange.fault!, kind: '503', retryAfter: 9 }; } },
    ],
    onAddonError: (error, addon) => errors.push(`${addon}: ${(error as Error).message}`),
  });
  const entry = world.process({ host: 'api.github.com', method: 'GET', target: '/user', headers: [], body: new Uint8Array() });
  t.deepEqual(errors, ['broken: addon bug']);
  t.is(entry.response.status, 503, 'a later addon saw the plan\'s fault and replaced it');
  t.is(entry.fault?.kind, '503');
});

test('a reset sends the head and the first half of the body, or nothing when there is no body', (t) => {
  t.deepEqual([0, 1, 2, 3, 10].map(resetCut), [0, 1, 1, 2, 5]);
  const body = new TextEncoder().encode('{"message":"Server Error"}');
  t.deepEqual(resetPart({ status: 502, headers: [['A', 'b']], body }), { status: 502, headers: [['A', 'b']], body: body.subarray(0, 13) });
  t.deepEqual(resetPart({ status: 502, headers: [['A', 'b']], body: new Uint8Array() }), { status: 0, headers: [], body: new Uint8Array() });
});
