import test from 'ava';
import { join } from 'node:path';
import type { World } from '../mocks/core/world.js';
import { notionService } from '../mocks/notion/index.js';
import { slackService } from '../mocks/slack/index.js';
import { isRestWrite, scenarioSuite } from './helpers/scenario-suite.js';
import { nearMissOverMcp, nearMissTest, type OracleCall } from './helpers/near-miss-mcp.js';

// The second set of collab cross-service scenarios (issue 20). Each: valid, nop 0, oracle 1 with
// R_b 0 over the real MCP servers, replay identical, bypassed writes fail (helpers/scenario-suite);
// and near-miss agents, the oracle's calls over MCP with one tempting wrong choice, score 0.

// Google Sheets and Notion: the intake sheet's New rows become Bug Tracker rows, linked back.
const intakeDir = join('scenarios', 'collab', 'cross', 'bug-intake-sheet-to-notion');
const intake = scenarioSuite({
  service: 'notion',
  services: ['google', 'notion'],
  dirs: [intakeDir],
  credentialOk: (world: World, token: unknown) => typeof token === 'string' && token in (world.state(['notion']).notion!.tokens ?? {}),
  operationNames: notionService.kit.operations.map((operation) => operation.name),
  // Notion's search and queries are POSTs that only read.
  isWrite: (entry) => isRestWrite(entry) && !['search', 'dataSources.query'].includes(entry.operation?.name ?? ''),
}).get(intakeDir)!;

const fileBug = (title: string, severity: string, reporter: string, reported: string): OracleCall => ({
  endpoint: 'notion', tool: 'API-post-page',
  arguments: { parent: { database_id: '02ba1c25-2f83-55a5-9b13-f49c6af5643c' }, properties: { Bug: { title: [{ text: { content: title } }] }, Severity: { select: { name: severity } }, Reporter: { people: [{ id: reporter }] }, Reported: { date: { start: reported } }, Fixed: { checkbox: false } } },
});

nearMissTest()(`${intake.id}: an agent that files every row without a Notion link (the duplicate row and Marco's already-filed bug too) scores 0`, async (t) => {
  const { result, failed } = await nearMissOverMcp(intakeDir, intake, (call) => (call.tool === 'API-post-page'
    ? [fileBug('Typo on the pricing page footer', 'S3', '9def87cc-819d-5542-b3e7-bf5689a8e558', '2025-10-03'), call, fileBug('Team invite link 404s', 'S2', '06252c3e-e194-582a-b542-728a2216e22b', '2025-10-06')]
    : call));
  t.is(result.reward, 0);
  t.false(result.forbidden_calls_ok);
  t.deepEqual(failed, [
    'the invite-link bug stays one row',
    'no Notion row for the duplicate row or the Archive tab\'s row',
    'the Bug Tracker has one row more (13)',
    'no second page for the invite-link bug',
  ]);
});

nearMissTest()(`${intake.id}: an agent that takes August's "Login loop on Safari 17" for the Safari 18 bug and only links it scores 0`, async (t) => {
  const { result, failed } = await nearMissOverMcp(intakeDir, intake, (call) => {
    if (call.tool === 'API-post-page') return null;
    if (call.tool === 'updateGoogleSheet') {
      return { ...call, arguments: { ...call.arguments, data: [['Filed', 'https://www.notion.so/Login-loop-on-Safari-17-ffb228f9515f5ecf891bf5f06bb79a93'], ['Filed', 'https://www.notion.so/Team-invite-link-404s-bce1b3f385cd57479fa0dc8deac3a9fd']] } };
    }
    return call;
  });
  t.is(result.reward, 0);
  t.true(result.forbidden_calls_ok);
  t.deepEqual(failed, [
    'one Bug Tracker row for the Safari 18 checkout bug, S1, reported by Lucia on 2025-10-06, not fixed',
    'the Bug Tracker has one row more (13)',
    'row 6 is Filed with the new page\'s URL',
    'the Safari bug is created through the Notion MCP server',
  ]);
});

// Confluence and Slack: the published release notes' highlights, in the thread that asks for them.
const notesDir = join('scenarios', 'collab', 'cross', 'release-notes-confluence-to-slack');
const notes = scenarioSuite({
  service: 'slack',
  services: ['atlassian', 'slack'],
  endpoints: ['confluence', 'slack'],
  dirs: [notesDir],
  credentialOk: (world: World, credential: unknown) => {
    const { token, team_id: team } = (credential ?? {}) as Record<string, string>;
    const state = world.state(['slack']).slack!;
    return token !== undefined && state.tokens?.[token] !== undefined && Object.keys(state.team ?? {}).includes(team ?? '');
  },
  operationNames: slackService.kit.operations.map((operation) => operation.name),
}).get(notesDir)!;

nearMissTest()(`${notes.id}: an agent that posts the draft's highlights (SSO for partner accounts as shipped) scores 0`, async (t) => {
  const { result, failed } = await nearMissOverMcp(notesDir, notes, (call) => {
    if (call.tool === 'read_confluence_page') return { ...call, arguments: { pageId: '65024' } };
    if (call.tool === 'slack_reply_to_thread') {
      return { ...call, arguments: { ...call.arguments, text: '2.14.0 highlights: API rate limits per token, cursor pagination in API v2, SSO for partner accounts. Notes: https://larkspur.atlassian.net/wiki/spaces/ENG/pages/65024' } };
    }
    return call;
  });
  t.is(result.reward, 0);
  t.true(result.forbidden_calls_ok);
  t.deepEqual(failed, [
    'and the webhook signature fix',
    'and links the published page',
    'but not the pulled SSO feature as shipped',
    'the published release notes are read through the Confluence MCP server',
  ]);
});

nearMissTest()(`${notes.id}: an agent that posts the highlights as a new channel message instead of in Tom's thread scores 0`, async (t) => {
  const { result, failed } = await nearMissOverMcp(notesDir, notes, (call) => (call.tool === 'slack_reply_to_thread'
    ? { endpoint: 'slack', tool: 'slack_post_message', arguments: { channel_id: 'C07LRKREL1', text: String(call.arguments.text) } }
    : call));
  t.is(result.reward, 0);
  t.false(result.forbidden_calls_ok);
  t.true(failed.includes('exactly one reply by the bot in Tom\'s thread'));
  t.true(failed.includes('no channel-level message'));
});
