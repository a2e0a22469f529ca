import { join } from 'node:path';
import { findScenarios } from '../scenarios/validate.js';
import { sentryService } from '../mocks/sentry/index.js';
import type { World } from '../mocks/core/world.js';
import { scenarioSetSuite, scenarioSuite } from './helpers/scenario-suite.js';

// Every Sentry scenario of the ops group (helpers/scenario-suite): valid (oracle arguments against
// @sentry/mcp-server's input schemas), nop 0, oracle 1 with R_b 0 through the real server, replay
// identical, bypassed writes fail.

const dirs = findScenarios(join('scenarios', 'ops')).filter((dir) => dir.includes('/sentry/'));

/** The credential is an API token of one of the organization's members. */
function credentialOk(world: World, credential: unknown): boolean {
  const members = Object.values(world.state(['sentry']).sentry?.members ?? {}) as { tokens: string[] }[];
  return typeof credential === 'string' && members.some((m) => m.tokens.includes(credential));
}

const manifests = scenarioSuite({ service: 'sentry', dirs, credentialOk, operationNames: sentryService.kit.operations.map((operation) => operation.name) });

scenarioSetSuite('Sentry', 'sentry', manifests, { collection: 'issues', min: 40, what: 'a non-trivial Sentry organization' });
