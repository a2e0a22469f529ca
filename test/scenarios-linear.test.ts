import test from 'ava';
import { join } from 'node:path';
import { findScenarios } from '../scenarios/validate.js';
import { scenarioSuite } from './helpers/scenario-suite.js';

// Every Linear scenario: valid, nop 0, oracle 1 with R_b 0 through the real mcp-linear, replay identical.

const dirs = findScenarios(join('scenarios', 'code')).filter((dir) => dir.includes('/linear/'));
const manifests = scenarioSuite({
  service: 'linear',
  dirs,
  credentialOk: (world, key) => typeof key === 'string' && Object.values(world.state(['linear']).linear!.User ?? {}).some((u) => (u as { apiKeys: string[] }).apiKeys.includes(key)),
});

test('at least 5 Linear scenarios, each with its own seed and epoch', (t) => {
  t.true(dirs.length >= 5, `${dirs.length} scenarios`);
  const seeds = [...manifests.values()].map((m) => m.seed);
  const epochs = [...manifests.values()].map((m) => m.epoch);
  t.is(new Set(seeds).size, seeds.length, `seeds ${seeds.join(', ')}`);
  t.is(new Set(epochs).size, epochs.length, `epochs ${epochs.join(', ')}`);
});
