import test from 'ava';
import { LONG } from './helpers/reliability.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { loadCatalog } from '../catalog/load.js';
import { toolArguments } from '../catalog/tool-args.js';
import { openWorld } from '../scenarios/world.js';
import { jsonResponse } from '../mocks/core/http.js';
import { MemoryJournal } from '../mocks/core/journal.js';
import type { JournalEntry, JournalHeader } from '../mocks/core/journal-format.js';
import { World } from '../mocks/core/world.js';
import { defineService } from '../mocks/kit/define.js';
import { ServiceError } from '../mocks/kit/errors.js';
import { operation, rest } from '../mocks/kit/operation.js';
import { specFallback, type OpenApiDocument } from '../mocks/kit/spec-fallback.js';
import { coverageLines, coverageOf } from '../replay/coverage.js';
import { toolbench } from './helpers/replay-cli.js';
import { EXAMPLE_SCENARIO } from './helpers/world.js';
import { sourceUrl } from '../mocks/core/source-url.js';
import { tempDir } from './helpers/journal.js';

// `toolbench coverage`: per endpoint and tool, the operations reached, by handler, spec fallback
// or nothing; from journals, or from the every-tool sweep of the catalog's services.

const spec = JSON.parse(readFileSync(new URL('./fixtures/specs/shop-api.json', sourceUrl(import.meta.url)), 'utf8')) as OpenApiDocument;
const shop = defineService<object, null>({
  id: 'shop', version: '1', dataset: z.object({}), load: () => undefined, context: () => null,
  operations: [operation('widgets.special', rest('GET', '/v1/widgets/special'), () => jsonResponse(200, {}))],
  errors: (error) => jsonResponse(error.status, { error: error.code }),
  refusal: () => new ServiceError(404, 'not_found', 'no'),
  fallback: specFallback({ spec, notFound: () => new ServiceError(404, 'not_found', 'no') }),
});
const header: JournalHeader = { format: 2, toolbench: 'test', scenario: 'c', datasetHash: '', seed: 1, catalogHash: '', epoch: '2025-01-01T00:00:00.000Z', tickMs: 1000, scenarioDir: '/x' };

test('coverage groups by endpoint and tool, and marks handler, spec fallback and unmatched', (t) => {
  const world = new World({ seed: 1, epochMs: 0, tickMs: 1000, journal: new MemoryJournal(header), services: [{ id: 'shop', hostnames: ['api.shop.test'], definition: shop, data: {} }] });
  const call = (tool: string | null, method: string, target: string): JournalEntry => world.process({
    host: 'api.shop.test', method, target, headers: [['Content-Type', 'application/json']], body: new TextEncoder().encode(method === 'POST' ? '{"name":"x"}' : ''),
    attribution: tool === null ? { kind: 'direct', client: null, endpoint: null, tool: null, callId: null } : { kind: 'mcp', client: 'shop', endpoint: 'shop', tool, callId: tool },
  });
  const entries = [
    call('make', 'POST', '/v1/widgets'), call('make', 'GET', '/v1/widgets/special'), call('look', 'GET', '/v1/widgets/wid_1'),
    call('look', 'GET', '/v1/widgets/wid_2'), call('look', 'GET', '/v1/gadgets/12345'), call(null, 'GET', '/v1/status'),
  ];
  const report = coverageOf(entries, new Map([['shop', shop]]));
  t.deepEqual(report.rows.map((r) => [r.endpoint, r.tool, r.operation, r.reach, r.calls, r.statuses]), [
    ['(direct)', null, 'getStatus', 'spec', 1, [200]],
    ['shop', 'look', 'GET /v1/gadgets/:number', 'unmatched', 1, [404]],
    ['shop', 'look', 'getWidget', 'spec', 2, [404]],
    ['shop', 'make', 'createWidget', 'spec', 1, [201]],
    ['shop', 'make', 'widgets.special', 'handler', 1, [200]],
  ]);
  t.deepEqual(report.unmatched.map((r) => r.operation), ['GET /v1/gadgets/:number']);
  t.is(coverageLines(report).at(-1), '1 operations by handlers, 3 by the spec fallback, 1 unmatched');
});

