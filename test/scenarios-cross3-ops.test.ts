import test from 'ava';
import { join } from 'node:path';
import { launchdarklyService } from '../mocks/launchdarkly/index.js';
import { scenarioSuite } from './helpers/scenario-suite.js';
import { nearMissOverMcp, nearMissTest, type OracleCall } from './helpers/near-miss-mcp.js';

// The third set's ops scenario (issue 20): a Sentry crash that only happens behind a LaunchDarkly
// flag; the flag is turned off in production and the crash resolved. Valid, nop 0, oracle 1 with
// R_b 0 over the real MCP servers, replay identical, bypassed writes fail (helpers/scenario-suite);
// near-miss agents score 0.

const dir = join('scenarios', 'ops', 'cross', 'gift-card-crash-flag-off');
const crash = scenarioSuite({
  service: 'launchdarkly',
  services: ['launchdarkly', 'sentry'],
  dirs: [dir],
  credentialOk: (world, credential) => {
    const token = world.state(['launchdarkly']).launchdarkly?.tokens?.[credential as string] as { role: string } | undefined;
    const members = Object.values(world.state(['sentry']).sentry?.members ?? {}) as { tokens?: string[] }[];
    return token !== undefined && token.role !== 'reader' && members.some((m) => m.tokens?.includes('sntryu_web_oncall_giftcard_000000000000000'));
  },
  operationNames: launchdarklyService.kit.operations.map((operation) => operation.name),
}).get(dir)!;

const flagOff = (call: OracleCall, project: string, key: string): OracleCall => {
  const request = (call.arguments as { request: Record<string, unknown> }).request;
  return { ...call, arguments: { request: { ...request, projectKey: project, featureFlagKey: key } } };
};

nearMissTest(test.serial)(`${crash.id}: an agent that blames express-shipping (on in some crashing events) scores 0`, async (t) => {
  const { result, state, failed } = await nearMissOverMcp(dir, crash, (call) => (call.tool === 'update-feature-flag' ? flagOff(call, 'storefront', 'express-shipping') : call));
  const flag = state.launchdarkly!.flags!['storefront/express-shipping'] as { environments: { production: { on: boolean } } };
  t.false(flag.environments.production.on, 'express-shipping really went off');
  t.is(result.reward, 0);
  t.false(result.forbidden_calls_ok);
  t.deepEqual(failed, [
    'the storefront\'s gift-card-redeem is off in production',
    'express-shipping, gift-cards and gift-card-banner stay on in production',
    'the flag is turned off through the LaunchDarkly MCP server',
    'not express-shipping, on in only some of the crashing events',
  ]);
});

nearMissTest(test.serial)(`${crash.id}: an agent that turns off the mobile app's flag of the same key scores 0`, async (t) => {
  const { result, failed } = await nearMissOverMcp(dir, crash, (call) => (call.tool === 'update-feature-flag' ? flagOff(call, 'mobile-app', 'gift-card-redeem') : call));
  t.is(result.reward, 0);
  t.false(result.forbidden_calls_ok);
  t.true(failed.includes('the mobile app\'s gift-card-redeem stays on'));
  t.true(failed.includes('not the mobile app\'s flag with the same key'));
});

nearMissTest(test.serial)(`${crash.id}: an agent that resolves the staging twin STOREFRONT-WEB-D instead scores 0`, async (t) => {
  const { result, failed } = await nearMissOverMcp(dir, crash, (call) => (call.tool === 'update_issue' ? { ...call, arguments: { ...call.arguments, issueId: 'STOREFRONT-WEB-D' } } : call));
  t.is(result.reward, 0);
  t.false(result.forbidden_calls_ok);
  t.true(failed.includes('the production crash is resolved'));
  t.true(failed.includes('the staging twin stays unresolved'));
});
