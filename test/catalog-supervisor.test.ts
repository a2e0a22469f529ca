import test from 'ava';
import { connect } from 'node:net';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { serveBridge } from '../catalog/bridge.js';
import { McpLog } from '../catalog/mcp-log.js';
import { EndpointEntrySchema } from '../catalog/schema.js';
import { RunningEndpoint } from '../catalog/supervisor.js';
import { CallTracker } from '../mocks/core/attribution.js';
import { MemoryJournal } from '../mocks/core/journal.js';
import type { McpRecord } from '../mocks/core/journal-format.js';
import { testHeader } from './helpers/journal.js';
import { PRELOAD_PATH } from '../proxy/preload-path.js';
import { fixtureArgs } from './helpers/cli.js';

const probe = EndpointEntrySchema.parse({
  id: 'probe', service: 'counter', kind: 'native', reach: 'base-url', bridge_port: 1,
  args: fixtureArgs('probe-mcp-server'),
  env: { PROBE_TOKEN: '{{credential}}', PROBE_URL: '{{service_url}}' },
});

async function startProbe() {
  const journal = new MemoryJournal(testHeader());
  const tracker = new CallTracker();
  const stderr = new PassThrough();
  let log = '';
  stderr.on('data', (chunk: Buffer) => { log += chunk.toString(); });
  const crashes: string[] = [];
  const endpoint = await RunningEndpoint.start({
    endpoint: probe, credential: 'secret-token', tracker, mcpLog: new McpLog(journal, () => 0), stderr,
    network: { proxyUrl: 'http://probe:cred@127.0.0.1:9', caPath: '/nonexistent/ca.pem', bundlePath: '/nonexistent/ca-bundle.pem', preloadPath: PRELOAD_PATH, serviceUrl: 'http://127.0.0.1:9' },
    onCrash: (id) => crashes.push(id),
  });
  const records = async () => { await journal.flush(); const out: McpRecord[] = []; for await (const r of journal.mcpRecords()) out.push(r); return out; };
  return { endpoint, tracker, records, crashes, log: () => log };
}

test('a native server starts with exactly the environment we give it, and its stderr is captured', async (t) => {
  process.env.TOOLBENCH_TEST_PARENT_SECRET = 'must-not-leak';
  const { endpoint, records, log } = await startProbe();
  t.teardown(() => endpoint.close());
  t.deepEqual(endpoint.tools.map((tool) => tool.name).sort(), ['crash', 'echo', 'env_keys', 'fetch_url']);
  const result = await endpoint.callTool('env_keys', {});
  const keys = JSON.parse((result.content[0] as { text: string }).text) as string[];
  t.false(keys.includes('TOOLBENCH_TEST_PARENT_SECRET'));
  t.true(keys.includes('PROBE_TOKEN'));
  t.true(keys.includes('NODE_EXTRA_CA_CERTS'));
  const allowed = new Set(['PATH', 'HOME', 'LANG', 'TMPDIR', 'TZ', 'NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'REQUESTS_CA_BUNDLE', 'CURL_CA_BUNDLE',
    'HTTPS_PROXY', 'HTTP_PROXY', 'https_proxy', 'http_proxy', 'NO_PROXY', 'no_proxy', 'NODE_OPTIONS', 'PROBE_TOKEN', 'PROBE_URL']);
  t.deepEqual(keys.filter((key) => !allowed.has(key)), []);
  t.regex(log(), /probe server starting/);
  const all = await records();
  t.like(all[0], { n: 1, endpoint: 'probe', kind: 'ready', result: { tools: 4 } });
  t.like(all[1], { n: 2, kind: 'call', tool: 'env_keys', callId: 'probe#1', isError: false });
});

test('tool calls on one endpoint run one at a time, each tracked while in flight', async (t) => {
  const { endpoint, tracker } = await startProbe();
  t.teardown(() => endpoint.close());
  t.like(tracker.attribute('probe'), { kind: 'mcp', endpoint: 'probe', tool: null });
  t.like(tracker.attribute(null), { kind: 'direct' });
  t.like(tracker.attribute('someone-else'), { kind: 'direct', client: 'someone-else' });
  const order: string[] = [];
  await Promise.all(['a', 'b', 'c'].map((text) => endpoint.callTool('echo', { text }).then((r) => order.push((r.content[0] as { text: string }).text))));
  t.deepEqual(order, ['a', 'b', 'c']);
});

