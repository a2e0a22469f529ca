import test from 'ava';
import { join } from 'node:path';
import { findScenarios } from '../scenarios/validate.js';
import { elasticsearchService } from '../mocks/elasticsearch/index.js';
import { apiNames } from '../mocks/elasticsearch/routes.js';
import { gradeNearMiss, scenarioSetSuite, scenarioSuite } from './helpers/scenario-suite.js';

// Every Elasticsearch scenario of the search group (helpers/scenario-suite): valid, nop 0, oracle 1
// with R_b 0 through the real @elastic/mcp-server-elasticsearch, replay identical. The server's
// four tools only read, so each scenario is graded on its answer: a fact that needs a filter and a
// sort, an aggregation over the right window, or two sources weighed by date and status.

const WRITES = new Set(['index', 'create', 'update', 'delete', 'bulk', 'indices.create', 'indices.delete']);

const dirs = findScenarios(join('scenarios', 'search')).filter((dir) => dir.includes('/elasticsearch/'));
const manifests = scenarioSuite({
  service: 'elasticsearch',
  dirs,
  credentialOk: (world, credential) => world.state(['elasticsearch']).elasticsearch?.api_keys?.[credential as string] !== undefined,
  operationNames: apiNames(elasticsearchService.kit.operations),
  // Elasticsearch searches by POST: only the document and index APIs write.
  isWrite: (entry) => WRITES.has(entry.operation?.name ?? '') && entry.response.status < 300,
});

scenarioSetSuite('Elasticsearch', 'elasticsearch', manifests, [
  { collection: 'docs', min: 100, what: 'a non-trivial deployment (documents)' },
  { collection: 'indices', min: 2, what: 'more than one index' },
]);

/** The near-miss answers each scenario plants (the wrong window, service, day, trace step) fail its answer checks; the oracle's pass them. */
test('near-miss answers fail the answer checks: the old incident, the older article, the day before, the symptom instead of the cause', async (t) => {
  const cases: [string, string][] = [
    ['search/elasticsearch/first-gateway-timeout', 'time=09:12:44 order=ORD-500113'],
    ['search/elasticsearch/first-gateway-timeout', 'time=22:58:10 order=ORD-471120'],
    ['search/elasticsearch/top-error-service-last-day', 'service=inventory errors=16'],
    ['search/elasticsearch/top-error-service-last-day', 'service=auth errors=11'],
    ['search/elasticsearch/current-refund-window', 'days=30 article=KB-2031'],
    ['search/elasticsearch/current-refund-window', 'days=21 article=KB-2214'],
    ['search/elasticsearch/slowest-request-on-the-18th', 'path=/api/v2/search ms=12044'],
    ['search/elasticsearch/slowest-request-on-the-18th', 'path=/api/v2/reviews ms=9650'],
    ['search/elasticsearch/trace-failed-order', 'order=ORD-730215 error=OrderFailedError'],
    ['search/elasticsearch/trace-failed-order', 'order=ORD-730266 error=CardDeclinedError'],
  ];
  for (const [id, answer] of cases) {
    const dir = join('scenarios', id);
    const answerChecks = async (text: string) => (await gradeNearMiss(dir, { answer: text })).checks.filter((check) => check.kind === 'answer');
    t.true((await answerChecks(manifests.get(dir)!.oracle.answer!)).every((check) => check.ok), `${id}: the oracle's answer passes`);
    t.false((await answerChecks(answer)).every((check) => check.ok), `${id}: ${answer}`);
  }
});
