import test from 'ava';
import { join } from 'node:path';
import { circleciService } from '../mocks/circleci/index.js';
import { scenarioSuite } from './helpers/scenario-suite.js';
import { nearMissOverMcp, nearMissTest } from './helpers/near-miss-mcp.js';
import { linearCredentialOk } from './helpers/cross3.js';

// The third set's code scenario (issue 20): main is red in CircleCI and the failing test of its
// latest pipeline is filed in Linear unless an open issue covers it. Valid, nop 0, oracle 1 with
// R_b 0 over the real MCP servers, replay identical, bypassed writes fail (helpers/scenario-suite);
// near-miss agents score 0.

const dir = join('scenarios', 'code', 'cross', 'red-main-circleci-linear-bug');
const red = scenarioSuite({
  service: 'circleci',
  services: ['circleci', 'linear'],
  dirs: [dir],
  credentialOk: (world, token) => world.state(['circleci']).circleci?.tokens?.[token as string] !== undefined && linearCredentialOk(world, 'lin_api_rosaAcmePaymentsXXXXXXXXXXXXXXX'),
  operationNames: circleciService.kit.operations.map((operation) => operation.name),
}).get(dir)!;

const ENG51 = '41188445-bd76-42d3-b567-a4c80a81612c';
const ENG33 = 'b237beb6-0f7d-4385-8479-a65f6bba18f9';

nearMissTest(test.serial)(`${red.id}: an agent that files the earlier pipeline's flaky failure (106, "refunds an order") scores 0`, async (t) => {
  const { result, failed } = await nearMissOverMcp(dir, red, (call) => (call.tool === 'linear_createIssue'
    ? { ...call, arguments: { ...call.arguments, title: 'main is red: orders.spec.ts "refunds an order" fails', description: 'CircleCI payments-api main, pipeline 106, integration-tests: Error: connect ECONNREFUSED 127.0.0.1:5432' } }
    : call));
  t.is(result.reward, 0);
  t.true(result.forbidden_calls_ok);
  t.deepEqual(failed, ['a new ENG bug names the failing test', 'and its error', 'and the pipeline']);
});

nearMissTest(test.serial)(`${red.id}: an agent that comments on the open flaky-test issue ENG-51 instead of filing a bug scores 0`, async (t) => {
  const { result, state, failed } = await nearMissOverMcp(dir, red, (call) => (call.tool === 'linear_createIssue'
    ? { endpoint: 'linear', tool: 'linear_createComment', arguments: { issueId: ENG51, body: 'Failed again on main, pipeline 107: "applies partial refund tax", AssertionError: expected 1250 to equal 1238.' } }
    : call));
  const comments = Object.values(state.linear!.Comment!) as { issueId: string }[];
  t.true(comments.some((c) => c.issueId === ENG51), 'the comment did land on ENG-51');
  t.is(result.reward, 0);
  t.false(result.forbidden_calls_ok);
  t.true(failed.includes('a new ENG bug names the failing test'));
  t.true(failed.includes('no comment on the flaky-test issue ENG-51'));
});

nearMissTest(test.serial)(`${red.id}: an agent that reports the failure on the September look-alike ENG-33 (Done) scores 0`, async (t) => {
  const { result, failed } = await nearMissOverMcp(dir, red, (call) => (call.tool === 'linear_createIssue'
    ? { endpoint: 'linear', tool: 'linear_createComment', arguments: { issueId: ENG33, body: 'Back on main, pipeline 107: AssertionError: expected 1250 to equal 1238.' } }
    : call));
  t.is(result.reward, 0);
  t.false(result.forbidden_calls_ok);
  t.true(failed.includes('no comment on the closed ENG-33'));
  t.true(failed.includes('exactly one new issue in ENG'));
});
