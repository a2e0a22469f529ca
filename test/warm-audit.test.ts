import test from 'ava';
import { loadCatalog } from '../catalog/load.js';
import { auditWarm, firstDifference } from '../catalog/warm-audit.js';
import { testCaDir } from './helpers/proxy.js';

// The warm audit (catalog/warm-audit.ts) is the evidence behind each endpoint's `warm_safe`:
// the same tool calls in two fresh worlds on one running server must reach the world alike.
// The normal run audits one safe endpoint and two servers that cache; TOOLBENCH_LONG_TESTS=1
// audits every endpoint the catalog marks warm-safe (as CI runs it).

const catalog = loadCatalog();
const long = process.env.TOOLBENCH_LONG_TESTS === '1';

test.serial('mcp-server-kubernetes runs kubectl, whose discovery cache outlives a world: the audit finds it unsafe, and the catalog does not mark it', async (t) => {
  t.timeout(300_000);
  const result = await auditWarm({ catalog, endpoint: 'kubernetes-node', caDir: testCaDir() });
  t.false(result.safe);
  t.is(result.startupRequests, 0);
  t.true(result.requests[1]! < result.requests[0]!, `requests per world ${result.requests.join('/')}`);
  t.regex(result.difference ?? '', /^round 2, request \d+: /);
  t.false(catalog.catalog.endpoints.find((e) => e.id === 'kubernetes-node')!.warm_safe);
});

test.serial('an endpoint that makes requests while starting is never warm-safe (slack-go caches the workspace)', async (t) => {
  t.timeout(300_000);
  const result = await auditWarm({ catalog, endpoint: 'slack-go', caDir: testCaDir(), tools: 2 });
  t.true(result.startupRequests > 0);
  t.false(result.safe);
});

const warmSafe = catalog.catalog.endpoints.filter((e) => e.warm_safe).map((e) => e.id);
const audited = long ? warmSafe : ['github'];

for (const endpoint of audited) {
  test.serial(`${endpoint} is marked warm_safe, and the audit agrees`, async (t) => {
    t.timeout(600_000);
    const result = await auditWarm({ catalog, endpoint, caDir: testCaDir() });
    t.true(result.tools.length > 0);
    t.deepEqual({ safe: result.safe, startup: result.startupRequests, strays: result.strays, difference: result.difference },
      { safe: true, startup: 0, strays: [], difference: null });
    t.is(result.requests[0], result.requests[1]);
  });
}

test.serial('the catalog marks at least the 26 endpoints the audit found safe', (t) => {
  t.true(warmSafe.length >= 26, warmSafe.join(','));
});

test('the audit compares each tool call\'s requests as a set: concurrent fetches may land in either order, a dropped or changed one is a difference', (t) => {
  const req = (tool: string, request: string) => ({ tool, request });
  const first = [req('a', 'GET x/1'), req('b', 'GET x/1027'), req('b', 'GET x/1028'), req('c', 'POST y')];
  t.is(firstDifference([first, [req('a', 'GET x/1'), req('b', 'GET x/1028'), req('b', 'GET x/1027'), req('c', 'POST y')]]), null);
  t.regex(firstDifference([first, [req('a', 'GET x/1'), req('b', 'GET x/1028'), req('c', 'POST y')]]) ?? '', /^round 2, request 2: b: GET x\/1028/);
  // Order across calls still counts: a request moved into another call is a difference.
  t.not(firstDifference([first, [req('a', 'GET x/1'), req('a', 'GET x/1027'), req('b', 'GET x/1028'), req('c', 'POST y')]]), null);
});
