import { join } from 'node:path';
import { findScenarios } from '../scenarios/validate.js';
import { zendeskService } from '../mocks/zendesk/index.js';
import type { World } from '../mocks/core/world.js';
import { scenarioSetSuite, scenarioSuite } from './helpers/scenario-suite.js';

// Every Zendesk scenario of the business group (helpers/scenario-suite): valid (oracle arguments
// against the native server's input schemas), nop 0, oracle 1 with R_b 0 through toolbench's
// Zendesk MCP server, replay identical, bypassed writes fail.

const dirs = findScenarios(join('scenarios', 'business')).filter((dir) => dir.includes('/zendesk/'));

/** The credential is the account's API token and the email of one of its agents. */
function credentialOk(world: World, credential: unknown): boolean {
  const state = world.state(['zendesk']).zendesk!;
  const account = state.account?.account as { subdomain: string; api_tokens: string[] } | undefined;
  const { subdomain, email, token } = (credential ?? {}) as Record<string, string>;
  const users = Object.values(state.users ?? {}) as { email: string; role: string }[];
  return account !== undefined && account.subdomain === subdomain && account.api_tokens.includes(token ?? '')
    && users.some((u) => u.email === email && u.role !== 'end-user');
}

const manifests = scenarioSuite({ service: 'zendesk', dirs, credentialOk, operationNames: zendeskService.kit.operations.map((operation) => operation.name) });

scenarioSetSuite('Zendesk', 'zendesk', manifests, { collection: 'tickets', min: 40, what: 'a non-trivial help desk' });
