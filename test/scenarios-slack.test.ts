import test from 'ava';
import { Ajv } from 'ajv';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { readSnapshots } from '../catalog/snapshots.js';
import { openWorld } from '../mocks/build.js';
import { loadScenarioManifest } from '../scenarios/manifest.js';
import { findScenarios, validateScenario } from '../scenarios/validate.js';
import { trialTests } from './helpers/scenario-trials.js';

// Every collab scenario that uses Slack (alone or with GitHub): it validates, its Slack
// credential is a dataset token with the dataset's team; nop scores 0; the oracle (its solution
// over MCP through the real servers) scores 1 with no unintended change; its journal replays
// byte for byte.

const dirs = findScenarios(join('scenarios', 'collab')).filter((dir) => loadScenarioManifest(dir).services.includes('slack'));
const manifests = new Map(dirs.map((dir) => [dir, loadScenarioManifest(dir)]));
const ajv = new Ajv({ strict: false, allErrors: true });
const validators = new Map(readSnapshots().flatMap((snapshot) => snapshot.tools.map((tool) =>
  [`${snapshot.endpoint}/${tool.name}`, ajv.compile({ ...(tool.inputSchema as object), additionalProperties: false })] as const)));

test('at least five Slack scenarios and one that crosses into GitHub, each with its own seed and epoch', (t) => {
  const slackOnly = [...manifests.values()].filter((m) => m.services.length === 1);
  t.true(slackOnly.length >= 5, `${slackOnly.length} Slack scenarios`);
  t.true([...manifests.values()].some((m) => m.services.includes('github')), 'a Slack + GitHub scenario');
  const seeds = [...manifests.values()].map((m) => m.seed);
  t.is(new Set(seeds).size, seeds.length);
  const epochs = [...manifests.values()].map((m) => m.epoch);
  t.is(new Set(epochs).size, epochs.length);
});

for (const dir of dirs) {
  const manifest = manifests.get(dir)!;

  test(`${manifest.id}: valid scenario (manifest, datasets, credentials, oracle arguments)`, async (t) => {
    t.deepEqual(validateScenario(dir), []);
    t.is(manifest.id, relative('scenarios', dir));
    t.true(readFileSync(join(dir, 'instruction.md'), 'utf8').trim().length > 40);
    t.true(manifest.oracle.calls.length > 0 && manifest.expect.required_calls.length > 0 && manifest.expect.forbidden_calls.length > 0);
    const { world } = await openWorld({ scenarioDir: dir });
    try {
      const state = world.state().slack!;
      const credential = manifest.credentials.slack;
      t.true(typeof credential === 'object', 'the Slack credential is a table');
      if (typeof credential !== 'object') return;
      t.truthy(state.tokens![credential.token!], 'the token is one of the dataset\'s');
      t.deepEqual(Object.keys(state.team!), [credential.team_id], 'team_id is the dataset\'s workspace');
      t.true(Object.keys(state.channels!).length >= 20 && Object.keys(state.users!).length >= 25 && Object.keys(state.messages!).length >= 50, 'a non-trivial workspace');
    } finally {
      await world.journal.close();
    }
    for (const [i, call] of manifest.oracle.calls.entries()) {
      const validate = validators.get(`${call.endpoint}/${call.tool}`);
      t.truthy(validate, `oracle.calls[${i}]: ${call.endpoint} has a tool ${call.tool}`);
      t.true(validate!(call.arguments), `oracle.calls[${i}] (${call.tool}): ${ajv.errorsText(validate!.errors)}`);
    }
  });

  trialTests(test, dir, manifest);
}
