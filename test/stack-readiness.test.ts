import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { loadCatalog } from '../catalog/load.js';
import { EndpointEntrySchema } from '../catalog/schema.js';
import { startStack, type EndpointReadiness } from '../catalog/stack.js';
import { testCaDir } from './helpers/proxy.js';
import { EXAMPLE_SCENARIO } from './helpers/world.js';
import { fixtureArgs } from './helpers/cli.js';

// Servers start several at once; one that never lists its tools fails the start after its own
// readiness timeout, naming itself and quoting its stderr, and what did start is stopped again.

const shipped = loadCatalog();
const probe = (id: string, port: number) => EndpointEntrySchema.parse({
  id, service: 'github', kind: 'native', reach: 'preload', bridge_port: port,
  args: fixtureArgs('probe-mcp-server'), env: { PROBE_TOKEN: '{{credential}}' },
});
// Speaks no MCP: says it is warming up, then waits for ever.
const silent = EndpointEntrySchema.parse({
  id: 'silent', service: 'github', kind: 'native', reach: 'preload', bridge_port: 7198,
  args: ['-e', 'process.stderr.write("warming up the caches\\n"); setInterval(() => {}, 1000)'],
});
const withEndpoints = (...endpoints: ReturnType<typeof EndpointEntrySchema.parse>[]) => ({ ...shipped, catalog: { ...shipped.catalog, endpoints } });

test.serial('every endpoint reports when it was ready; the stack lists them in catalog order', async (t) => {
  const ready: EndpointReadiness[] = [];
  const stack = await startStack({
    scenarioDir: EXAMPLE_SCENARIO, catalog: withEndpoints(probe('probe-a', 7196), probe('probe-b', 7197)), ports: 'ephemeral', caDir: testCaDir(),
    endpoints: 'scenario', onReady: (r) => ready.push(r),
  });
  t.teardown(() => stack.close());
  t.deepEqual([...stack.endpoints.keys()], ['probe-a', 'probe-b']);
  t.deepEqual(ready.map((r) => r.endpoint).sort(), ['probe-a', 'probe-b']);
  t.true(ready.every((r) => r.tools === 4 && r.readyMs >= 0));
  t.deepEqual([...stack.endpoints.values()].map((e) => e.readiness.tools), [4, 4]);
});

test.serial('a server that never gets ready fails the start with its name and its stderr; the others are stopped', async (t) => {
  const ready: string[] = [];
  const error = await t.throwsAsync(startStack({
    scenarioDir: EXAMPLE_SCENARIO, catalog: withEndpoints(probe('probe-a', 7196), silent), ports: 'ephemeral', caDir: testCaDir(),
    endpoints: 'scenario', readyTimeoutMs: 10_000, onReady: (r) => ready.push(r.endpoint),
  }));
  t.like(error, { code: 'TB_ERR_CATALOG' });
  t.regex(error!.message, /^endpoint silent was not ready after 10 s \(no tool list\)/);
  t.regex(error!.message, /warming up the caches/);
  t.deepEqual(ready, ['probe-a'], 'the other server did get ready');
  t.deepEqual(ourChildren().filter((cmd) => cmd.includes('probe-mcp-server') || cmd.includes('warming up')), [], 'and neither is left running');
});

/** The command lines of this process's children, from /proc. */
function ourChildren(): string[] {
  return readdirSync('/proc').filter((name) => /^\d+$/.test(name)).flatMap((pid) => {
    try {
      const ppid = Number(readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ')[1]);
      return ppid === process.pid ? [readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ')] : [];
    } catch {
      return [];
    }
  });
}

test.serial('--endpoints: an unknown endpoint id is a usage error before anything starts', async (t) => {
  await t.throwsAsync(startStack({ scenarioDir: EXAMPLE_SCENARIO, ports: 'ephemeral', caDir: testCaDir(), endpoints: ['github', 'no-such-endpoint'] }),
    { code: 'TB_ERR_USAGE', message: /no endpoint "no-such-endpoint" in the catalog/ });
});
