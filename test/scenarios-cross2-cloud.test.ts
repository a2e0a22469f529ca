import test from 'ava';
import { join } from 'node:path';
import type { World } from '../mocks/core/world.js';
import { atlassianService } from '../mocks/atlassian/index.js';
import { scenarioSuite } from './helpers/scenario-suite.js';
import { nearMissOverMcp } from './helpers/near-miss-mcp.js';

// The second set of cloud cross-service scenarios (issue 20). Each: valid, nop 0, oracle 1 with
// R_b 0 over the real MCP servers, replay identical, bypassed writes fail (helpers/scenario-suite);
// and near-miss agents, the oracle's calls over MCP with one tempting wrong choice, score 0.

const atlassianCredentialOk = (world: World, credential: unknown): boolean => {
  const state = world.state().atlassian!;
  const c = credential as { site?: string; email?: string; token?: string };
  const site = (state.site?.site as { name?: string } | undefined)?.name;
  return c.site === site && `${(c.email ?? '').toLowerCase()}:${c.token}` in (state.tokens ?? {});
};

// Confluence and AWS: the current runbook names the live exports bucket and what private means.
const runbookDir = join('scenarios', 'cloud', 'cross', 'runbook-bucket-made-private');
const runbook = scenarioSuite({
  service: 'atlassian',
  services: ['atlassian', 'aws'],
  endpoints: ['confluence', 'aws'],
  dirs: [runbookDir],
  credentialOk: atlassianCredentialOk,
  operationNames: atlassianService.kit.operations.map((operation) => operation.name),
}).get(runbookDir)!;

test(`${runbook.id}: an agent that follows the archived 2023 runbook and locks the retired bucket scores 0`, async (t) => {
  const { result, failed } = await nearMissOverMcp(runbookDir, runbook, (call) => {
    if (call.endpoint === 'aws') return { ...call, arguments: { ...call.arguments, bucket: 'lsp-customer-exports' } };
    if (call.tool === 'read_confluence_page') return { ...call, arguments: { pageId: '65024' } };
    return call;
  });
  t.is(result.reward, 0);
  t.false(result.forbidden_calls_ok);
  t.true(failed.includes('Block Public Access is fully on for the live exports bucket'));
  t.true(failed.includes('the retired bucket the archived runbook names is left alone (PUT)'));
});

test(`${runbook.id}: an agent that only turns on Block Public Access (the ACL and policy left public) scores 0`, async (t) => {
  const { result, failed } = await nearMissOverMcp(runbookDir, runbook, (call) => (['put_bucket_acl', 'delete_bucket_policy'].includes(call.tool) ? null : call));
  t.is(result.reward, 0);
  t.true(result.forbidden_calls_ok);
  t.deepEqual(failed, ['its ACL is private (the owner only)', 'its public policy is gone', 'its ACL is made private', 'its policy is deleted']);
});

test(`${runbook.id}: an agent that also "tidies" the docs bucket and comments on the archived runbook scores 0`, async (t) => {
  const { result, failed } = await nearMissOverMcp(runbookDir, runbook, (call) => {
    if (call.tool === 'put_bucket_acl') return [call, { ...call, arguments: { ...call.arguments, bucket: 'lsp-customer-exports-docs' } }];
    if (call.tool === 'add_confluence_comment') return { ...call, arguments: { ...call.arguments, pageId: '65024' } };
    return call;
  });
  t.is(result.reward, 0);
  t.false(result.forbidden_calls_ok);
  t.true(result.r_b > 0, `r_b ${result.r_b}`);
  t.deepEqual(failed, [
    'the docs bucket is still public',
    'one new comment by Tom on the current runbook names the bucket',
    'the comment is added through the MCP server',
    'nothing changes on the look-alike docs bucket (PUT)',
    'no comment on the archived runbook',
  ]);
});
