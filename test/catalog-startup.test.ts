import test from 'ava';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { loadCatalog } from '../catalog/load.js';
import { EndpointEntrySchema } from '../catalog/schema.js';
import { startStack } from '../catalog/stack.js';
import type { JournalEntry } from '../mocks/core/journal-format.js';
import { auditJournal } from '../replay/audit.js';
import { fromJournal } from '../replay/source.js';
import { testCaDir } from './helpers/proxy.js';
import { EXAMPLE_SCENARIO } from './helpers/world.js';
import { fixtureArgs } from './helpers/cli.js';

// A server that calls its API while starting (as slack-mcp-server warms its caches): those
// requests are `startup`, and audit leaves them out of api_calls.

test('start-up requests are marked startup and excluded from api_calls; later calls are mcp', async (t) => {
  const shipped = loadCatalog();
  const probe = EndpointEntrySchema.parse({
    id: 'probe', service: 'github', kind: 'native', reach: 'preload', bridge_port: 7199,
    args: fixtureArgs('probe-mcp-server'),
    env: { PROBE_TOKEN: '{{credential}}', PROBE_STARTUP_URL: 'https://api.github.com/repos/acme/widgets' },
  });
  const catalog = { ...shipped, catalog: { ...shipped.catalog, endpoints: [probe] } };
  const stack = await startStack({ scenarioDir: EXAMPLE_SCENARIO, catalog, ports: 'ephemeral', caDir: testCaDir(), endpoints: true });
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  t.teardown(async () => { await client.close(); await stack.close(); });
  await client.connect(new StreamableHTTPClientTransport(new URL(stack.addresses().mcp.probe!)));
  const result = await client.callTool({ name: 'fetch_url', arguments: { url: 'https://api.github.com/repos/acme/widgets/issues?per_page=1' } });
  t.deepEqual(result.content, [{ type: 'text', text: '200' }]);

  await stack.world.journal.flush();
  const entries: JournalEntry[] = [];
  for await (const entry of stack.world.journal.entries()) entries.push(entry);
  t.deepEqual(entries.map((e) => [e.target, e.attribution?.kind, e.attribution?.tool]), [
    ['/repos/acme/widgets', 'startup', null],
    ['/repos/acme/widgets/issues?per_page=1', 'mcp', 'fetch_url'],
  ]);
  const audit = await auditJournal(fromJournal(stack.world.journal, '(memory)'));
  t.like(audit.totals, { requests: 2, api_calls: 1, startup: 1, mcp: 1, mcp_bypass: 0 });
});
