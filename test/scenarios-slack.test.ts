import test from 'ava';
import { join } from 'node:path';
import type { World } from '../mocks/core/world.js';
import { slackService } from '../mocks/slack/index.js';
import { loadScenarioManifest } from '../scenarios/manifest.js';
import { findScenarios } from '../scenarios/validate.js';
import { scenarioSuite } from './helpers/scenario-suite.js';

// Every collab scenario that uses Slack, alone or with GitHub (collab/cross/): valid, nop 0,
// oracle 1 with R_b 0 through the real servers, replay identical (test/helpers/scenario-suite.ts).
// The Slack credential is a table: one of the dataset's bot tokens and the dataset's workspace.

// The slack-go endpoint's scenarios (collab/slack-go/) have their own file, test/scenarios-slack-go.test.ts;
// scenarios that cross into further services (Jira: collab/cross/jira-bug-github-fix-slack) theirs,
// test/scenarios-cross-collab.test.ts.
const all = findScenarios(join('scenarios', 'collab')).filter((dir) => {
  const { services } = loadScenarioManifest(dir);
  return !dir.includes('/slack-go/') && services.includes('slack') && services.every((service) => service === 'slack' || service === 'github');
});
const slackOnly = all.filter((dir) => dir.includes('/slack/'));
const cross = all.filter((dir) => dir.includes('/cross/'));

function credentialOk(world: World, credential: unknown): boolean {
  if (!credential || typeof credential !== 'object') return false;
  const { token, team_id: team } = credential as Record<string, string>;
  const state = world.state(['slack']).slack!;
  const workspace = Object.keys(state.team ?? {});
  // A non-trivial workspace, too: many channels, people and messages.
  const big = Object.keys(state.channels!).length >= 20 && Object.keys(state.users!).length >= 25 && Object.keys(state.messages!).length >= 50;
  return token !== undefined && state.tokens![token] !== undefined && workspace.length === 1 && workspace[0] === team && big;
}

const operationNames = slackService.kit.operations.map((operation) => operation.name);
const manifests = new Map([
  ...scenarioSuite({ service: 'slack', dirs: slackOnly, credentialOk, operationNames }),
  ...scenarioSuite({ service: 'slack', services: ['github', 'slack'], dirs: cross, credentialOk, operationNames }),
]);

test('at least five Slack scenarios and one that crosses into GitHub, each with its own seed and epoch', (t) => {
  t.true(slackOnly.length >= 5, `${slackOnly.length} Slack scenarios`);
  t.true(cross.length >= 1, 'a Slack + GitHub scenario');
  t.is(all.length, slackOnly.length + cross.length);
  const seeds = [...manifests.values()].map((m) => m.seed);
  t.is(new Set(seeds).size, seeds.length);
  const epochs = [...manifests.values()].map((m) => m.epoch);
  t.is(new Set(epochs).size, epochs.length);
});
