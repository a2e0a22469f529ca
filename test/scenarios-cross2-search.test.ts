import test from 'ava';
import { join } from 'node:path';
import { operationNames as githubOperationNames } from '../mocks/github/operations.js';
import { googleService } from '../mocks/google/index.js';
import { isRestWrite, scenarioSuite } from './helpers/scenario-suite.js';
import { nearMissOverMcp, nearMissTest } from './helpers/near-miss-mcp.js';

// The search group's cross-service scenarios (issue 20): a fact found on the web and written
// where it was asked for. Each: valid, nop 0, oracle 1 with R_b 0 over the real MCP servers,
// replay identical, bypassed writes fail (helpers/scenario-suite); and near-miss agents, the
// oracle's calls over MCP with one tempting wrong choice, score 0.

// Tavily and GitHub: the newest Quillstack's default pool size, answered on the issue that asks.
const poolDir = join('scenarios', 'search', 'cross', 'pool-default-github-answer');
const pool = scenarioSuite({
  service: 'github',
  services: ['github', 'tavily'],
  dirs: [poolDir],
  credentialOk: (world, token) => typeof token === 'string' && world.state(['github']).github!.tokens![token] !== undefined,
  operationNames: githubOperationNames,
  // Tavily reads by POST: only a research task is a write there.
  isWrite: (e) => (e.service === 'tavily' ? e.operation?.name === 'research.create' && e.response.status < 300 : isRestWrite(e)),
}).get(poolDir)!;

nearMissTest()(`${pool.id}: an agent that trusts the forum's "16 since 3.2" scores 0`, async (t) => {
  const { result, failed } = await nearMissOverMcp(poolDir, pool, (call) => (call.tool === 'add_issue_comment'
    ? { ...call, arguments: { ...call.arguments, body: 'The default `pool.max_connections` is 16 since Quillstack 3.2 (https://devforum.example.org/t/quillstack-default-pool-size/4412), so our override matches it.' } }
    : call), 'default=16 version=3.2 issue=12');
  t.is(result.reward, 0);
  t.true(result.forbidden_calls_ok);
  t.deepEqual(failed, [
    'one new comment by grant-h on #12 gives 25',
    'and names 4.0 as the release that changed it',
    'and links the 4.0 release notes',
    'the current default is 25',
    'introduced in 4.0',
  ]);
});

nearMissTest()(`${pool.id}: an agent that answers on the closed 2024 look-alike question #11 scores 0`, async (t) => {
  const { result, failed } = await nearMissOverMcp(poolDir, pool, (call) => (call.tool === 'add_issue_comment' ? { ...call, arguments: { ...call.arguments, issue_number: 11 } } : call));
  t.is(result.reward, 0);
  t.false(result.forbidden_calls_ok);
  t.true(result.r_b > 0, `r_b ${result.r_b}`);
  t.deepEqual(failed, [
    'one new comment by grant-h on #12 gives 25',
    'and names 4.0 as the release that changed it',
    'and links the 4.0 release notes',
    'no comment about the new default anywhere else (not on the closed #11)',
    'the answer is a comment on #12 through the GitHub MCP server',
    'no comment on the closed look-alike #11',
  ]);
});

// Brave and Google Calendar: a strike the news moved, and the calendar event made from the first report.
const strikeDir = join('scenarios', 'search', 'cross', 'rail-strike-calendar-move');
const strike = scenarioSuite({
  service: 'google',
  services: ['brave', 'google'],
  dirs: [strikeDir],
  credentialOk: (world, token) => typeof token === 'string' && token in (world.state(['google']).google!.tokens ?? {}),
  operationNames: googleService.kit.operations.map((operation) => operation.name),
}).get(strikeDir)!;

nearMissTest()(`${strike.id}: an agent that adds a new event on 19 March instead of moving the old one scores 0`, async (t) => {
  const { result, failed } = await nearMissOverMcp(strikeDir, strike, (call) => (call.tool === 'updateCalendarEvent'
    ? { endpoint: 'google', tool: 'createCalendarEvent', arguments: { summary: 'Meridian Rail strike: work from home', start: { date: '2025-03-19' }, end: { date: '2025-03-20' } } }
    : call));
  t.is(result.reward, 0);
  t.false(result.forbidden_calls_ok);
  t.deepEqual(failed, [
    'the work-from-home day is now 19 March (all day)',
    'one strike event in March 2025',
    'the event is moved through the Google MCP server',
    'no second strike event is created',
  ]);
});

nearMissTest()(`${strike.id}: an agent that moves last year's strike event (5 June 2024) scores 0`, async (t) => {
  const { result, failed } = await nearMissOverMcp(strikeDir, strike, (call) => (call.tool === 'updateCalendarEvent' ? { ...call, arguments: { ...call.arguments, eventId: 'a1strike2024meridian' } } : call));
  t.is(result.reward, 0);
  t.false(result.forbidden_calls_ok);
  t.true(result.r_b > 0, `r_b ${result.r_b}`);
  t.deepEqual(failed, [
    'the work-from-home day is now 19 March (all day)',
    'one strike event in March 2025',
    'last year\'s strike event is left as it was',
    'the event is moved through the Google MCP server',
    'last year\'s event is not touched',
  ]);
});