test('tool arguments come from the input schema, with overrides for what must exist', (t) => {
  const schema = {
    type: 'object', required: ['owner', 'count', 'state', 'labels', 'filter', 'when'],
    properties: {
      owner: { type: 'string' }, count: { type: 'integer', minimum: 5 }, state: { type: 'string', enum: ['open', 'closed'] },
      labels: { type: 'array', items: { type: 'string' } }, filter: { type: 'object', required: ['q'], properties: { q: { type: 'string', minLength: 30 } } },
      when: { anyOf: [{ type: 'null' }, { type: 'string', format: 'date-time' }] }, optional: { type: 'boolean' },
    },
  };
  t.deepEqual(toolArguments('t', schema, { common: { owner: 'acme' }, tools: { t: { optional: true } } }), {
    owner: 'acme', count: 5, state: 'open', labels: ['conformance-label'], filter: { q: 'conformance-qxxxxxxxxxxxxxxxxx' }, when: '2025-01-01T00:00:00Z', optional: true,
  });
});

test.serial('toolbench coverage JOURNAL: exit 1 and the request listed when an operation is unmatched; 0 when none', async (t) => {
  const dir = tempDir('toolbench-coverage-');
  const record = async (name: string, targets: string[]) => {
    const journalDir = join(dir, name, 'journal');
    const { world } = await openWorld({ scenarioDir: EXAMPLE_SCENARIO, journalDir });
    for (const target of targets) await world.dispatch({ host: 'api.github.com', method: 'GET', target, headers: [['Authorization', 'Bearer ghp_aliceAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA']], body: new Uint8Array() });
    await world.journal.close();
    return join(dir, name);
  };
  const clean = await record('clean', ['/repos/acme/widgets', '/repos/acme/widgets/issues/1']);
  const missing = await record('missing', ['/repos/acme/widgets', '/repos/acme/widgets/deployments/7']);
  const ok = await toolbench(['coverage', '--json', clean]);
  t.is(ok.code, 0, ok.stderr);
  const okReport = JSON.parse(ok.stdout);
  t.deepEqual(okReport.unmatched, []);
  t.is(okReport.rows.length, 2);
  t.true(okReport.rows.every((r: { endpoint: string; reach: string }) => r.endpoint === '(direct)' && r.reach === 'handler'));
  const bad = await toolbench(['coverage', join(missing, 'journal'), clean]);
  t.is(bad.code, 1);
  t.regex(bad.stdout, /unmatched\s+GET \/repos\/acme\/widgets\/deployments\/:number/);
  t.regex(bad.stdout, /1 unmatched$/m);
  // A format-1 journal (recorded before operations were named): today's mocks name its requests.
  const v1 = await toolbench(['coverage', '--json', fileURLToPath(new URL('./fixtures/journals-v1/example_github_basic', sourceUrl(import.meta.url)))]);
  t.is(v1.code, 0, v1.stderr);
  t.deepEqual(JSON.parse(v1.stdout).rows.filter((r: { tool: string | null }) => r.tool === 'create_issue').map((r: { reach: string }) => r.reach), ['handler']);
  const none = await toolbench(['coverage', join(dir, 'nothing-here')]);
  t.is(none.code, 2);
  t.regex(none.stderr, /no journal at .*nothing-here/);
});

// The full sweep calls every tool of all the catalog's servers (1,500 and more): each service's
// conformance suite sweeps its own in the normal run; this one runs with TOOLBENCH_LONG_TESTS=1 (CI).
(LONG ? test.serial : test.skip)('toolbench coverage without journals sweeps every tool of every catalog service with an endpoint', async (t) => {
  t.timeout(30 * 60_000);
  const result = await toolbench(['coverage', '--json', '--ca-dir', join(tempDir('toolbench-coverage-ca-'), 'ca')]);
  t.is(result.code, 0, result.stderr);
  const report = JSON.parse(result.stdout) as { rows: { endpoint: string; tool: string | null; reach: string }[]; unmatched: unknown[]; skipped: unknown[] };
  const snapshot = JSON.parse(readFileSync(new URL('../catalog/snapshots/github.json', sourceUrl(import.meta.url)), 'utf8')) as { tools: { name: string }[] };
  const reached = new Set(report.rows.filter((r) => r.endpoint === 'github').map((r) => r.tool));
  t.deepEqual(snapshot.tools.map((tool) => tool.name).filter((name) => !reached.has(name)), [], 'every GitHub tool reached an operation');
  t.deepEqual(report.unmatched, []);
  // Every catalog service with an endpoint is either swept (its endpoint's tools have rows) or listed as not swept, with why.
  const { catalog } = loadCatalog();
  const skipped = new Map((report.skipped as { service: string; reason: string }[]).map((s) => [s.service, s.reason]));
  for (const endpoint of catalog.endpoints) {
    const swept = report.rows.some((r) => r.endpoint === endpoint.id);
    t.true(swept !== skipped.has(endpoint.service), `${endpoint.id}: swept, or listed as not swept (${skipped.get(endpoint.service) ?? 'swept'})`);
  }
  t.is(result.stderr, '', 'no progress output when stderr is not a terminal');
});
