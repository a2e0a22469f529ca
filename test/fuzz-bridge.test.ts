import test from 'ava';
import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { request } from 'undici';
import { serveBridge } from '../catalog/bridge.js';
import { McpLog } from '../catalog/mcp-log.js';
import { EndpointEntrySchema } from '../catalog/schema.js';
import { RunningEndpoint } from '../catalog/supervisor.js';
import type { Listening } from '../proxy/service-listener.js';
import { CallTracker } from '../mocks/core/attribution.js';
import { MemoryJournal } from '../mocks/core/journal.js';
import { fcOptions, fuzzTimeout } from './helpers/fuzz.js';
import { guardNetwork, type NetGuard } from './helpers/proxy-net-guard.js';
import { testHeader } from './helpers/journal.js';
import { PRELOAD_PATH } from '../proxy/preload-path.js';
import { fixtureArgs } from './helpers/cli.js';

// Broken JSON-RPC and broken Streamable HTTP at an MCP bridge (in front of the probe server):
// invalid JSON, JSON that is not JSON-RPC, wrong types, unknown methods and tools, batches, deep
// nesting, bad or foreign session ids, wrong methods and headers. Every case gets an HTTP answer;
// afterwards a real MCP client's session still calls a tool, and the server never crashed.

const probeEntry = EndpointEntrySchema.parse({
  id: 'probe', service: 'counter', kind: 'native', reach: 'base-url', bridge_port: 1,
  args: fixtureArgs('probe-mcp-server'),
  env: { PROBE_TOKEN: '{{credential}}', PROBE_URL: '{{service_url}}' },
});

let guard: NetGuard;
let endpoint: RunningEndpoint;
let bridge: Listening;
let client: Client;
let sessionId: string;
const crashes: string[] = [];
let cases = 0;
const statuses = new Map<number, number>();

