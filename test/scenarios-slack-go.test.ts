import test from 'ava';
import { join } from 'node:path';
import type { JournalEntry } from '../mocks/core/journal-format.js';
import type { World } from '../mocks/core/world.js';
import { slackService } from '../mocks/slack/index.js';
import { findScenarios } from '../scenarios/validate.js';
import { scenarioSuite } from './helpers/scenario-suite.js';

// The scenarios whose endpoint is slack-go (slack-mcp-server, the Go server, acting as a person):
// valid, nop 0, oracle 1 with R_b 0 through the real server, replay identical
// (test/helpers/scenario-suite.ts). The credential table carries the person's user_token.

const dirs = findScenarios(join('scenarios', 'collab', 'slack-go'));

function credentialOk(world: World, credential: unknown): boolean {
  if (!credential || typeof credential !== 'object') return false;
  const { user_token: token, team_id: team } = credential as Record<string, string>;
  const state = world.state(['slack']).slack!;
  const grant = token === undefined ? undefined : state.tokens![token] as { user: string } | undefined;
  const person = grant ? state.users![grant.user] as { is_bot: boolean } | undefined : undefined;
  const big = Object.keys(state.channels!).length >= 20 && Object.keys(state.users!).length >= 25 && Object.keys(state.messages!).length >= 50;
  return token!.startsWith('xoxp-') && person !== undefined && !person.is_bot && Object.keys(state.team!)[0] === team && big;
}

/** slack-go POSTs every method: the ones that only read, by name. */
const READS = /^(auth\.test|client\.userBoot|users\.(list|info|conversations|prefs\.get|profile\.get|lookupByEmail)|conversations\.(list|info|history|replies|members)|search\.(all|messages)|reactions\.get|files\.info|usergroups\.(list|users\.list))$/;
const isWrite = (e: JournalEntry) => e.response.status < 300 && !READS.test(e.operation?.name ?? '');

const manifests = scenarioSuite({
  service: 'slack', endpoints: ['slack-go'], dirs, credentialOk, isWrite, operationNames: slackService.kit.operations.map((operation) => operation.name),
});

test('at least five slack-go scenarios, each starting slack-go alone, with its own seed and epoch', (t) => {
  t.true(dirs.length >= 5, `${dirs.length} slack-go scenarios`);
  for (const manifest of manifests.values()) {
    t.deepEqual(manifest.endpoints, ['slack-go'], manifest.id);
    t.true(manifest.oracle.calls.every((call) => call.endpoint === 'slack-go'), manifest.id);
  }
  const seeds = [...manifests.values()].map((m) => m.seed);
  t.is(new Set(seeds).size, seeds.length);
  const epochs = [...manifests.values()].map((m) => m.epoch);
  t.is(new Set(epochs).size, epochs.length);
});