test('a server that dies mid-call: a clear error at once, a crash record, and later calls fail fast', async (t) => {
  const { endpoint, records, crashes } = await startProbe();
  t.teardown(() => endpoint.close());
  const error = await t.throwsAsync(endpoint.callTool('crash', {}));
  t.regex(error!.message, /probe MCP server is not running \(it exited with code 3\)/);
  t.deepEqual(crashes, ['probe']);
  const again = await t.throwsAsync(endpoint.callTool('echo', { text: 'x' }));
  t.regex(again!.message, /not running/);
  const all = await records();
  t.truthy(all.find((r) => r.kind === 'crash' && r.error === 'server exited with code 3'));
  t.truthy(all.find((r) => r.kind === 'call' && r.tool === 'crash' && r.isError));
});

test('the bridge serves the endpoint over Streamable HTTP to the SDK client, and reports a dead server', async (t) => {
  const { endpoint } = await startProbe();
  const bridge = await serveBridge(endpoint, { port: 0 });
  t.teardown(async () => { await bridge.close(); await endpoint.close(); });
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(bridge.url)));
  t.deepEqual(client.getServerVersion(), { name: 'probe', version: '1.0.0' });
  t.deepEqual((await client.listTools()).tools.map((tool) => tool.name).sort(), ['crash', 'echo', 'env_keys', 'fetch_url']);
  const echoed = await client.callTool({ name: 'echo', arguments: { text: 'hello' } });
  t.deepEqual(echoed.content, [{ type: 'text', text: 'hello' }]);
  const crash = await t.throwsAsync(client.callTool({ name: 'crash', arguments: {} }));
  t.regex(crash!.message, /not running/);
  await client.close();
  const wrongPath = await fetch(bridge.url.replace('/mcp', '/other'));
  t.is(wrongPath.status, 404);
});

test('the bridge keeps at most maxSessions sessions: the least recently used one is closed, a live one keeps working', async (t) => {
  const { endpoint } = await startProbe();
  const bridge = await serveBridge(endpoint, { port: 0, maxSessions: 3 });
  t.teardown(async () => { await bridge.close(); await endpoint.close(); });
  const live = new Client({ name: 'live', version: '1.0.0' });
  await live.connect(new StreamableHTTPClientTransport(new URL(bridge.url)));
  const initialize = () => fetch(bridge.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'flood', version: '1' } } }),
  });
  const first = await initialize();
  const firstId = first.headers.get('mcp-session-id')!;
  await first.body?.cancel();
  for (let i = 0; i < 5; i++) {
    t.deepEqual((await live.callTool({ name: 'echo', arguments: { text: `still here ${i}` } })).content, [{ type: 'text', text: `still here ${i}` }]);
    await (await initialize()).body?.cancel();
  }
  const gone = await fetch(bridge.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': firstId },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) });
  t.is(gone.status, 404, 'the flooding client\'s oldest session was closed');
  await live.close();
});

test('the bridge keeps an idle kept-alive connection open past the 4-5 s after which clients drop their own, and answers on it', async (t) => {
  const { endpoint } = await startProbe();
  const bridge = await serveBridge(endpoint, { port: 0 });
  t.teardown(async () => { await bridge.close(); await endpoint.close(); });
  const url = new URL(bridge.url);
  const socket = connect(Number(url.port), url.hostname);
  t.teardown(() => socket.destroy());
  let received = '';
  let closed = false;
  socket.on('data', (chunk: Buffer) => { received += chunk.toString('latin1'); });
  socket.on('close', () => { closed = true; });
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'idle', version: '1' } } });
  const post = () => socket.write(`POST /mcp HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  const answered = async (count: number) => { while ((received.match(/HTTP\/1\.1 200/g) ?? []).length < count && !closed) await new Promise((r) => setTimeout(r, 20)); };
  post();
  await answered(1);
  // The SDK's responses set `Connection: keep-alive` themselves, so Node sends no `Keep-Alive:
  // timeout=` hint and clients keep their own default (undici: 4 s, checked on a coarse timer).
  t.notRegex(received, /Keep-Alive: timeout=/i);
  await new Promise((r) => setTimeout(r, 6_000));
  t.false(closed, 'the bridge did not close the idle connection at Node\'s default 5 s');
  post();
  await answered(2);
  t.is((received.match(/HTTP\/1\.1 200/g) ?? []).length, 2, 'the second request was answered on the same connection');
});
