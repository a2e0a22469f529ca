import test from 'ava';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startStack } from '../catalog/stack.js';
import { gradeWorld } from '../scenarios/grade-world.js';
import { zendeskService } from '../mocks/zendesk/index.js';
import { scenarioSuite } from './helpers/scenario-suite.js';
import { testCaDir } from './helpers/proxy.js';

// The cross-service scenario of Zendesk and Stripe (the seed benchmark's own example): a ticket
// asks for a refund. Valid, nop 0, oracle 1 with R_b 0 over both MCP servers, replay identical,
// bypassed writes fail; and an agent that does everything right but refunds the customer's
// other $129.00 charge scores 0, caught by the forbidden call and by R_b.

const dir = join('scenarios', 'business', 'cross', 'zendesk-refund-disputed-charge');
const manifest = scenarioSuite({
  service: 'zendesk',
  services: ['zendesk', 'stripe'],
  dirs: [dir],
  credentialOk: (world, credential) => {
    const state = world.state(['zendesk']).zendesk!;
    const account = state.account?.account as { subdomain: string; api_tokens: string[] };
    const { subdomain, email, token } = credential as Record<string, string>;
    return account.subdomain === subdomain && account.api_tokens.includes(token!)
      && (Object.values(state.users ?? {}) as { email: string; role: string }[]).some((u) => u.email === email && u.role === 'agent');
  },
  operationNames: zendeskService.kit.operations.map((operation) => operation.name),
}).get(dir)!;

test(`${manifest.id}: a test agent that refunds the wrong charge of the same customer over MCP scores 0, and R_b counts the refund`, async (t) => {
  const stack = await startStack({ scenarioDir: dir, ports: 'ephemeral', caDir: testCaDir(), endpoints: true });
  const clients: Client[] = [];
  try {
    const connect = async (endpoint: string) => {
      const client = new Client({ name: 'wrong-refund-agent', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(stack.addresses().mcp[endpoint]!)));
      clients.push(client);
      return client;
    };
    const [zendesk, stripe] = [await connect('zendesk'), await connect('stripe')];
    // The whole oracle, but the refund goes to WS-5521: the same customer, amount and day.
    for (const call of manifest.oracle.calls) {
      const args = call.tool === 'create_refund' ? { payment_intent: 'pi_nPmbycXFEaUPl8npO0y23Ve2' } : call.arguments;
      const result = await (call.endpoint === 'zendesk' ? zendesk : stripe).callTool({ name: call.tool, arguments: args });
      t.falsy(result.isError, `${call.tool}: ${JSON.stringify(result.content)}`);
    }
    const result = await gradeWorld(stack, { agent: 'wrong-refund', answer: manifest.oracle.answer, output: '', exit: { code: 0, signal: null }, interrupted: false });
    t.is(result.reward, 0);
    t.false(result.forbidden_calls_ok);
    t.false(result.state_ok);
    t.true(result.r_b > 0, `r_b ${result.r_b}`);
    t.true(result.unintended.some((change) => change.startsWith('stripe/refunds/') && change.endsWith('new document')), result.unintended.join('\n'));
    t.true(result.checks.some((check) => check.kind === 'forbidden_call' && !check.ok && check.description.includes('WS-5521')));
  } finally {
    for (const client of clients) await client.close();
    await stack.close();
  }
});
