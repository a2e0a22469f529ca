import test from 'ava';
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { captureTools } from '../catalog/capture.js';
import { readSnapshots } from '../catalog/snapshots.js';
import { startStack } from '../catalog/stack.js';
import type { McpRecord } from '../mocks/core/journal-format.js';
import { tempDir } from './helpers/journal.js';
import { testCaDir } from './helpers/proxy.js';
import { LONG } from './helpers/reliability.js';
import { EXAMPLE_SCENARIO } from './helpers/world.js';
import { CLI_ARGS } from './helpers/cli.js';

const run = promisify(execFile);

// A capture of every catalog server takes a minute or two on two busy cores (90 s of CPU, most
// of this file's): the normal run captures github's alone, in process and through the CLI, and
// TOOLBENCH_LONG_TESTS=1 (CI) captures every server both ways and compares every shipped snapshot.
// The in-process capture is made once and shared by the tests below.
const ONLY = LONG ? undefined : ['github'];
let shared: Promise<string> | null = null;
const capturedOnce = () => (shared ??= (async () => {
  const dir = tempDir();
  await captureTools(dir, { scenarioDir: EXAMPLE_SCENARIO, caDir: testCaDir(), only: ONLY });
  return dir;
})());

test('catalog capture twice gives identical bytes; toolmeter --json totals match the snapshots', async (t) => {
  t.timeout(10 * 60_000); // every catalog server starts: minutes under load, with no result to reset ava's 60 s
  const b = tempDir();
  const a = await capturedOnce();
  const { stdout } = await run(process.execPath, [...CLI_ARGS, 'catalog', 'capture', '--out', b, '--ca-dir', testCaDir(), ...(ONLY ?? []).flatMap((id) => ['--endpoint', id])]);
  t.regex(stdout, /wrote .*github\.json/);
  const first = readFileSync(join(a, 'github.json'));
  t.deepEqual(first, readFileSync(join(b, 'github.json')));
  const snapshot = JSON.parse(first.toString()) as { tools: { name: string }[]; package: string; version: string };
  t.is(snapshot.package, '@modelcontextprotocol/server-github');
  t.is(snapshot.version, '2025.4.8');
  t.deepEqual(snapshot.tools.map((tool) => tool.name), [...snapshot.tools.map((tool) => tool.name)].sort());

  const meter = JSON.parse((await run(process.execPath, [...CLI_ARGS, 'toolmeter', '--json', '--snapshots', a])).stdout) as {
    endpoints: { endpoint: string; tools: number; bytes: number; tokens: Record<string, number> }[];
    total: { tools: number; bytes: number; tokens: Record<string, number> };
  };
  const snapshots = readSnapshots(a);
  t.is(meter.total.tools, snapshots.reduce((n, s) => n + s.tools.length, 0));
  t.is(meter.total.bytes, snapshots.reduce((n, s) => n + Buffer.byteLength(JSON.stringify(s.tools)), 0));
  t.is(meter.total.tokens.o200k_base, meter.endpoints.reduce((n, e) => n + e.tokens.o200k_base!, 0));
  t.true(meter.total.tokens.cl100k_base! > 1000);
});

test('the shipped snapshots are current: a capture reproduces catalog/snapshots byte for byte', async (t) => {
  t.timeout(10 * 60_000);
  const dir = await capturedOnce();
  const files = ONLY ? ONLY.map((id) => `${id}.json`) : readdirSync('catalog/snapshots').filter((file) => file.endsWith('.json'));
  t.true(files.length >= (ONLY ? 1 : 30), files.join(', '));
  for (const file of files) t.is(readFileSync(join(dir, file), 'utf8'), readFileSync(join('catalog/snapshots', file), 'utf8'), file);
});

test('killing the real server mid-run: a clear error from the bridge, a crash record, no hang', async (t) => {
  const crashes: string[] = [];
  const stack = await startStack({ scenarioDir: EXAMPLE_SCENARIO, ports: 'ephemeral', caDir: testCaDir(), endpoints: true, onCrash: (_id, message) => crashes.push(message) });
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  t.teardown(async () => { await client.close(); await stack.close(); });
  await client.connect(new StreamableHTTPClientTransport(new URL(stack.addresses().mcp.github!)));
  const endpoint = stack.endpoints.get('github')!.running;
  process.kill(endpoint.pid!, 'SIGKILL');
  await new Promise<void>((resolve) => { const poll = setInterval(() => { if (!endpoint.alive) { clearInterval(poll); resolve(); } }, 10); });
  const error = await t.throwsAsync(client.callTool({ name: 'list_issues', arguments: { owner: 'acme', repo: 'widgets' } }));
  t.regex(error!.message, /github MCP server is not running \(it exited with signal SIGKILL\)/);
  t.deepEqual(crashes, ['the github MCP server exited with signal SIGKILL']);
  await stack.world.journal.flush();
  const records: McpRecord[] = [];
  for await (const record of stack.world.journal.mcpRecords()) records.push(record);
  t.truthy(records.find((r) => r.kind === 'crash' && r.error === 'server exited with signal SIGKILL'));
});
