import { join } from 'node:path';
import { pagerdutyService } from '../mocks/pagerduty/index.js';
import { scenarioSuite } from './helpers/scenario-suite.js';

// The ops cross-service scenario of PagerDuty and Sentry (issue 17): acknowledge the paged
// incident and note on it the Sentry issue behind it. Valid, nop 0, oracle 1 with R_b 0 over
// toolbench's PagerDuty server and the real @sentry/mcp-server, replay identical.

const dir = join('scenarios', 'ops', 'cross', 'pagerduty-ack-link-sentry-issue');
scenarioSuite({
  service: 'pagerduty',
  services: ['pagerduty', 'sentry'],
  dirs: [dir],
  credentialOk: (world, credential) => {
    const token = world.state().pagerduty?.tokens?.[credential as string] as { user_id: string | null } | undefined;
    return token !== undefined && token.user_id !== null;
  },
  operationNames: pagerdutyService.kit.operations.map((operation) => operation.name),
});
