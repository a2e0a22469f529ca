import { join } from 'node:path';
import { launchdarklyService } from '../mocks/launchdarkly/index.js';
import { pagerdutyService } from '../mocks/pagerduty/index.js';
import { scenarioSuite } from './helpers/scenario-suite.js';

// The ops cross-service scenarios of issue 17. PagerDuty and Sentry: acknowledge the paged
// incident and note on it the Sentry issue behind it. Valid, nop 0, oracle 1 with R_b 0 over
// toolbench's PagerDuty server and the real @sentry/mcp-server, replay identical.

const dir = join('scenarios', 'ops', 'cross', 'pagerduty-ack-link-sentry-issue');
scenarioSuite({
  service: 'pagerduty',
  services: ['pagerduty', 'sentry'],
  dirs: [dir],
  credentialOk: (world, credential) => {
    const token = world.state(['pagerduty']).pagerduty?.tokens?.[credential as string] as { user_id: string | null } | undefined;
    return token !== undefined && token.user_id !== null;
  },
  operationNames: pagerdutyService.kit.operations.map((operation) => operation.name),
});

// The other ops cross-service scenario of issue 17: a Datadog monitor fires and names the rollout
// behind it; the flag is rolled back in LaunchDarkly, through the real Datadog and LaunchDarkly servers.
const rollback = join('scenarios', 'ops', 'cross', 'datadog-monitor-launchdarkly-rollback');
scenarioSuite({
  service: 'launchdarkly',
  services: ['datadog', 'launchdarkly'],
  dirs: [rollback],
  credentialOk: (world, credential) => {
    const token = world.state(['launchdarkly']).launchdarkly?.tokens?.[credential as string] as { role: string } | undefined;
    return token !== undefined && token.role !== 'reader';
  },
  operationNames: launchdarklyService.kit.operations.map((operation) => operation.name),
});
