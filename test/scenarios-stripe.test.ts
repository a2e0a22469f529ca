import test from 'ava';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { readSnapshots } from '../catalog/snapshots.js';
import { openWorld } from '../mocks/build.js';
import { gradeWorld } from '../scenarios/grade-world.js';
import { loadScenarioManifest } from '../scenarios/manifest.js';
import { findScenarios, validateScenario } from '../scenarios/validate.js';
import { trialTests } from './helpers/scenario-trials.js';

// Every Stripe scenario of the business group: it validates (manifest, dataset, instruction,
// oracle arguments against the real server's input schemas); the nop agent scores 0, the oracle
// (its solution replayed over MCP through the real @stripe/mcp) scores 1 with no unintended
// change, its journal replays byte for byte, and a bypassed write fails (helpers/scenario-trials);
// near misses score 0. One world per trial.

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
    t.true(manifest.expect.required_calls.every((call) => 'operation' in call && call.operation !== undefined && call.tool?.endpoint === 'stripe'), 'required calls name the operation and the MCP tool');
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

  trialTests(test, dir, manifest);
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
