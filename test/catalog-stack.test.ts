import test from 'ava';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startStack, type Stack } from '../catalog/stack.js';
import type { JournalEntry, McpRecord } from '../mocks/core/journal-format.js';
import { testCaDir } from './helpers/proxy.js';
import { EXAMPLE_SCENARIO } from './helpers/world.js';

// The whole machinery with the real, pinned @modelcontextprotocol/server-github: an MCP client
// over Streamable HTTP calls its tools; the world answers; every request is attributed.

const run = promisify(execFile);
let stack: Stack;
let client: Client;

test.before(async () => {
  stack = await startStack({ scenarioDir: EXAMPLE_SCENARIO, ports: 'ephemeral', caDir: testCaDir(), endpoints: true });
  client = new Client({ name: 'test-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(stack.addresses().mcp.github!)));
});
test.after.always(async () => {
  await client?.close();
  await stack?.close();
});

const text = (result: unknown) => ((result as { content: { text: string }[] }).content[0]!.text);
async function entries(): Promise<JournalEntry[]> {
  await stack.world.journal.flush();
  const out: JournalEntry[] = [];
  for await (const entry of stack.world.journal.entries()) out.push(entry);
  return out;
}
async function mcpRecords(): Promise<McpRecord[]> {
  await stack.world.journal.flush();
  const out: McpRecord[] = [];
  for await (const record of stack.world.journal.mcpRecords()) out.push(record);
  return out;
}

test.serial('the bridge lists the real server\'s tools', async (t) => {
  const { tools } = await client.listTools();
  t.true(tools.length >= 26, `${tools.length} tools`);
  for (const name of ['create_issue', 'get_file_contents', 'create_or_update_file', 'create_pull_request', 'list_issues', 'search_repositories']) {
    t.truthy(tools.find((tool) => tool.name === name), name);
  }
  t.deepEqual(client.getServerVersion()?.name, 'github-mcp-server');
});

test.serial('six tools through MCP: real-shaped data, state changed, every request attributed to its call', async (t) => {
  const before = (await entries()).length;
  const issue = JSON.parse(text(await client.callTool({ name: 'create_issue', arguments: { owner: 'acme', repo: 'widgets', title: 'From the agent', body: 'via MCP' } })));
  t.like(issue, { title: 'From the agent', state: 'open', user: { login: 'alice' } });

  const file = JSON.parse(text(await client.callTool({ name: 'get_file_contents', arguments: { owner: 'acme', repo: 'widgets', path: 'README.md' } })));
  t.like(file, { type: 'file', path: 'README.md', encoding: 'base64' });

  const branch = 'agent-change';
  await client.callTool({ name: 'create_branch', arguments: { owner: 'acme', repo: 'widgets', branch } });
  const written = JSON.parse(text(await client.callTool({ name: 'create_or_update_file', arguments: {
    owner: 'acme', repo: 'widgets', path: 'docs/agent.md', content: '# Written by the agent\n', message: 'Add agent notes', branch,
  } })));
  t.like(written, { content: { path: 'docs/agent.md' }, commit: { message: 'Add agent notes' } });

  const pull = JSON.parse(text(await client.callTool({ name: 'create_pull_request', arguments: {
    owner: 'acme', repo: 'widgets', title: 'Agent notes', head: branch, base: 'main', body: 'Please merge',
  } })));
  t.like(pull, { title: 'Agent notes', state: 'open', head: { ref: branch }, base: { ref: 'main' } });

  const issues = JSON.parse(text(await client.callTool({ name: 'list_issues', arguments: { owner: 'acme', repo: 'widgets', state: 'open' } })));
  t.true(Array.isArray(issues) && issues.some((i: { title: string }) => i.title === 'From the agent'));

  const found = JSON.parse(text(await client.callTool({ name: 'search_repositories', arguments: { query: 'org:acme' } })));
  t.true(found.total_count >= 1);

  const state = stack.world.state(['github']).github!;
  t.truthy(Object.values(state.issues ?? {}).find((i) => (i as { title: string }).title === 'From the agent'), 'the issue is in the world');

  const made = (await entries()).slice(before);
  t.true(made.length >= 7);
  for (const entry of made) {
    t.like(entry.attribution, { kind: 'mcp', client: 'github', endpoint: 'github' }, `${entry.method} ${entry.target}`);
    t.truthy(entry.attribution?.tool, `${entry.method} ${entry.target} has its tool`);
  }
  const records = (await mcpRecords()).filter((r) => r.kind === 'call');
  const createIssue = records.find((r) => r.tool === 'create_issue')!;
  const issuePosts = made.filter((e) => e.attribution?.callId === createIssue.callId);
  t.deepEqual(issuePosts.map((e) => `${e.method} ${e.target}`), ['POST /repos/acme/widgets/issues']);
  t.true(issuePosts[0]!.seq > createIssue.worldSeqBefore && issuePosts[0]!.seq <= createIssue.worldSeqAfter);
});

test.serial('a request made directly through the proxy with curl is attributed direct', async (t) => {
  const { proxy, ca } = stack.addresses();
  const { stdout } = await run('curl', ['-sS', '-x', proxy!, '--cacert', ca!, '-H', 'Authorization: Bearer ghp_aliceAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'https://api.github.com/repos/acme/widgets']);
  t.like(JSON.parse(stdout), { full_name: 'acme/widgets' });
  const last = (await entries()).at(-1)!;
  t.like(last, { target: '/repos/acme/widgets', attribution: { kind: 'direct', client: null } });
});

test.serial('the endpoint\'s ready record is journaled; no startup requests are counted as calls', async (t) => {
  const records = await mcpRecords();
  t.like(records[0], { kind: 'ready', endpoint: 'github' });
  const startup = (await entries()).filter((e) => e.attribution?.kind === 'startup');
  t.true(startup.every((e) => e.seq <= records[0]!.worldSeqAfter), 'startup requests all come before ready');
});
