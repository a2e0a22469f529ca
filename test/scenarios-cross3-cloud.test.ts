import test from 'ava';
import { join } from 'node:path';
import { mongodbAtlasService } from '../mocks/mongodb-atlas/index.js';
import { isRestWrite, scenarioSuite } from './helpers/scenario-suite.js';
import { nearMissOverMcp, nearMissTest } from './helpers/near-miss-mcp.js';
import { linearCredentialOk } from './helpers/cross3.js';

// The third set's cloud scenario (issue 20): a Linear ticket asks for an Atlas access-list entry
// and a later comment corrects the address. Valid, nop 0, oracle 1 with R_b 0 over the real MCP
// servers, replay identical, bypassed writes fail (helpers/scenario-suite); near misses score 0.

const dir = join('scenarios', 'cloud', 'cross', 'office-ip-correction-atlas-linear');
const office = scenarioSuite({
  service: 'mongodb-atlas',
  services: ['linear', 'mongodb-atlas'],
  dirs: [dir],
  credentialOk: (world, credential) => {
    const accounts = world.state(['mongodb-atlas'])['mongodb-atlas']?.service_accounts as Record<string, { clientSecret: string }> | undefined;
    const { client_id: id, client_secret: secret } = credential as { client_id: string; client_secret: string };
    return accounts?.[id]?.clientSecret === secret && linearCredentialOk(world, 'lin_api_samAcmeInfraXXXXXXXXXXXXXXXXXXXX');
  },
  operationNames: mongodbAtlasService.kit.operations.map((operation) => operation.name),
  // Logging in and out (Atlas's OAuth token endpoint) changes no state.
  isWrite: (entry) => isRestWrite(entry) && !entry.target.startsWith('/api/oauth/'),
  // mongodb-mcp-server revokes its access token as it shuts down.
  shutdownRequests: 1,
}).get(dir)!;

const withIp = (ip: string) => (call: Parameters<Parameters<typeof nearMissOverMcp>[2]>[0]) => {
  if (call.tool === 'atlas-create-access-list') return { ...call, arguments: { ...call.arguments, ipAddresses: [ip] } };
  if (call.tool === 'linear_createComment') return { ...call, arguments: { ...call.arguments, body: `Added ${ip}/32 ("Berlin office") to the payments-prod Atlas access list.` } };
  return call;
};

nearMissTest(test.serial)(`${office.id}: an agent that takes the description's address (the temporary .70) and misses the correction scores 0`, async (t) => {
  const { result, state, failed } = await nearMissOverMcp(dir, office, withIp('198.51.100.70'));
  const entries = Object.values(state['mongodb-atlas']!.access_list!) as { groupId: string; ipAddress?: string }[];
  t.true(entries.some((e) => e.groupId === '65b2a1c3d4e5f60718293a01' && e.ipAddress === '198.51.100.70'), 'the wrong address was really added');
  t.is(result.reward, 0);
  t.false(result.forbidden_calls_ok);
  t.deepEqual(failed, [
    'the final office IP is on payments-prod\'s access list, commented',
    'no entry for the temporary cut-over address (198.51.100.70) anywhere',
    'one new comment by Sam on INF-88 names the address added',
    'the temporary address is not added',
  ]);
});

nearMissTest(test.serial)(`${office.id}: an agent that adds the right address to the look-alike payments-prod-eu scores 0`, async (t) => {
  const { result, failed } = await nearMissOverMcp(dir, office, (call) => (call.tool === 'atlas-create-access-list'
    ? { ...call, arguments: { ...call.arguments, projectId: '65b2a1c3d4e5f60718293a03' } }
    : call));
  t.is(result.reward, 0);
  t.false(result.forbidden_calls_ok);
  t.true(failed.includes('the final office IP is on payments-prod\'s access list, commented'));
  t.true(failed.includes('no entry for the office IP on the look-alike payments-prod-eu or on staging'));
  t.true(failed.includes('the entry is added to payments-prod through the Atlas MCP server'));
});

nearMissTest(test.serial)(`${office.id}: an agent that does the work but leaves INF-88 open scores 0`, async (t) => {
  const { result, failed } = await nearMissOverMcp(dir, office, (call) => (call.tool === 'linear_updateIssue' ? null : call));
  t.is(result.reward, 0);
  t.true(result.forbidden_calls_ok);
  t.deepEqual(failed, ['INF-88 is Done', 'INF-88 is moved to Done through the Linear MCP server']);
});
