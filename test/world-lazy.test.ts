import test from 'ava';
import { prepareWorld, prepareWorldWith } from '../scenarios/world.js';
import { serviceDefinitions } from '../mocks/index.js';
import type { JournalEntry } from '../mocks/core/journal-format.js';
import { MemoryJournal } from '../mocks/core/journal.js';
import { World, type HostedService, type WorldRequest } from '../mocks/core/world.js';
import { EXAMPLE_SCENARIO } from './helpers/world.js';

// A world loads the committed baselines of services its scenario does not name on first use
// (docs/benchmarks.md, cold start); what any client sees must be what an eagerly loaded world shows.

const enc = new TextEncoder();
const REQUESTS: WorldRequest[] = [
  { host: 'api.linear.app', method: 'POST', target: '/graphql', headers: [['Content-Type', 'application/json']], body: enc.encode(JSON.stringify({ query: '{ teams { nodes { id name } } }' })) },
  { host: 'api.github.com', method: 'GET', target: '/repos/acme/widgets', headers: [], body: new Uint8Array() },
  { host: 'api.stripe.com', method: 'GET', target: '/v1/customers?limit=3', headers: [['Authorization', 'Bearer sk_test_x']], body: new Uint8Array() },
  { host: 'api.linear.app', method: 'POST', target: '/graphql', headers: [['Content-Type', 'application/json']], body: enc.encode(JSON.stringify({ query: '{ issues(first: 2) { nodes { id title } } }' })) },
];

async function build(services: readonly HostedService[]): Promise<World> {
  const { header } = await prepareWorld({ scenarioDir: EXAMPLE_SCENARIO });
  return new World({ seed: header.seed, epochMs: Date.parse(header.epoch), tickMs: header.tickMs, services, journal: new MemoryJournal(header) });
}

async function entries(world: World): Promise<JournalEntry[]> {
  const out: JournalEntry[] = [];
  for await (const entry of world.journal.entries()) out.push(entry);
  return out;
}

test('the baselines of services the scenario does not name are lazy, their mocks not imported; its own services are not', async (t) => {
  const { services, manifest } = await prepareWorld({ scenarioDir: EXAMPLE_SCENARIO });
  for (const service of services) {
    const own = manifest.services.includes(service.id);
    t.is(service.lazy === true, !own, service.id);
    t.is(service.definition !== undefined, own, `${service.id}'s mock is imported only if the scenario names it`);
  }
});

test('a lazy service reads its dataset on its first use only, and answers byte for byte as when loaded eagerly', async (t) => {
  const { services } = await prepareWorld({ scenarioDir: EXAMPLE_SCENARIO });
  const reads = new Map<string, number>();
  const counted = services.map((s): HostedService => ({
    id: s.id, hostnames: s.hostnames, lazy: s.lazy, importDefinition: s.importDefinition,
    get definition() { return s.definition; },
    get data() { reads.set(s.id, (reads.get(s.id) ?? 0) + 1); return s.data; },
  }));
  const lazy = await build(counted);
  t.is(reads.get('linear'), undefined, 'nothing reads Linear\'s baseline before a request reaches it');
  t.is(reads.get('github'), 1, 'the scenario\'s own service loads at once');
  // The same world with every mock imported up front (as tests build them).
  const all = prepareWorldWith(serviceDefinitions, { scenarioDir: EXAMPLE_SCENARIO }).services;
  const eager = await build(all.map((s) => ({ id: s.id, hostnames: s.hostnames, definition: s.definition, data: s.data })));
  const linear = services.find((s) => s.id === 'linear')!;
  t.is(linear.definition, undefined, 'Linear\'s mock is not imported before a request reaches it');
  for (const request of REQUESTS) {
    await lazy.dispatch(request);
    await eager.dispatch(request);
  }
  t.is(reads.get('linear'), 1);
  t.is(linear.definition, serviceDefinitions.get('linear'), 'the request imported Linear\'s mock');
  t.is(reads.get('stripe'), 1);
  t.is(reads.get('slack'), undefined);
  t.throws(() => lazy.state(['slack']), { message: /the slack mock is not imported yet/ }, 'reading an unimported mock\'s state synchronously is a clear error');
  await lazy.importServices();
  t.deepEqual(await entries(lazy), await entries(eager));
  t.true((await entries(lazy)).every((e) => e.response.status < 500));
  // Reading the state (once imported) loads the rest; a reset leaves the unloaded ones as they are.
  await lazy.reset();
  await eager.reset();
  t.deepEqual(lazy.gradingState('initial'), eager.gradingState('initial'));
  t.deepEqual(lazy.state(), eager.state());
  t.deepEqual(lazy.serviceIds, eager.serviceIds);
  t.is(reads.get('slack'), 1);
});

test('grading compares the scenario\'s services and those the trial loaded: it loads no untouched baseline, and a write to a touched one is still collateral damage', async (t) => {
  const { openWorld } = await import('../scenarios/world.js');
  const { gradeWorld } = await import('../scenarios/grade-world.js');
  const outcome = { agent: 'test', answer: null, output: '', exit: { code: 0, signal: null }, interrupted: false };
  const untouched = await openWorld({ scenarioDir: EXAMPLE_SCENARIO });
  try {
    t.like(await gradeWorld(untouched, outcome), { r_b: 0, unintended_changes: 0 });
    t.deepEqual(untouched.world.loadedServiceIds, ['github']);
  } finally {
    await untouched.world.journal.close();
  }
  const touched = await openWorld({ scenarioDir: EXAMPLE_SCENARIO });
  try {
    const customer = await touched.world.dispatch({
      host: 'api.stripe.com', method: 'POST', target: '/v1/customers', body: enc.encode('email=stray%40example.com'),
      headers: [['Authorization', 'Bearer sk_test_51ToolbenchBaselineKey000'], ['Content-Type', 'application/x-www-form-urlencoded']],
    });
    t.is(customer.status, 200);
    const result = await gradeWorld(touched, outcome);
    t.true(result.r_b > 0, `r_b ${result.r_b}`);
    t.true(result.unintended.some((change) => change.startsWith('stripe')), result.unintended.join('\n'));
    t.deepEqual(touched.world.loadedServiceIds, ['github', 'stripe']);
  } finally {
    await touched.world.journal.close();
  }
});
