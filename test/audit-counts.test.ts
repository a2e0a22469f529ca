import test from 'ava';
import { join } from 'node:path';
import { LevelJournal } from '../mocks/core/journal.js';
import type { Attribution, McpRecord } from '../mocks/core/journal-format.js';
import { z } from 'zod';
import { jsonResponse } from '../mocks/core/http.js';
import { get } from '../mocks/core/router.js';
import type { ServiceDefinition } from '../mocks/core/service.js';
import { auditJournal, type Audit } from '../replay/audit.js';
import { collapseIds, routeOf, routesResolver } from '../replay/route.js';
import { openJournal } from '../replay/source.js';
import { tempDir, testHeader } from './helpers/journal.js';
import { toolbench } from './helpers/replay-cli.js';
import { counterWorld, listItems, postItem } from './helpers/replay.js';

const who = (kind: Attribution['kind'], tool: string | null = null, callId: string | null = null): Attribution =>
  ({ kind, client: 'agent', endpoint: kind === 'direct' ? null : 'counter-mcp', tool, callId });

const mcp = (n: number, fields: Partial<McpRecord>): McpRecord => ({
  n, endpoint: 'counter-mcp', kind: 'call', tool: null, callId: null, arguments: {}, result: {}, isError: false, error: null,
  worldSeqBefore: 0, worldSeqAfter: 0, ...fields,
});

/** A trial with every attribution: startup noise, tool calls, a bypass, blocked egress, plain-port calls, a reset. */
async function recordTrial(): Promise<string> {
  const dir = join(tempDir(), 'journal');
  const journal = await LevelJournal.create(dir, testHeader());
  const world = counterWorld(journal);
  for (let i = 0; i < 3; i++) await world.dispatch(listItems({ attribution: who('startup') }));
  await world.dispatch(postItem('a', { attribution: who('mcp', 'create_item', 'c1') }));
  await world.dispatch(postItem('b', { attribution: who('mcp', 'create_item', 'c1') }));
  await world.dispatch(postItem('c', { attribution: who('mcp', 'create_item', 'c2') }));
  await world.dispatch(listItems({ attribution: who('mcp', 'list_items', 'c3') }));
  await world.dispatch(listItems({ target: '/nothing', attribution: who('mcp', 'list_items', 'c4') }));
  await world.dispatch(postItem('sneaky', { attribution: who('direct') }));
  await world.dispatch(listItems({ target: '/items?page=2', attribution: who('direct') }));
  await world.recordBlocked(listItems({ host: 'evil.test', attribution: who('direct') }),
    { status: 403, headers: [], body: new TextEncoder().encode('blocked') });
  await world.reset();
  await world.dispatch(listItems());
  await world.dispatch(postItem('plain'));
  await journal.appendMcp(mcp(1, { kind: 'ready' }));
  await journal.appendMcp(mcp(2, { tool: 'create_item', callId: 'c1' }));
  await journal.appendMcp(mcp(3, { tool: 'create_item', callId: 'c2', isError: true }));
  await journal.appendMcp(mcp(4, { tool: 'list_items', callId: 'c3' }));
  await journal.appendMcp(mcp(5, { tool: 'list_items', callId: 'c4' }));
  await journal.appendMcp(mcp(6, { kind: 'crash', error: 'exit code 1' }));
  await journal.close();
  return dir;
}

function checkAudit(t: import('ava').ExecutionContext, audit: Audit) {
  t.deepEqual(audit.totals, {
    requests: 13, api_calls: 10, mcp: 5, mcp_bypass: 2, startup: 3, blocked: 1, unattributed: 2, errors: 2, resets: 1, faults: 0, noise: 0,
  });
  t.deepEqual(audit.byAttribution, { mcp: 5, direct: 2, startup: 3, blocked: 1, unattributed: 2 });
  t.deepEqual(Object.keys(audit.byService), ['(none)', 'counter']);
  t.like(audit.byService['(none)'], { requests: 1, blocked: 1, api_calls: 1, errors: 1 });
  t.like(audit.byService.counter, { requests: 12, api_calls: 9, mcp: 5, mcp_bypass: 2, startup: 3 });
  t.deepEqual(audit.routes.map((row) => [row.service, row.route, row.requests, row.mcp_bypass]), [
    ['counter', 'GET /items', 6, 1],
    ['counter', 'POST /items', 5, 1],
    ['(none)', 'GET evil.test', 1, 0],
    ['counter', 'GET /nothing', 1, 0],
  ]);
  t.deepEqual(audit.tools, [
    { endpoint: 'counter-mcp', tool: 'create_item', requests: 3, calls: 2, failedCalls: 1 },
    { endpoint: 'counter-mcp', tool: 'list_items', requests: 2, calls: 2, failedCalls: 0 },
  ]);
  t.deepEqual(audit.mcp, { calls: 4, failedCalls: 1, crashes: 1 });
}

test('audit counts api_calls, mcp_bypass, startup and blocked, by service, endpoint and tool', async (t) => {
  const journal = await openJournal(await recordTrial());
  t.teardown(() => journal.close());
  checkAudit(t, await auditJournal(journal));
});

test('toolbench audit --json prints the same numbers; the table names them', async (t) => {
  const dir = await recordTrial();
  const json = await toolbench(['audit', dir, '--json']);
  t.is(json.code, 0, json.stderr);
  checkAudit(t, JSON.parse(json.stdout) as Audit);
  const text = await toolbench(['audit', dir]);
  t.is(text.code, 0, text.stderr);
  t.regex(text.stdout, /api_calls 10 {3}mcp_bypass 2 {3}startup 3 {3}blocked 1/);
  t.regex(text.stdout, /counter-mcp\/create_item\s+2\s+1\s+3/);
  t.false(text.stdout.includes('\u001b['), 'no colour when not a terminal');
});

test('endpoints: route patterns when the service has them, else ids collapsed', (t) => {
  t.is(collapseIds('/repos/acme/web/issues/12/comments'), '/repos/acme/web/issues/:number/comments');
  t.is(collapseIds('/repos/acme/web/git/commits/' + 'a'.repeat(40)), '/repos/acme/web/git/commits/:sha');
  t.is(collapseIds('/v1/charges/ch_3N1xYz2eZvKYlo2C0abc'), '/v1/charges/:id');
  t.is(collapseIds('/v1/items/0f8fad5b-d9cb-469f-a165-70867728950e'), '/v1/items/:uuid');
  t.is(collapseIds('/users/octocat'), '/users/octocat');
  const notFound = () => jsonResponse(404, {});
  const definition: ServiceDefinition = {
    id: 'svc', version: '1', dataset: z.object({}), load() {}, handle: notFound, reject: notFound,
    routes: [get('/repos/:owner/:repo', notFound)],
  };
  const resolve = routesResolver(new Map([['svc', definition]]));
  t.is(routeOf('svc', 'GET', '/repos/acme/web?per_page=5', resolve), 'GET /repos/:owner/:repo');
  t.is(routeOf('svc', 'HEAD', '/repos/acme/web', resolve), 'HEAD /repos/:owner/:repo');
  t.is(routeOf('svc', 'DELETE', '/repos/acme/7', resolve), 'DELETE /repos/acme/:number');
});
