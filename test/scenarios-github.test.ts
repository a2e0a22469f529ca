import test from 'ava';
import { join } from 'node:path';
import { operationNames } from '../mocks/github/operations.js';
import { findScenarios } from '../scenarios/validate.js';
import { scenarioSuite } from './helpers/scenario-suite.js';

// Every GitHub scenario of the benchmark groups: valid (manifest, dataset, instruction, oracle
// arguments against the real server's input schemas), nop 0, oracle 1 with R_b 0 through the
// real server, and the oracle's journal replays byte for byte (test/helpers/scenario-suite.ts).

const GROUPS = ['search', 'code', 'collab'] as const;
const dirs = GROUPS.flatMap((group) => findScenarios(join('scenarios', group)).filter((dir) => dir.includes('/github/')));
const manifests = scenarioSuite({
  service: 'github',
  dirs,
  credentialOk: (world, token) => typeof token === 'string' && world.state(['github']).github!.tokens![token] !== undefined,
  operationNames,
});

test('at least 10 GitHub scenarios, in every group, each with its own seed and epoch', (t) => {
  t.true(dirs.length >= 10, `${dirs.length} scenarios`);
  for (const group of GROUPS) t.true([...manifests.values()].some((m) => m.group === group), group);
  const seeds = [...manifests.values()].map((m) => m.seed);
  const epochs = [...manifests.values()].map((m) => m.epoch);
  t.is(new Set(seeds).size, seeds.length, `seeds ${seeds.join(', ')}`);
  t.is(new Set(epochs).size, epochs.length, `epochs ${epochs.join(', ')}`);
});
