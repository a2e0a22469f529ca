import test from 'ava';
import { join } from 'node:path';
import { atlassianService } from '../mocks/atlassian/index.js';
import { zendeskService } from '../mocks/zendesk/index.js';
import { scenarioSuite } from './helpers/scenario-suite.js';
import { atlassianCredentialOk, isWriteButSelect, zendeskCredentialOk } from './helpers/cross-checks.js';
import { nearMissOverMcp, nearMissTest, type OracleCall } from './helpers/near-miss-mcp.js';

// The second set of cloud cross-service scenarios (issue 20). Each: valid, nop 0, oracle 1 with
// R_b 0 over the real MCP servers, replay identical, bypassed writes fail (helpers/scenario-suite);
// and near-miss agents, the oracle's calls over MCP with one tempting wrong choice, score 0.

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

nearMissTest()(`${runbook.id}: an agent that follows the archived 2023 runbook and locks the retired bucket scores 0`, async (t) => {
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

nearMissTest()(`${runbook.id}: an agent that only turns on Block Public Access (the ACL and policy left public) scores 0`, async (t) => {
  const { result, failed } = await nearMissOverMcp(runbookDir, runbook, (call) => (['put_bucket_acl', 'delete_bucket_policy'].includes(call.tool) ? null : call));
  t.is(result.reward, 0);
  t.true(result.forbidden_calls_ok);
  t.deepEqual(failed, ['its ACL is private (the owner only)', 'its public policy is gone', 'its ACL is made private', 'its policy is deleted']);
});

nearMissTest()(`${runbook.id}: an agent that also "tidies" the docs bucket and comments on the archived runbook scores 0`, async (t) => {
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

// Zendesk and Supabase: a customer's unsubscribe request fixed in the production database.
const unsubscribeDir = join('scenarios', 'cloud', 'cross', 'zendesk-unsubscribe-supabase-row');
const unsubscribe = scenarioSuite({
  service: 'zendesk',
  services: ['supabase', 'zendesk'],
  dirs: [unsubscribeDir],
  credentialOk: zendeskCredentialOk,
  operationNames: zendeskService.kit.operations.map((operation) => operation.name),
  isWrite: isWriteButSelect,
}).get(unsubscribeDir)!;

const sql = (project: string, query: string): OracleCall => ({ endpoint: 'supabase', tool: 'execute_sql', arguments: { project_id: project, query } });

nearMissTest()(`${unsubscribe.id}: an agent that matches her by name (catching Rosa Ruiz Diaz too) scores 0`, async (t) => {
  const { result, failed } = await nearMissOverMcp(unsubscribeDir, unsubscribe, (call) => (String(call.arguments.query ?? '').startsWith('update')
    ? sql('qzvhtkcwmfyrplxdnsoa', "update customers set marketing_opt_in = false where full_name ilike 'rosa ruiz%' returning id")
    : call));
  t.is(result.reward, 0);
  t.true(result.forbidden_calls_ok);
  t.deepEqual(failed, ['the look-alike Rosa Ruiz Diaz stays opted in']);
});

nearMissTest()(`${unsubscribe.id}: an agent that fixes the staging copy instead of production scores 0`, async (t) => {
  const { result, failed } = await nearMissOverMcp(unsubscribeDir, unsubscribe, (call) => (call.tool === 'execute_sql'
    ? { ...call, arguments: { ...call.arguments, project_id: 'bmnkwpqalsxvdtreyhuc' } }
    : call));
  t.is(result.reward, 0);
  t.false(result.forbidden_calls_ok);
  t.deepEqual(failed, [
    'Rosa\'s production row is opted out of marketing',
    'staging\'s copy is untouched',
    'the row is updated in production through the Supabase MCP server',
    'staging is not written (queries)',
  ]);
});
