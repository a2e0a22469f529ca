import test from 'ava';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { readSnapshots } from '../catalog/snapshots.js';
import { startStack } from '../catalog/stack.js';
import { openWorld } from '../mocks/build.js';
import { verifyJournal } from '../replay/verify.js';
import { gradeWorld } from '../scenarios/grade-world.js';
import { loadScenarioManifest, type ScenarioManifest } from '../scenarios/manifest.js';
import { findScenarios, validateScenario } from '../scenarios/validate.js';
import { tempDir } from './helpers/journal.js';
import { testCaDir } from './helpers/proxy.js';

// Every Stripe scenario of the business group: it validates (manifest, dataset, instruction,
// oracle arguments against the real server's input schemas); the nop agent scores 0, the oracle
// (its solution replayed over MCP through the real @stripe/mcp) scores 1 with no unintended
// change, and the oracle's journal replays byte for byte. One world per trial.

const dirs = findScenarios(join('scenarios', 'business')).filter((dir) => dir.includes('/stripe/'));
const manifests = new Map(dirs.map((dir) => [dir, loadScenarioManifest(dir)]));
const snapshot = readSnapshots().find((s) => s.endpoint === 'stripe')!;
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
const argumentValidators = new Map(snapshot.tools.map((tool) => [tool.name, ajv.compile({ ...(tool.inputSchema as object), additionalProperties: false })]));

test('at least 5 Stripe scenarios, each with its own seed and epoch', (t) => {
  t.true(dirs.length >= 5, `${dirs.length} scenarios`);
  const seeds = [...manifests.values()].map((m) => m.seed);
  const epochs = [...manifests.values()].map((m) => m.epoch);
  t.is(new Set(seeds).size, seeds.length, `seeds ${seeds.join(', ')}`);
  t.is(new Set(epochs).size, epochs.length, `epochs ${epochs.join(', ')}`);
});

for (const dir of dirs) {
  const manifest = manifests.get(dir)!;

  test(`${manifest.id}: valid scenario (manifest, dataset, instruction, credential, oracle arguments)`, async (t) => {
    t.deepEqual(validateScenario(dir), []);
    t.is(manifest.id, relative('scenarios', dir).split('/').join('/'), 'the id is the folder');
    t.is(manifest.group, 'business');
    t.deepEqual(manifest.services, ['stripe']);
    t.true(readFileSync(join(dir, 'instruction.md'), 'utf8').trim().length > 40, 'an instruction a human would give');
    t.true(manifest.oracle.calls.length > 0, 'an oracle solution');
    t.true(manifest.expect.forbidden_calls.length > 0, 'forbidden calls');
    t.true(manifest.expect.required_calls.every((call) => call.operation !== undefined && call.tool?.endpoint === 'stripe'), 'required calls name the operation and the MCP tool');
    const { world } = await openWorld({ scenarioDir: dir });
    try {
      const key = manifest.credentials.stripe;
      t.truthy(typeof key === 'string' && (world.state().stripe!.account!.account as { api_keys: string[] }).api_keys.includes(key), 'the credential is a key of the account');
      t.true(Object.keys(world.state().stripe!.customers!).length >= 20, 'a non-trivial account');
    } finally {
      await world.journal.close();
    }
    for (const [i, call] of manifest.oracle.calls.entries()) {
      const validate = argumentValidators.get(call.tool);
      t.truthy(validate, `oracle.calls[${i}]: the server has a tool ${call.tool}`);
      t.true(validate!(call.arguments), `oracle.calls[${i}] (${call.tool}): ${ajv.errorsText(validate!.errors)}`);
    }
  });

  test(`${manifest.id}: nop scores 0`, async (t) => {
    const opened = await openWorld({ scenarioDir: dir });
    try {
      const result = await gradeWorld(opened, opened.world.gradingState('initial'), {
        agent: 'nop', answer: null, output: '', exit: { code: 0, signal: null }, interrupted: false,
      });
      t.is(result.reward, 0);
      t.like(result, { api_calls: 0, r_b: 0, forbidden_calls_ok: true });
    } finally {
      await opened.world.journal.close();
    }
  });

  test(`${manifest.id}: oracle scores 1 with R_b 0, and its journal replays identically`, async (t) => {
    const journalDir = join(tempDir('toolbench-scenario-'), 'journal');
    const stack = await startStack({ scenarioDir: dir, journalDir, ports: 'ephemeral', caDir: testCaDir(), endpoints: true });
    let result;
    try {
      const initial = stack.world.gradingState('initial');
      const failures = await runOracle(manifest, stack.addresses().mcp);
      t.deepEqual(failures, [], 'every oracle call succeeds');
      result = await gradeWorld(stack, initial, { agent: 'oracle', answer: manifest.oracle.answer, output: '', exit: { code: 0, signal: null }, interrupted: false });
    } finally {
      await stack.close();
    }
    t.is(result.reward, 1, result.checks.filter((c) => !c.ok).map((c) => `${c.kind}: ${c.description} (${c.detail})`).join('\n'));
    t.deepEqual(result.unintended, []);
    t.like(result, { r_c: 1, r_b: 0, mcp_bypass: 0 });
    const report = await verifyJournal(journalDir);
    t.is(report.verdict, 'identical', JSON.stringify(report.firstDivergence));
    t.is(report.entries, result.world_requests);
  });
}

