import test from 'ava';
import { join } from 'node:path';
import { operationNames as githubOperationNames } from '../mocks/github/operations.js';
import { scenarioSuite } from './helpers/scenario-suite.js';
import { nearMissOverMcp, nearMissTest } from './helpers/near-miss-mcp.js';

// The second set of code cross-service scenarios (issue 20). Each: valid, nop 0, oracle 1 with R_b
// 0 over the real MCP servers, replay identical, bypassed writes fail (helpers/scenario-suite); and
// near-miss agents, the oracle's calls over MCP with one tempting wrong choice, score 0.

// Sentry and GitHub: a crash's stack trace becomes an issue linking the line on the release branch.
const crashDir = join('scenarios', 'code', 'cross', 'sentry-crash-github-issue');
const crash = scenarioSuite({
  service: 'github',
  services: ['github', 'sentry'],
  dirs: [crashDir],
  credentialOk: (world, token) => typeof token === 'string' && world.state(['github']).github!.tokens![token] !== undefined,
  operationNames: githubOperationNames,
}).get(crashDir)!;

nearMissTest()(`${crash.id}: an agent that reads the file on main and links main's line 27 scores 0`, async (t) => {
  const { result, failed } = await nearMissOverMcp(crashDir, crash, (call) => {
    if (call.tool === 'get_file_contents') return { ...call, arguments: { owner: 'northwind', repo: 'checkout-api', path: 'src/payments/currency.ts' } };
    if (call.tool === 'create_issue') return { ...call, arguments: { ...call.arguments, body: String(call.arguments.body).replace('blob/release/3.3/', 'blob/main/') } };
    return call;
  });
  t.is(result.reward, 0);
  t.true(result.forbidden_calls_ok);
  t.deepEqual(failed, ['it links the throwing line on the release branch 3.3.0 runs', 'the file is read on the release branch through the GitHub MCP server']);
});

nearMissTest()(`${crash.id}: an agent that reopens the closed look-alike #42 and comments there scores 0`, async (t) => {
  const { result, failed } = await nearMissOverMcp(crashDir, crash, (call) => (call.tool === 'create_issue'
    ? [{ endpoint: 'github', tool: 'update_issue', arguments: { owner: 'northwind', repo: 'checkout-api', issue_number: 42, state: 'open' } },
      { endpoint: 'github', tool: 'add_issue_comment', arguments: { owner: 'northwind', repo: 'checkout-api', issue_number: 42, body: String(call.arguments.body) } }]
    : call), 'Reopened #42 and commented there.');
  t.is(result.reward, 0);
  t.false(result.forbidden_calls_ok);
  t.true(result.r_b > 0, `r_b ${result.r_b}`);
  t.deepEqual(failed, [
    'one new issue in northwind/checkout-api names the Sentry issue',
    'its title names the error',
    'it links the throwing line on the release branch 3.3.0 runs',
    'it is labeled bug',
    'and sentry',
    '#42 stays closed',
    'the issue is opened through the GitHub MCP server',
    'the closed #42 is not reopened or edited',
    'no comment on #42',
    'the answer names the new issue',
  ]);
});

// CircleCI and GitHub: the failing test of a branch's latest pipeline, as a review on its pull request.
const reviewDir = join('scenarios', 'code', 'cross', 'circleci-failure-pr-review');
const review = scenarioSuite({
  service: 'github',
  services: ['circleci', 'github'],
  dirs: [reviewDir],
  credentialOk: (world, token) => typeof token === 'string' && world.state(['github']).github!.tokens![token] !== undefined,
  operationNames: githubOperationNames,
}).get(reviewDir)!;

nearMissTest()(`${review.id}: an agent that reports the branch's earlier failure (pipeline 107's TypeError) scores 0`, async (t) => {
  const { result, failed } = await nearMissOverMcp(reviewDir, review, (call) => (call.tool === 'create_pull_request_review'
    ? { ...call, arguments: { ...call.arguments, body: 'CI is red: "adds gift wrap" fails with TypeError: Cannot read properties of undefined (reading \'price\').' } }
    : call), 'Requested changes on #418: "adds gift wrap" fails with a TypeError.');
  t.is(result.reward, 0);
  t.true(result.forbidden_calls_ok);
  t.deepEqual(failed, ['it names the failing test of the latest pipeline', 'and its error', 'the answer names the failing test']);
});

nearMissTest()(`${review.id}: an agent that requests changes on the other pull request awaiting Devon (#417) scores 0`, async (t) => {
  const { result, failed } = await nearMissOverMcp(reviewDir, review, (call) => (call.tool === 'create_pull_request_review' ? { ...call, arguments: { ...call.arguments, pull_number: 417 } } : call));
  t.is(result.reward, 0);
  t.false(result.forbidden_calls_ok);
  t.true(result.r_b > 0, `r_b ${result.r_b}`);
  t.deepEqual(failed, [
    'one review by Devon on #418 requests changes',
    'it names the failing test of the latest pipeline',
    'and its error',
    '#418 no longer waits for Devon\'s review',
    'no review on another pull request',
    'the review is submitted through the GitHub MCP server, requesting changes',
    'no review on the coupon-stacking pull request',
  ]);
});
