import test from 'ava';
import { createRequire } from 'node:module';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { exampleToken, startProxiedWorld, type ProxiedWorld } from './helpers/proxy.js';
import { nodeClientEnv } from './helpers/proxy-processes.js';

// The real, pinned GitHub MCP server (Node 20 global fetch to a hard-coded https://api.github.com)
// reaches the world through the preload, and its requests carry its proxy credential.

const require = createRequire(import.meta.url);
const SERVER = require.resolve('@modelcontextprotocol/server-github/dist/index.js');
const TOKEN = exampleToken();

let w: ProxiedWorld;
test.before(async () => {
  w = await startProxiedWorld();
});
test.after.always(() => w?.close());

test('@modelcontextprotocol/server-github@2025.4.8 creates an issue in the world through create_issue', async (t) => {
  w.tracker.register('github');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [SERVER],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', GITHUB_PERSONAL_ACCESS_TOKEN: TOKEN, ...nodeClientEnv(w.urlFor('github'), w.caPath) },
    stderr: 'pipe',
  });
  let serverLog = '';
  transport.stderr?.on('data', (chunk: Buffer) => { serverLog += chunk.toString(); });
  const client = new Client({ name: 'toolbench-test', version: '0.0.0' });
  await client.connect(transport);
  try {
    w.tracker.markReady('github');
    w.tracker.begin('github', { tool: 'create_issue', callId: 'call-1' });
    const result = await client.callTool({
      name: 'create_issue',
      arguments: { owner: 'acme', repo: 'widgets', title: 'Filed by the real MCP server', body: 'through the proxy' },
    });
    w.tracker.end('github');
    t.falsy(result.isError, `${JSON.stringify(result.content)}\n${serverLog}`);
    const content = result.content as { type: string; text: string }[];
    t.like(JSON.parse(content[0]!.text), { title: 'Filed by the real MCP server', user: { login: 'alice' }, state: 'open' });
  } finally {
    await client.close();
  }
  const entries = await w.entries();
  const created = entries.filter((e) => e.method === 'POST');
  t.is(created.length, 1);
  t.like(created[0], {
    host: 'api.github.com', service: 'github', target: '/repos/acme/widgets/issues', response: { status: 201 },
    attribution: { kind: 'mcp', client: 'github', endpoint: 'github', tool: 'create_issue', callId: 'call-1' },
  });
  t.true(created[0]!.request.headers.some(([name, value]) => name.toLowerCase() === 'authorization' && value === `Bearer ${TOKEN}`));
});
