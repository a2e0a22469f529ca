import test from 'ava';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { join } from 'node:path';
import { readSnapshots } from '../catalog/snapshots.js';
import { startStack, type Stack } from '../catalog/stack.js';
import { ROUTER_TOOLS } from '../catalog/router/tools.js';
import { verifyJournal } from '../replay/verify.js';
import { journalEntries, journalMcpRecords } from './helpers/mcp-stack.js';
import { tempDir } from './helpers/journal.js';
import { testCaDir } from './helpers/proxy.js';

// Two services, two real MCP servers (Zendesk's native one, Stripe's pinned @stripe/mcp), one router over both.
const SCENARIO = 'scenarios/business/cross/zendesk-refund-disputed-charge';
const journalDir = join(tempDir('toolbench-router-'), 'journal');
let stack: Stack;
let router: Client;
let zendesk: Client;

const connect = async (url: string) => {
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
};
const text = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;
const search = async (query: string, limit?: number) =>
  JSON.parse(text(await router.callTool({ name: 'search_tools', arguments: { query, ...(limit ? { limit } : {}) } }))) as
    { query: string; matched: number; tools: { name: string; endpoint: string; tool: string; description?: string; inputSchema: unknown }[] };

test.before(async () => {
  stack = await startStack({ scenarioDir: SCENARIO, journalDir, ports: 'ephemeral', caDir: testCaDir(), endpoints: true, router: true });
  router = await connect(stack.addresses().router!);
  zendesk = await connect(stack.addresses().mcp.zendesk!);
});
test.after.always(async () => {
  await router?.close();
  await zendesk?.close();
  await stack?.close();
});

test.serial('the router lists exactly its two tools, and only its own bridge speaks for it', async (t) => {
  t.deepEqual(Object.keys(stack.addresses().mcp).sort(), ['stripe', 'zendesk'], 'the router is no endpoint of the scenario');
  t.regex(stack.addresses().router!, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  const { tools } = await router.listTools();
  t.deepEqual(tools, ROUTER_TOOLS);
  t.is(router.getServerVersion()?.name, 'toolbench-router');
});

test.serial('search_tools ranks the started endpoints\' tools and returns their full snapshot definitions', async (t) => {
  const found = await search('refund a charge', 3);
  t.is(found.tools.length, 3);
  t.like(found.tools[0], { name: 'stripe__create_refund', endpoint: 'stripe', tool: 'create_refund' });
  const snapshot = readSnapshots().find((s) => s.endpoint === 'stripe')!.tools.find((tool) => tool.name === 'create_refund')!;
  t.deepEqual(found.tools[0]!.inputSchema, snapshot.inputSchema);
  t.is(found.tools[0]!.description, snapshot.description as string);
  const every = await search('list get update create', 50);
  t.true(every.matched > 0);
  t.deepEqual([...new Set(every.tools.map((tool) => tool.endpoint))].sort(), ['stripe', 'zendesk'], 'only endpoints this trial started');
  t.deepEqual(await search('refund a charge', 3), found, 'the same search, the same answer');
  const bad = await router.callTool({ name: 'search_tools', arguments: { query: '   ' } });
  t.true(bad.isError);
});

test.serial('call_tool runs a real server\'s tool: the world requests are the endpoint\'s, its MCP record says via router', async (t) => {
  const before = (await journalEntries(stack.world.journal)).length;
  const result = await router.callTool({ name: 'call_tool', arguments: { name: 'zendesk__get_ticket', arguments: { ticket_id: 2207 } } }) as CallToolResult;
  t.falsy(result.isError, text(result));
  t.regex(text(result), /WS-5524/);
  const made = (await journalEntries(stack.world.journal)).slice(before);
  t.true(made.length > 0);
  for (const entry of made) {
    t.like(entry, { service: 'zendesk', attribution: { kind: 'mcp', endpoint: 'zendesk', tool: 'get_ticket' } });
    t.regex(entry.attribution!.callId!, /^zendesk#\d+$/);
  }
  const records = await journalMcpRecords(stack.world.journal);
  const call = records.find((r) => r.callId === made[0]!.attribution!.callId)!;
  t.like(call, { endpoint: 'zendesk', kind: 'call', tool: 'get_ticket', arguments: { ticket_id: 2207 }, via: 'router', isError: false });
  t.true(call.worldSeqBefore < made[0]!.seq && made.at(-1)!.seq <= call.worldSeqAfter);
  const searches = records.filter((r) => r.endpoint === 'router');
  t.true(searches.length >= 4);
  t.true(searches.every((r) => r.kind === 'call' && r.worldSeqBefore === r.worldSeqAfter && /^router#\d+$/.test(r.callId!)));
  t.true(searches.some((r) => r.tool === 'search_tools' && (r.arguments as { query: string }).query === 'refund a charge'));
});

test.serial('a write through the router changes the world; a direct call to the endpoint\'s bridge has no via', async (t) => {
  const refund = await router.callTool({ name: 'call_tool', arguments: { name: 'stripe__create_refund', arguments: { payment_intent: 'pi_VwMxqmQa03oU9mrmv1i0F5gx' } } }) as CallToolResult;
  t.falsy(refund.isError, text(refund));
  const refunds = Object.values(stack.world.state(['stripe']).stripe!.refunds ?? {}) as { payment_intent: string; amount: number }[];
  t.like(refunds.find((r) => r.payment_intent === 'pi_VwMxqmQa03oU9mrmv1i0F5gx'), { amount: 12900 });
  const direct = await zendesk.callTool({ name: 'get_ticket', arguments: { ticket_id: 2208 } });
  t.falsy(direct.isError);
  const records = await journalMcpRecords(stack.world.journal);
  t.like(records.find((r) => r.endpoint === 'stripe' && r.tool === 'create_refund'), { via: 'router', isError: false });
  const plain = records.find((r) => r.endpoint === 'zendesk' && (r.arguments as { ticket_id?: number } | null)?.ticket_id === 2208)!;
  t.false('via' in plain, 'an agent\'s own call keeps the record shape it always had');
});

test.serial('call_tool refuses a name that is not qualified or not routed; the refusal is journaled under the router', async (t) => {
  const before = (await journalEntries(stack.world.journal)).length;
  for (const name of ['get_ticket', 'github__create_issue', 'zendesk__no_such_tool']) {
    const result = await router.callTool({ name: 'call_tool', arguments: { name, arguments: {} } }) as CallToolResult;
    t.true(result.isError, name);
    t.regex(text(result), /search_tools returned/);
  }
  t.true((await router.callTool({ name: 'call_tool', arguments: { arguments: {} } })).isError, 'no name');
  await t.throwsAsync(router.callTool({ name: 'no_such_router_tool', arguments: {} }), { message: /not found/ });
  t.is((await journalEntries(stack.world.journal)).length, before, 'no world request');
  const refused = (await journalMcpRecords(stack.world.journal)).filter((r) => r.endpoint === 'router' && r.tool === 'call_tool');
  t.is(refused.length, 4);
  t.true(refused.every((r) => r.isError));
});

test.serial('the journal replays identically (last: it closes the stack)', async (t) => {
  await router.close();
  await zendesk.close();
  await stack.close();
  const report = await verifyJournal(journalDir);
  t.is(report.verdict, 'identical', JSON.stringify(report.firstDivergence));
});
