import test from 'ava';
import { join } from 'node:path';
import { isRestWrite, scenarioSuite } from './helpers/scenario-suite.js';
import { nearMissOverMcp, nearMissTest } from './helpers/near-miss-mcp.js';
import { linearCredentialOk } from './helpers/cross3.js';

// The third set's search scenario (issue 20): a fact found on the web with Exa and answered on the
// Linear issue that asks. Valid, nop 0, oracle 1 with R_b 0 over the real MCP servers, replay
// identical, bypassed writes fail (helpers/scenario-suite); near-miss agents score 0.

const dir = join('scenarios', 'search', 'cross', 'pyrite-kwarg-linear-answer');
const pyrite = scenarioSuite({
  service: 'linear',
  services: ['exa', 'linear'],
  dirs: [dir],
  credentialOk: linearCredentialOk,
  // Exa reads by POST: only research and agent runs are writes there.
  isWrite: (e) => (e.service === 'exa' ? ['research.create', 'agent.runs.create'].includes(e.operation?.name ?? '') && e.response.status < 300 : isRestWrite(e)),
}).get(dir)!;

const PLAT17 = '7ae02e69-a440-461f-b644-728f811c2feb';

nearMissTest(test.serial)(`${pyrite.id}: an agent that trusts the 2021 answer (retry_delay) scores 0`, async (t) => {
  const { result, failed } = await nearMissOverMcp(dir, pyrite, (call) => (call.tool === 'linear_createComment'
    ? { ...call, arguments: { ...call.arguments, body: 'Use `retry_delay=0.5` on `pyrite.Client` (https://stackanswers.example/q/88123/pyrite-client-retry-delay).' } }
    : call), 'kwarg=retry_delay');
  t.is(result.reward, 0);
  t.true(result.forbidden_calls_ok);
  t.deepEqual(failed, [
    'one new comment by Priya on PLAT-41 names backoff_factor',
    'and links pyrite-dev/pyrite\'s README or migration guide',
    'backoff_factor',
  ]);
});

nearMissTest(test.serial)(`${pyrite.id}: an agent that takes pyrite-http's keyword (backoff) scores 0`, async (t) => {
  const { result, failed } = await nearMissOverMcp(dir, pyrite, (call) => (call.tool === 'linear_createComment'
    ? { ...call, arguments: { ...call.arguments, body: 'pyrite 3 calls it `backoff` now (https://github.com/hexa-io/pyrite-http).' } }
    : call), 'kwarg=backoff');
  t.is(result.reward, 0);
  t.deepEqual(failed, [
    'one new comment by Priya on PLAT-41 names backoff_factor',
    'and links pyrite-dev/pyrite\'s README or migration guide',
    'backoff_factor',
  ]);
});

nearMissTest(test.serial)(`${pyrite.id}: an agent that answers on the closed look-alike PLAT-17 scores 0`, async (t) => {
  const { result, state, failed } = await nearMissOverMcp(dir, pyrite, (call) => (call.tool === 'linear_createComment'
    ? { ...call, arguments: { ...call.arguments, issueId: PLAT17 } }
    : call));
  const comments = Object.values(state.linear!.Comment!) as { issueId: string; body: string }[];
  t.true(comments.some((c) => c.issueId === PLAT17 && c.body.includes('backoff_factor')), 'the comment did land on PLAT-17');
  t.is(result.reward, 0);
  t.false(result.forbidden_calls_ok);
  t.true(result.r_b > 0, `r_b ${result.r_b}`);
  t.deepEqual(failed, [
    'one new comment by Priya on PLAT-41 names backoff_factor',
    'and links pyrite-dev/pyrite\'s README or migration guide',
    'no comment by Priya anywhere else (not on the closed PLAT-17)',
    'the reply on PLAT-41 goes through the Linear MCP server',
    'no comment on the closed look-alike PLAT-17',
  ]);
});