/** A real MCP client with its own session (again after a case ended the last one, as DELETE may). */
async function connectClient(): Promise<void> {
  await client?.close().catch(() => undefined);
  client = new Client({ name: 'fuzz-check', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(bridge.url));
  await client.connect(transport);
  sessionId = transport.sessionId!;
}

test.before(async () => {
  guard = guardNetwork();
  const journal = new MemoryJournal(testHeader());
  endpoint = await RunningEndpoint.start({
    endpoint: probeEntry, credential: 'secret-token', tracker: new CallTracker(), mcpLog: new McpLog(journal, () => 0), stderr: new PassThrough().resume(),
    network: { proxyUrl: 'http://probe:cred@127.0.0.1:9', caPath: '/nonexistent/ca.pem', bundlePath: '/nonexistent/ca-bundle.pem', preloadPath: PRELOAD_PATH, serviceUrl: 'http://127.0.0.1:9' },
    onCrash: (id) => crashes.push(id),
  });
  bridge = await serveBridge(endpoint, { port: 0 });
  await connectClient();
});
test.after.always(async () => {
  await client?.close().catch(() => undefined);
  await bridge?.close();
  await endpoint?.close();
  guard?.restore();
});

// Never the probe's `crash` (it exits by design) or `fetch_url` (it would make a request).
const toolName = fc.oneof(fc.constantFrom('echo', 'env_keys', 'nope', '', 'ECHO', 'echo\u0000'), fc.string({ maxLength: 12 }))
  .filter((name) => name !== 'crash' && name !== 'fetch_url');
const id = fc.oneof(fc.integer(), fc.constantFrom(null, 0, -1, 1e308, '', 'x'.repeat(1000)), fc.string(), fc.jsonValue());
const method = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('initialize', 'tools/list', 'tools/call', 'ping', 'notifications/initialized', 'notifications/cancelled', 'resources/list', 'prompts/get', 'logging/setLevel', 'completion/complete') },
  fc.string({ maxLength: 20 }),
);
const params = fc.oneof(
  fc.record({ name: toolName, arguments: fc.oneof(fc.record({ text: fc.oneof(fc.string(), fc.jsonValue()) }), fc.jsonValue()) }, { requiredKeys: [] }),
  fc.record({ protocolVersion: fc.oneof(fc.constantFrom('2025-03-26', '2024-11-05', '1999-01-01'), fc.string()), capabilities: fc.jsonValue(), clientInfo: fc.jsonValue() }, { requiredKeys: [] }),
  fc.jsonValue(),
);
const message = fc.record({ jsonrpc: fc.oneof({ weight: 4, arbitrary: fc.constant('2.0') }, fc.constantFrom('1.0', 2, null)), id, method, params }, { requiredKeys: [] });
const body = fc.oneof(
  { weight: 4, arbitrary: message.map((m) => JSON.stringify(m)) },
  { weight: 1, arbitrary: fc.array(message, { maxLength: 4 }).map((batch) => JSON.stringify(batch)) },
  { weight: 1, arbitrary: fc.jsonValue().map((value) => JSON.stringify(value) ?? 'null') },
  { weight: 1, arbitrary: message.chain((m) => { const text = JSON.stringify(m); return fc.nat(text.length).map((n) => text.slice(0, n)); }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 80 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 100_000 }).map((n) => '['.repeat(n) + ']'.repeat(n)) },
  { weight: 1, arbitrary: fc.constantFrom('', '{}', '[]', 'null', '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":' + '"x"'.repeat(2) + '}}}') },
);
/** `usual` in `percent`% of cases whatever fast-check's bias towards small values, else `other`. */
const usually = <T>(percent: number, usual: T, other: fc.Arbitrary<T>) => fc.tuple(fc.integer({ min: 0, max: 99 }), other).map(([n, o]) => (n < percent ? usual : o));
// Mostly what a real client sends, so that most cases reach the JSON-RPC layer of a live session.
const httpMethod = usually(80, 'POST', fc.constantFrom('GET', 'DELETE', 'PUT', 'PATCH', 'OPTIONS', 'HEAD'));
const path = usually(85, '/mcp', fc.oneof(fc.constantFrom('/', '/mcp/', '/MCP', '/mcp?x=1', '//mcp', '/%6dcp', '/mcp/../mcp'), fc.webPath()));
const session = usually<string | undefined>(70, 'live', fc.oneof(fc.constant(undefined), fc.constantFrom('', 'nope', 'x'.repeat(5_000)), fc.uuid()));
const contentType = usually<string | undefined>(85, 'application/json',
  fc.constantFrom(undefined, 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', ''));
const accept = usually<string | undefined>(85, 'application/json, text/event-stream', fc.constantFrom(undefined, 'application/json', 'text/event-stream', '*/*', ''));
const protocol = fc.constantFrom(undefined, '2025-03-26', '2024-11-05', 'garbage');

async function oneCase(c: { method: string; path: string; body: string; session?: string; contentType?: string; accept?: string; protocol?: string }) {
  cases += 1;
  const headers: Record<string, string> = {};
  if (c.contentType !== undefined) headers['content-type'] = c.contentType;
  if (c.accept !== undefined) headers.accept = c.accept;
  if (c.protocol !== undefined) headers['mcp-protocol-version'] = c.protocol;
  // 'live': a real session's id, so broken messages reach an initialized server too.
  if (c.session !== undefined) headers['mcp-session-id'] = c.session === 'live' ? sessionId : c.session;
  const withBody = !['GET', 'HEAD'].includes(c.method);
  // The path exactly as generated, on the bridge's own origin (never resolved: '//x' is no host).
  const response = await request(`${new URL(bridge.url).origin}${c.path.startsWith('/') ? c.path : `/${c.path}`}`, {
    method: c.method as 'POST', headers, body: withBody ? c.body : undefined, signal: AbortSignal.timeout(10_000),
  });
  statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
  // A GET on a live session opens the server's event stream: it stays open by design; leave it.
  if (String(response.headers['content-type'] ?? '').startsWith('text/event-stream') && c.method === 'GET') response.body.destroy();
  else await response.body.dump({ limit: 1_000_000 });
  if (response.statusCode < 200 || response.statusCode > 599) throw new Error(`status ${response.statusCode}`);
  // DELETE with the live session's id ends it, as the protocol says: the check needs a new one.
  if (c.method === 'DELETE' && c.session === 'live' && response.statusCode === 200) await connectClient();
  // The live session still works, and the server is still up.
  const echoed = await client.callTool({ name: 'echo', arguments: { text: `after case ${cases}` } });
  const text = (echoed.content as { text: string }[])[0]?.text;
  if (text !== `after case ${cases}`) throw new Error(`the live session broke after ${JSON.stringify(c).slice(0, 200)}: ${JSON.stringify(echoed).slice(0, 200)}`);
}

test.serial('broken JSON-RPC and Streamable HTTP at the bridge: an HTTP answer every time, the live session and the server survive', async (t) => {
  t.timeout(fuzzTimeout);
  await fc.assert(fc.asyncProperty(fc.record({ method: httpMethod, path, body, session, contentType, accept, protocol }), oneCase), fcOptions(200));
  t.deepEqual(crashes, []);
  t.is(endpoint.exit, null, 'the probe server is still running');
  t.deepEqual(guard.outside(), []);
  t.deepEqual(guard.outsideLookups(), []);
  t.log(`${cases} cases; statuses ${[...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s} ×${n}`).join(', ')}`);
});
