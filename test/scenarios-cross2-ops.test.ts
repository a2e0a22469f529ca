import test from 'ava';
import { join } from 'node:path';
import { atlassianService } from '../mocks/atlassian/index.js';
import { pagerdutyService } from '../mocks/pagerduty/index.js';
import { scenarioSuite } from './helpers/scenario-suite.js';
import { nearMissOverMcp, nearMissTest, type OracleCall } from './helpers/near-miss-mcp.js';
import { atlassianCredentialOk } from './helpers/cross-checks.js';

// The second set of ops cross-service scenarios (issue 20). Each: valid, nop 0, oracle 1 with R_b 0
// over the real MCP servers, replay identical, bypassed writes fail (helpers/scenario-suite); and
// near-miss agents, the oracle's calls over MCP with one tempting wrong choice, score 0.

// Kubernetes and PagerDuty: a hand edit of payments/ledger-config crash-loops the ledger; the
// incident's note says what changed, the config map's last-applied annotation what to go back to.
const ledgerDir = join('scenarios', 'ops', 'cross', 'ledger-configmap-rollback-pagerduty');
const ledger = scenarioSuite({
  service: 'pagerduty',
  services: ['kubernetes', 'pagerduty'],
  dirs: [ledgerDir],
  credentialOk: (world, credential) => {
    const token = world.state(['pagerduty']).pagerduty?.tokens?.[credential as string] as { user_id: string | null } | undefined;
    return token !== undefined && token.user_id !== null && world.state(['kubernetes']).kubernetes?.tokens?.['k8s-oncall-ben'] !== undefined;
  },
  operationNames: pagerdutyService.kit.operations.map((operation) => operation.name),
}).get(ledgerDir)!;

const configMap = (data: Record<string, string>) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ledger-config', namespace: 'payments' }, data });

nearMissTest()(`${ledger.id}: an agent that only adds the missing key (keeping Gus's batch 2000) gets the pods running but scores 0`, async (t) => {
  const { result, state, failed } = await nearMissOverMcp(ledgerDir, ledger, (call) => (call.tool === 'resources_create_or_update'
    ? { ...call, arguments: { resource: configMap({ LEDGER_DB_HOST: 'ledger-db.payments.svc.cluster.local', LEDGER_DATABASE_HOST: 'ledger-db.payments.svc.cluster.local', LEDGER_BATCH: '2000', LEDGER_FLUSH_MS: '250' }) } }
    : call));
  const pods = Object.values(state.kubernetes!.pods!) as { metadata: { namespace: string; labels?: Record<string, string> }; status: { containerStatuses?: { ready: boolean }[] } }[];
  t.is(pods.filter((p) => p.metadata.namespace === 'payments' && p.metadata.labels?.app === 'ledger' && p.status.containerStatuses?.[0]?.ready).length, 2, 'the pods did recover');
  t.is(result.reward, 0);
  t.true(result.forbidden_calls_ok);
  t.deepEqual(failed, ['the config map is back at its last applied configuration (LEDGER_DB_HOST with the production host, batch 500, flush 250)']);
});

nearMissTest()(`${ledger.id}: an agent that copies staging's config map scores 0`, async (t) => {
  const { result, failed } = await nearMissOverMcp(ledgerDir, ledger, (call) => (call.tool === 'resources_create_or_update'
    ? { ...call, arguments: { resource: configMap({ LEDGER_DB_HOST: 'ledger-db.staging.svc.cluster.local', LEDGER_BATCH: '50', LEDGER_FLUSH_MS: '1000' }) } }
    : call));
  t.is(result.reward, 0);
  t.deepEqual(failed, ['the config map is back at its last applied configuration (LEDGER_DB_HOST with the production host, batch 500, flush 250)']);
});

nearMissTest()(`${ledger.id}: an agent that notes and resolves last week's look-alike incident (PINC214) scores 0`, async (t) => {
  const { result, failed } = await nearMissOverMcp(ledgerDir, ledger, (call) => {
    if (call.tool === 'add_note_to_incident') return { ...call, arguments: { ...call.arguments, incident_id: 'PINC214' } };
    if (call.tool === 'manage_incidents') return { ...call, arguments: { manage_request: { incident_ids: ['PINC214'], status: 'resolved' } } };
    return call;
  });
  t.is(result.reward, 0);
  t.false(result.forbidden_calls_ok);
  t.true(result.r_b > 0, `r_b ${result.r_b}`);
  t.true(failed.includes('the paged incident is resolved'));
  t.true(failed.includes('no note on last week\'s look-alike incident'));
});

// Datadog and Jira: each production monitor in Alert without an open OPS issue gets one.
const alertDir = join('scenarios', 'ops', 'cross', 'datadog-alert-jira-ticket');
const alert = scenarioSuite({
  service: 'atlassian',
  services: ['atlassian', 'datadog'],
  endpoints: ['jira', 'datadog'],
  dirs: [alertDir],
  credentialOk: atlassianCredentialOk,
  operationNames: atlassianService.kit.operations.map((operation) => operation.name),
}).get(alertDir)!;

const fileMonitor = (call: OracleCall, name: string, id: number, query: string): OracleCall =>
  ({ ...call, arguments: { ...call.arguments, summary: `Datadog: ${name} (monitor ${id})`, description: `Monitor ${id} is in Alert: ${query}` } });

nearMissTest()(`${alert.id}: an agent that files every production alert (web-03's CPU again, beside its open OPS-6) scores 0`, async (t) => {
  const { result, failed } = await nearMissOverMcp(alertDir, alert, (call) => (call.tool === 'jira_create_issue'
    ? [call, fileMonitor(call, '[prod] CPU high on web-03.prod.larkspur.internal', 4810195, 'avg(last_5m):avg:system.cpu.user{host:web-03.prod.larkspur.internal} > 90')]
    : call));
  t.is(result.reward, 0);
  t.false(result.forbidden_calls_ok);
  t.deepEqual(failed, ['OPS has exactly one issue more (8)', 'no issue for another monitor (web-03\'s CPU has OPS-6; staging is not filed)']);
});

nearMissTest()(`${alert.id}: an agent that also files the staging orders-db disk alert scores 0`, async (t) => {
  const { result, failed } = await nearMissOverMcp(alertDir, alert, (call) => (call.tool === 'jira_create_issue'
    ? [call, fileMonitor(call, '[staging] orders-db disk usage above 90%', 4810098, 'avg(last_15m):avg:system.disk.in_use{env:staging,service:orders-db} by {host} > 0.9')]
    : call));
  t.is(result.reward, 0);
  t.false(result.forbidden_calls_ok);
  t.deepEqual(failed, ['OPS has exactly one issue more (8)', 'no issue for the staging orders-db monitor']);
});
