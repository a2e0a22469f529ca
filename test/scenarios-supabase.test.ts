import test from 'ava';
import { join } from 'node:path';
import { gradeWorld } from '../scenarios/grade-world.js';
import { findScenarios } from '../scenarios/validate.js';
import { openWorld } from '../scenarios/world.js';
import { supabaseService } from '../mocks/supabase/index.js';
import type { JournalEntry } from '../mocks/core/journal-format.js';
import { isRestWrite, scenarioSetSuite, scenarioSuite } from './helpers/scenario-suite.js';

// Every Supabase scenario of the cloud group (helpers/scenario-suite): valid, nop 0, oracle 1 with
// R_b 0 through the real @supabase/mcp-server-supabase, replay identical; and near misses
// (staging instead of production, the recent orders too, the look-alike project) score 0.

const dirs = findScenarios(join('scenarios', 'cloud')).filter((dir) => dir.includes('/supabase/'));
const manifests = scenarioSuite({
  service: 'supabase',
  dirs,
  credentialOk: (world, credential) => world.state(['supabase']).supabase?.tokens?.[credential as string] !== undefined,
  operationNames: supabaseService.kit.operations.map((operation) => operation.name),
  // database/query is a POST for reads too: a SELECT changes nothing.
  isWrite: (e) => isRestWrite(e) && !(e.operation?.name === 'v1-run-a-query' && /^\s*select\b/i.test(queryOf(e))),
});

function queryOf(e: JournalEntry): string {
  try { return String((JSON.parse(new TextDecoder().decode(e.request.body)) as { query?: unknown }).query ?? ''); } catch { return ''; }
}

scenarioSetSuite('Supabase', 'supabase', manifests, [
  { collection: 'tables', min: 10, what: 'a non-trivial account (tables)' },
  { collection: 'rows', min: 200, what: 'a non-trivial account (rows)' },
]);

const PROD = 'qzvhtkcwmfyrplxdnsoa';
const STAGING = 'bmnkwpqalsxvdtreyhuc';

test('near misses score 0: staging instead of production, the recent pending orders too, the look-alike project', async (t) => {
  const cases: [string, string, string, unknown][] = [
    ['cloud/supabase/enable-rls-on-loyalty-points', 'POST', `/v1/projects/${STAGING}/database/query`, { query: 'alter table loyalty_points enable row level security' }],
    ['cloud/supabase/cancel-stale-pending-orders', 'POST', `/v1/projects/${PROD}/database/query`, { query: "update orders set status = 'cancelled' where status = 'pending'" }],
    ['cloud/supabase/pause-analytics-sandbox', 'POST', '/v1/projects/hxlrcudjgtwoabnqzmef/pause', undefined],
    ['cloud/supabase/raise-storage-limit-in-production', 'PATCH', `/v1/projects/${STAGING}/config/storage`, { fileSizeLimit: 104857600, features: { imageTransformation: { enabled: true }, s3Protocol: { enabled: true } } }],
    ['cloud/supabase/create-coupons-table', 'POST', `/v1/projects/${PROD}/database/query`, { query: 'create table public.coupons (id bigint primary key, code text not null unique, percent_off integer not null, expires_at timestamptz)' }],
  ];
  for (const [id, method, path, body] of cases) {
    const dir = join('scenarios', id);
    const manifest = manifests.get(dir)!;
    const opened = await openWorld({ scenarioDir: dir });
    try {
      const response = await opened.world.dispatch({ host: 'api.supabase.com', method, target: path, body: new TextEncoder().encode(body === undefined ? '' : JSON.stringify(body)),
        headers: [['Authorization', `Bearer ${manifest.credentials.supabase as string}`], ['Content-Type', 'application/json']] });
      t.true(response.status < 300, `${id}: ${response.status} ${new TextDecoder().decode(response.body)}`);
      const result = await gradeWorld(opened, { agent: 'near-miss', answer: manifest.oracle.answer, output: '', exit: { code: 0, signal: null }, interrupted: false });
      t.is(result.reward, 0, `${id}: ${method} ${path}`);
    } finally {
      await opened.world.journal.close();
    }
  }
});
