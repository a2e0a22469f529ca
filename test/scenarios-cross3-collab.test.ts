import test from 'ava';
import { join } from 'node:path';
import { notionService } from '../mocks/notion/index.js';
import { isRestWrite, scenarioSuite } from './helpers/scenario-suite.js';
import { nearMissOverMcp, nearMissTest, type OracleCall } from './helpers/near-miss-mcp.js';
import { linearCredentialOk } from './helpers/cross3.js';

// The third set's collab scenario (issue 20): a Notion release tracker brought up to date from the
// Linear issues its rows name. Valid, nop 0, oracle 1 with R_b 0 over the real MCP servers, replay
// identical, bypassed writes fail (helpers/scenario-suite); near-miss agents score 0.

const dir = join('scenarios', 'collab', 'cross', 'release-tracker-notion-from-linear');
const tracker = scenarioSuite({
  service: 'notion',
  services: ['linear', 'notion'],
  dirs: [dir],
  credentialOk: (world, token) => typeof token === 'string' && token in (world.state(['notion']).notion!.tokens ?? {}) && linearCredentialOk(world, 'lin_api_priyaAcmeWebReleaseXXXXXXXXXXXX'),
  operationNames: notionService.kit.operations.map((operation) => operation.name),
  // Notion's search and queries are POSTs that only read.
  isWrite: (entry) => isRestWrite(entry) && !['search', 'dataSources.query'].includes(entry.operation?.name ?? ''),
}).get(dir)!;

const EXPRESS_CHECKOUT = 'b44ed05d-6d77-561e-880f-e18853036c67';
const WISHLIST_27 = 'f995a085-3ce9-5d9d-8713-e7c0a7a4769e';
const setStatus = (pageId: string, name: string): OracleCall => ({ endpoint: 'notion', tool: 'API-patch-page', arguments: { page_id: pageId, properties: { Status: { select: { name } } } } });

nearMissTest(test.serial)(`${tracker.id}: an agent that matches Express checkout by title (the mobile MOB-45, Done) and ships it scores 0`, async (t) => {
  const { result, state, failed } = await nearMissOverMcp(dir, tracker, (call) => (call.tool === 'API-patch-page' && (call.arguments as { page_id: string }).page_id === '9ac48df4-a432-52d1-b6cb-1eeaf8874f4c'
    ? [call, setStatus(EXPRESS_CHECKOUT, 'Shipped')]
    : call));
  const page = state.notion!.pages![EXPRESS_CHECKOUT] as { properties: { Status: { select: { name: string } } } };
  t.is(page.properties.Status.select.name, 'Shipped', 'the look-alike really was shipped');
  t.is(result.reward, 0);
  t.false(result.forbidden_calls_ok);
  t.deepEqual(failed, ['Gift wrap and Express checkout stay In progress', 'Express checkout is not marked (WEB-45 is in progress; MOB-45 is the app\'s)']);
});

nearMissTest(test.serial)(`${tracker.id}: an agent that updates the older Release 2.7 tracker's Wishlist row instead scores 0`, async (t) => {
  const { result, failed } = await nearMissOverMcp(dir, tracker, (call) => (call.tool === 'API-patch-page' && (call.arguments as { page_id: string }).page_id === '9ac48df4-a432-52d1-b6cb-1eeaf8874f4c'
    ? setStatus(WISHLIST_27, 'Dropped')
    : call));
  t.is(result.reward, 0);
  t.false(result.forbidden_calls_ok);
  t.true(failed.includes('Wishlist sharing is Dropped'));
  t.true(failed.includes('the Release 2.7 tracker\'s Wishlist row is unchanged'));
});

nearMissTest(test.serial)(`${tracker.id}: an agent that only ships what is Done and leaves the canceled feature Planned scores 0`, async (t) => {
  const { result, failed } = await nearMissOverMcp(dir, tracker, (call) => (call.tool === 'API-patch-page' && (call.arguments as { page_id: string }).page_id === '9ac48df4-a432-52d1-b6cb-1eeaf8874f4c' ? null : call));
  t.is(result.reward, 0);
  t.true(result.forbidden_calls_ok);
  t.deepEqual(failed, ['Wishlist sharing is Dropped', 'Wishlist sharing is updated through the Notion MCP server']);
});
