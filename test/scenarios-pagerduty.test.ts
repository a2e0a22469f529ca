import test from 'ava';
import { join } from 'node:path';
import { gradeWorld } from '../scenarios/grade-world.js';
import { findScenarios } from '../scenarios/validate.js';
import { openWorld } from '../scenarios/world.js';
import { pagerdutyService } from '../mocks/pagerduty/index.js';
import { scenarioSetSuite, scenarioSuite } from './helpers/scenario-suite.js';

// Every PagerDuty scenario of the ops group (helpers/scenario-suite): valid (oracle arguments
// against the server's input schemas), nop 0, oracle 1 with R_b 0 through toolbench's PagerDuty
// MCP server, replay identical; and near misses (the other checkout incident, Payments
// Secondary) score 0.

const dirs = findScenarios(join('scenarios', 'ops')).filter((dir) => dir.includes('/pagerduty/'));
const manifests = scenarioSuite({
  service: 'pagerduty',
  dirs,
  credentialOk: (world, credential) => {
    const token = world.state(['pagerduty']).pagerduty?.tokens?.[credential as string] as { user_id: string | null } | undefined;
    return token !== undefined && token.user_id !== null;
  },
  operationNames: pagerdutyService.kit.operations.map((operation) => operation.name),
});

scenarioSetSuite('PagerDuty', 'pagerduty', manifests, [
  { collection: 'incidents', min: 9, what: 'a non-trivial account (incidents)' },
  { collection: 'users', min: 7, what: 'a non-trivial account (users)' },
]);

/** A near miss straight through the API (as an agent with the wrong pick would make it) scores 0. */
test('near misses score 0: the checkout latency incident, Payments Secondary', async (t) => {
  const cases: [string, string, string, unknown][] = [
    ['ops/pagerduty/ack-checkout-errors', 'PUT', '/incidents', { incidents: [{ id: 'PINC202', type: 'incident_reference', status: 'acknowledged' }] }],
    ['ops/pagerduty/override-payments-primary', 'POST', '/schedules/PSPAY02/overrides', { overrides: [{ start: '2025-03-07T09:00:00Z', end: '2025-03-08T09:00:00Z', user: { id: 'PU0DEV4', type: 'user_reference' } }] }],
  ];
  for (const [id, method, path, body] of cases) {
    const dir = join('scenarios', id);
    const manifest = manifests.get(dir)!;
    const opened = await openWorld({ scenarioDir: dir });
    try {
      const response = await opened.world.dispatch({ host: 'api.pagerduty.com', method, target: path, body: new TextEncoder().encode(JSON.stringify(body)),
        headers: [['Authorization', `Token token=${manifest.credentials.pagerduty as string}`], ['Content-Type', 'application/json']] });
      t.true(response.status < 300, `${id}: ${response.status} ${new TextDecoder().decode(response.body)}`);
      const result = await gradeWorld(opened, { agent: 'near-miss', answer: manifest.oracle.answer, output: '', exit: { code: 0, signal: null }, interrupted: false });
      t.is(result.reward, 0, `${id}: ${path}`);
    } finally {
      await opened.world.journal.close();
    }
  }
});
