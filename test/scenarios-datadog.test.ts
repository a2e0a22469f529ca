import test from 'ava';
import { join } from 'node:path';
import { openWorld } from '../scenarios/world.js';
import { gradeWorld } from '../scenarios/grade-world.js';
import { findScenarios } from '../scenarios/validate.js';
import { datadogService } from '../mocks/datadog/index.js';
import { isRestWrite, scenarioSetSuite, scenarioSuite } from './helpers/scenario-suite.js';

// Every Datadog scenario of the ops group (helpers/scenario-suite): valid, nop 0, oracle 1 with
// R_b 0 through the real @winor30/mcp-server-datadog, replay identical, bypassed writes fail; and
// near misses score 0. Logs and spans are searched by POST: those are reads, not writes.

const SEARCHES = new Set(['v2.listLogs', 'v2.listSpans']);
const dirs = findScenarios(join('scenarios', 'ops')).filter((dir) => dir.includes('/datadog/'));
const manifests = scenarioSuite({
  service: 'datadog',
  dirs,
  credentialOk: (world, credential) => {
    const { api_key, app_key } = credential as { api_key?: string; app_key?: string };
    return Object.values(world.state(['datadog']).datadog!.keys ?? {}).some((key) => (key as { api_key: string; app_key: string }).api_key === api_key && (key as { app_key: string }).app_key === app_key);
  },
  operationNames: datadogService.kit.operations.map((operation) => operation.name),
  isWrite: (entry) => isRestWrite(entry) && !SEARCHES.has(entry.operation?.name ?? ''),
});

scenarioSetSuite('Datadog', 'datadog', manifests, [
  { collection: 'hosts', min: 20, what: 'a fleet of hosts' },
  { collection: 'monitors', min: 15, what: 'many monitors' },
  { collection: 'logs', min: 100, what: 'a log history' },
]);

/** A near miss scores 0: the staging look-alike muted, or a downtime on the host that is hot but below 90%. */
test('near misses score 0: the forbidden write is caught and the expected state is missing', async (t) => {
  const cases: [string, string, Record<string, unknown>][] = [
    ['ops/datadog/mute-host-behind-cpu-alert', '/api/v1/host/web-03.staging.acme.internal/mute', { end: 1741089600 }],
    ['ops/datadog/mute-host-logging-db-errors', '/api/v1/host/api-04.staging.acme.internal/mute', { end: 1741345200 }],
    ['ops/datadog/downtime-for-cpu-pinned-web-host', '/api/v1/downtime', { scope: ['host:web-06.prod.acme.internal'], end: 1741456800 }],
  ];
  for (const [id, target, body] of cases) {
    const dir = join('scenarios', id);
    const manifest = manifests.get(dir)!;
    const { api_key, app_key } = manifest.credentials.datadog as { api_key: string; app_key: string };
    const opened = await openWorld({ scenarioDir: dir });
    try {
      const response = await opened.world.dispatch({ host: 'api.datadoghq.com', method: 'POST', target, body: new TextEncoder().encode(JSON.stringify(body)),
        headers: [['DD-API-KEY', api_key], ['DD-APPLICATION-KEY', app_key], ['Content-Type', 'application/json']] });
      t.is(response.status, 200, `${id}: ${target}`);
      const result = await gradeWorld(opened, { agent: 'near-miss', answer: manifest.oracle.answer, output: '', exit: { code: 0, signal: null }, interrupted: false });
      t.is(result.reward, 0, `${id}: ${target}`);
      t.false(result.forbidden_calls_ok, `${id}: ${target}`);
    } finally {
      await opened.world.journal.close();
    }
  }
});
