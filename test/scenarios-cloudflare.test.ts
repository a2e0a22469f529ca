import test from 'ava';
import { join } from 'node:path';
import { gradeWorld } from '../scenarios/grade-world.js';
import { findScenarios } from '../scenarios/validate.js';
import { openWorld } from '../scenarios/world.js';
import { cloudflareService } from '../mocks/cloudflare/index.js';
import type { JournalEntry } from '../mocks/core/journal-format.js';
import { isRestWrite, scenarioSetSuite, scenarioSuite } from './helpers/scenario-suite.js';

// Every Cloudflare scenario of the cloud group (helpers/scenario-suite): valid (oracle arguments
// against the real server's input schemas), nop 0, oracle 1 with R_b 0 through the real
// @cloudflare/mcp-server-cloudflare, replay identical; and near misses (the staging namespace's
// key of the same name, the archive bucket's copy, the staging database, the canary Worker)
// score 0.

const dirs = findScenarios(join('scenarios', 'cloud')).filter((dir) => dir.includes('/cloudflare/'));
const manifests = scenarioSuite({
  service: 'cloudflare',
  dirs,
  credentialOk: (world, credential) => {
    const token = world.state(['cloudflare']).cloudflare?.tokens?.[(credential as { token: string }).token] as { read_only: boolean } | undefined;
    return token !== undefined && !token.read_only;
  },
  // GraphQL requests are named by root field (the analytics tools query `viewer`).
  operationNames: [...cloudflareService.kit.operations.map((operation) => operation.name), 'Query.viewer'],
  // D1 reads by POST too: a SELECT (or a query that changed nothing) is no write to bypass.
  isWrite: (entry) => isRestWrite(entry) && !(entry.operation?.name === 'd1.database.query' && !changedDb(entry)),
});

function changedDb(entry: JournalEntry): boolean {
  const body = JSON.parse(new TextDecoder().decode(entry.response.body)) as { result?: { meta?: { changed_db?: boolean } }[] };
  return (body.result ?? []).some((r) => r.meta?.changed_db === true);
}

scenarioSetSuite('Cloudflare', 'cloudflare', manifests, [
  { collection: 'dns_records', min: 30, what: 'a non-trivial account (DNS records)' },
  { collection: 'kv_values', min: 40, what: 'a non-trivial account (KV values)' },
  { collection: 'workers', min: 5, what: 'a non-trivial account (Workers)' },
]);

const ACCOUNT = '5f2c8e1a9b7d4c3e8a6f0b1d2e3c4a5b';
const KV = `/client/v4/accounts/${ACCOUNT}/storage/kv/namespaces`;
const D1 = `/client/v4/accounts/${ACCOUNT}/d1/database`;

/** A near miss straight through the API (as an agent with the wrong pick would make it) scores 0. */
test('near misses score 0: the staging namespace, the archive copy, the staging database, the canary Worker', async (t) => {
  const cases: [string, string, string, string | undefined][] = [
    ['cloud/cloudflare/repoint-api-origin', 'PUT', `${KV}/3e96e0603fea7c735d647e803c3c4c93/values/origin:api.example.com`, '203.0.113.77'],
    ['cloud/cloudflare/repoint-api-origin', 'PUT', `${KV}/8209fffe3da5ac9e4506974a53801bdc/values/origin:api-staging.example.com`, '203.0.113.77'],
    ['cloud/cloudflare/delete-leaked-export', 'DELETE', `/client/v4/accounts/${ACCOUNT}/r2/buckets/acme-exports-archive/objects/exports/customers-2025-10.csv`, undefined],
    ['cloud/cloudflare/delete-leaked-export', 'DELETE', `/client/v4/accounts/${ACCOUNT}/r2/buckets/acme-exports/objects/exports/old/customers-2025-10.csv`, undefined],
    ['cloud/cloudflare/refund-order-in-prod-d1', 'POST', `${D1}/0a9b8c7d-6e5f-4a3b-8c1d-0e9f8a7b6c5d/query`, JSON.stringify({ sql: "UPDATE orders SET status = 'refunded' WHERE id = 1042" })],
    ['cloud/cloudflare/refund-order-in-prod-d1', 'POST', `${D1}/6b1e3c2a-8d4f-4a9b-9c1d-2e3f4a5b6c7d/query`, JSON.stringify({ sql: "UPDATE orders SET status = 'refunded' WHERE id = 1024" })],
    ['cloud/cloudflare/retire-checkout-v1-worker', 'DELETE', `/client/v4/accounts/${ACCOUNT}/workers/scripts/checkout-v1-canary`, undefined],
  ];
  for (const [id, method, path, body] of cases) {
    const dir = join('scenarios', id);
    const manifest = manifests.get(dir)!;
    const opened = await openWorld({ scenarioDir: dir });
    try {
      const response = await opened.world.dispatch({ host: 'api.cloudflare.com', method, target: path, body: new TextEncoder().encode(body ?? ''),
        headers: [['Authorization', `Bearer ${(manifest.credentials.cloudflare as { token: string }).token}`], ['Content-Type', body?.startsWith('{') ? 'application/json' : 'text/plain']] });
      t.true(response.status < 300, `${id}: ${response.status} ${new TextDecoder().decode(response.body)}`);
      const result = await gradeWorld(opened, { agent: 'near-miss', answer: manifest.oracle.answer, output: '', exit: { code: 0, signal: null }, interrupted: false });
      t.is(result.reward, 0, `${id}: ${method} ${path}`);
    } finally {
      await opened.world.journal.close();
    }
  }
});
