import test from 'ava';
import { join } from 'node:path';
import { openWorld } from '../scenarios/world.js';
import { findScenarios } from '../scenarios/validate.js';
import { zendeskService } from '../mocks/zendesk/index.js';
import type { World } from '../mocks/core/world.js';
import { scenarioSuite } from './helpers/scenario-suite.js';

// Every Zendesk scenario of the business group (helpers/scenario-suite): valid (oracle arguments
// against the native server's input schemas), nop 0, oracle 1 with R_b 0 through toolbench's
// Zendesk MCP server, replay identical, bypassed writes fail.

const dirs = findScenarios(join('scenarios', 'business')).filter((dir) => dir.includes('/zendesk/'));

/** The credential is the account's API token and the email of one of its agents. */
function credentialOk(world: World, credential: unknown): boolean {
  const state = world.state().zendesk!;
  const account = state.account?.account as { subdomain: string; api_tokens: string[] } | undefined;
  const { subdomain, email, token } = (credential ?? {}) as Record<string, string>;
  const users = Object.values(state.users ?? {}) as { email: string; role: string }[];
  return account !== undefined && account.subdomain === subdomain && account.api_tokens.includes(token ?? '')
    && users.some((u) => u.email === email && u.role !== 'end-user');
}

const manifests = scenarioSuite({ service: 'zendesk', dirs, credentialOk, operationNames: zendeskService.kit.operations.map((operation) => operation.name) });

test('at least 5 Zendesk scenarios, each with its own seed and epoch, non-trivial state, writes required through MCP by operation', async (t) => {
  t.true(dirs.length >= 5, `${dirs.length} scenarios`);
  const seeds = [...manifests.values()].map((m) => m.seed);
  const epochs = [...manifests.values()].map((m) => m.epoch);
  t.is(new Set(seeds).size, seeds.length, `seeds ${seeds.join(', ')}`);
  t.is(new Set(epochs).size, epochs.length, `epochs ${epochs.join(', ')}`);
  for (const [dir, manifest] of manifests) {
    t.true(manifest.expect.required_calls.every((call) => 'operation' in call && call.operation !== undefined && call.tool?.endpoint === 'zendesk'), `${manifest.id}: required calls name the operation and the MCP tool`);
    const { world } = await openWorld({ scenarioDir: dir });
    try {
      t.true(Object.keys(world.state().zendesk!.tickets!).length >= 40, `${manifest.id}: a non-trivial help desk`);
    } finally {
      await world.journal.close();
    }
  }
});
