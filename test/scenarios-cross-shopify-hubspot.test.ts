import test from 'ava';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startStack } from '../catalog/stack.js';
import { gradeWorld } from '../scenarios/grade-world.js';
import { hubspotService } from '../mocks/hubspot/index.js';
import type { ScenarioManifest } from '../scenarios/manifest.js';
import { scenarioSuite } from './helpers/scenario-suite.js';
import { testCaDir } from './helpers/proxy.js';

// The cross-service scenario of Shopify and HubSpot: a cancelled, refunded Shopify order closes
// its HubSpot deal as lost. Valid, nop 0, oracle 1 with R_b 0 over both MCP servers, replay
// identical, bypassed writes fail; and two near misses over MCP score 0: closing the same-named,
// same-amount deal of the order that stands, and "tidying" the cancelled order in Shopify.

const dir = join('scenarios', 'business', 'cross', 'shopify-cancelled-order-hubspot-deal');
const manifest = scenarioSuite({
  service: 'hubspot',
  services: ['shopify', 'hubspot'],
  dirs: [dir],
  credentialOk: (world, token) => typeof token === 'string' && token in (world.state().hubspot!.tokens ?? {}),
  operationNames: hubspotService.kit.operations.map((operation) => operation.name),
}).get(dir)!;

type Call = ScenarioManifest['oracle']['calls'][number];

/** Runs `calls` over the scenario's MCP endpoints in a fresh world (each must succeed) and grades the trial. */
async function nearMiss(t: import('ava').ExecutionContext, agent: string, calls: readonly Call[]) {
  const stack = await startStack({ scenarioDir: dir, ports: 'ephemeral', caDir: testCaDir(), endpoints: true });
  const clients = new Map<string, Client>();
  try {
    const initial = stack.world.gradingState('initial');
    for (const call of calls) {
      let client = clients.get(call.endpoint);
      if (!client) {
        client = new Client({ name: agent, version: '1.0.0' });
        await client.connect(new StreamableHTTPClientTransport(new URL(stack.addresses().mcp[call.endpoint]!)));
        clients.set(call.endpoint, client);
      }
      const result = await client.callTool({ name: call.tool, arguments: call.arguments });
      t.falsy(result.isError, `${call.tool}: ${JSON.stringify(result.content)}`);
    }
    const state = stack.world.state();
    const result = await gradeWorld(stack, initial, { agent, answer: manifest.oracle.answer, output: '', exit: { code: 0, signal: null }, interrupted: false });
    return { state, result };
  } finally {
    for (const client of clients.values()) await client.close();
    await stack.close();
  }
}

test(`${manifest.id}: a test agent that closes the look-alike deal of the order that stands (544) over MCP scores 0, and R_b counts the change`, async (t) => {
  // The whole oracle, but the deal closed is 544: the same company, name, amount and stage.
  const calls = manifest.oracle.calls.map((call) => (call.tool === 'hubspot-batch-update-objects'
    ? { ...call, arguments: { objectType: 'deals', inputs: [{ id: '544', properties: { dealstage: 'closedlost', closed_lost_reason: 'Shopify order cancelled and refunded.' } }] } }
    : call));
  const { state, result } = await nearMiss(t, 'wrong-deal', calls);
  const deals = state.hubspot!.deals as Record<string, { properties: Record<string, string | null> }>;
  t.is(deals['544']!.properties.dealstage, 'closedlost', 'the near miss really wrote');
  t.is(result.reward, 0);
  t.false(result.forbidden_calls_ok);
  t.false(result.state_ok);
  t.true(result.r_b > 0, `r_b ${result.r_b}`);
  t.true(result.unintended.some((change) => change.startsWith('hubspot/deals/544: properties.dealstage')), result.unintended.join('\n'));
  t.true(result.checks.some((check) => check.kind === 'forbidden_call' && !check.ok && check.description.includes('544')));
});

test(`${manifest.id}: the right deal closed, but the cancelled order also re-tagged in Shopify: the forbidden mutation scores 0 and R_b counts it`, async (t) => {
  const calls: Call[] = [...manifest.oracle.calls, {
    endpoint: 'shopify', tool: 'update-order',
    arguments: { id: 'gid://shopify/Order/5900000000147', tags: ['wholesale', 'holiday-restock', 'hubspot-closed-lost'] },
  }];
  const { result } = await nearMiss(t, 'order-toucher', calls);
  t.true(result.state_ok, 'the deal itself is right');
  t.is(result.reward, 0);
  t.false(result.forbidden_calls_ok);
  t.true(result.r_b > 0, `r_b ${result.r_b}`);
  t.true(result.unintended.some((change) => change.startsWith('shopify/orders/5900000000147: tags')), result.unintended.join('\n'));
});