/** A near miss scores 0: the wrong one of two identical charges refunded, or the right order refunded in full. */
test('near misses score 0: the forbidden refund is caught and the expected state is missing', async (t) => {
  const cases: [string, string][] = [
    ['business/stripe/refund-duplicate-charge', 'payment_intent=pi_5da3PkhBPaT4EY0jeC9UmCUr'],
    ['business/stripe/partial-refund-damaged-item', 'payment_intent=pi_PTGy2AdBMTSZg7f3oJAkf5EL'],
    ['business/stripe/partial-refund-damaged-item', 'payment_intent=pi_1YmkuF32aHGUAjjdY4ttcILB'],
  ];
  for (const [id, form] of cases) {
    const dir = join('scenarios', id);
    const manifest = manifests.get(dir)!;
    const opened = await openWorld({ scenarioDir: dir });
    try {
      const initial = opened.world.gradingState('initial');
      const response = await opened.world.dispatch({ host: 'api.stripe.com', method: 'POST', target: '/v1/refunds', body: new TextEncoder().encode(form),
        headers: [['Authorization', `Bearer ${manifest.credentials.stripe as string}`], ['Content-Type', 'application/x-www-form-urlencoded']] });
      t.is(response.status, 200, `${id}: ${form}`);
      const result = await gradeWorld(opened, initial, { agent: 'near-miss', answer: manifest.oracle.answer, output: '', exit: { code: 0, signal: null }, interrupted: false });
      t.is(result.reward, 0, `${id}: ${form}`);
      t.false(result.forbidden_calls_ok, `${id}: ${form}`);
    } finally {
      await opened.world.journal.close();
    }
  }
});

/**
 * The oracle agent, in process: each solution call over MCP, one after another; the failures.
 * The Stripe server reports a failed API call as text ("Failed to create refund"), not isError.
 */
async function runOracle(manifest: ScenarioManifest, endpoints: Record<string, string>): Promise<string[]> {
  const clients = new Map<string, Client>();
  const failures: string[] = [];
  try {
    for (const [i, call] of manifest.oracle.calls.entries()) {
      let client = clients.get(call.endpoint);
      if (!client) {
        client = new Client({ name: 'toolbench-oracle-test', version: '1.0.0' });
        await client.connect(new StreamableHTTPClientTransport(new URL(endpoints[call.endpoint]!)));
        clients.set(call.endpoint, client);
      }
      const result = await client.callTool({ name: call.tool, arguments: call.arguments });
      const text = (result.content as { text?: string }[])[0]?.text ?? '';
      if (result.isError || text.startsWith('"Failed to')) {
        failures.push(`oracle.calls[${i}] ${call.tool}: ${JSON.stringify(result.content)}`);
        break;
      }
    }
  } finally {
    for (const client of clients.values()) await client.close();
  }
  return failures;
}
