import test from 'ava';
import { join } from 'node:path';
import { findScenarios } from '../scenarios/validate.js';
import { firecrawlService } from '../mocks/firecrawl/index.js';
import { gradeNearMiss, scenarioSetSuite, scenarioSuite } from './helpers/scenario-suite.js';

// Every Firecrawl scenario of the search group (helpers/scenario-suite): valid, nop 0, oracle 1 with
// R_b 0 through the real firecrawl-mcp, replay identical. Firecrawl reads by POST (scrape, search,
// crawl jobs): only monitor changes and feedback count as writes.

const WRITES = new Set(['monitor.create', 'monitor.update', 'monitor.delete', 'monitor.run', 'feedback.create', 'search.feedback']);

const dirs = findScenarios(join('scenarios', 'search')).filter((dir) => dir.includes('/firecrawl/'));
const manifests = scenarioSuite({
  service: 'firecrawl',
  dirs,
  credentialOk: (world, credential) => world.state(['firecrawl']).firecrawl?.keys?.[credential as string] !== undefined,
  operationNames: firecrawlService.kit.operations.map((operation) => operation.name),
  isWrite: (e) => WRITES.has(e.operation?.name ?? '') && e.response.status < 300,
});

scenarioSetSuite('Firecrawl', 'firecrawl', manifests, [
  { collection: 'pages', min: 60, what: 'a non-trivial web (pages)' },
]);

/** The near misses the distractors invite score 0, even with the oracle's calls made. */
test('near-miss answers score 0: the expired summer sailing, the undated or launch price, a sold or ordered ship, deprecated or unrelated limits', async (t) => {
  const cases: [string, string][] = [
    ['search/firecrawl/ferry-latest-departure', 'route=Gull Point time=23:50'],
    ['search/firecrawl/ferry-latest-departure', 'route=Whinny Holm time=22:45'],
    ['search/firecrawl/helix-price-current', 'price=149 since=2025-03-01'],
    ['search/firecrawl/helix-price-current', 'price=159 since=2024-10-02'],
    ['search/firecrawl/fleet-capacity-table', 'MV Alder Star=420/2009; MV Skerry Dawn=640/2019; MV Tern=350/2014; MV Holm Lass=210/2001; MV Gannet=700/1998'],
    ['search/firecrawl/fleet-capacity-table', 'MV Alder Star=420/2009; MV Skerry Dawn=640/2019; MV Tern=350/2014; MV Holm Lass=210/2001; MV Northlight=800/2026'],
    ['search/firecrawl/sensor-api-rate-limit', 'limit=1000 status=429'],
    ['search/firecrawl/sensor-api-rate-limit', 'limit=300 status=429'],
  ];
  for (const [id, answer] of cases) {
    const result = await gradeNearMiss(join('scenarios', id), { answer });
    t.is(result.reward, 0, `${id}: ${answer}`);
    t.true(result.checks.some((c) => c.kind === 'answer' && !c.ok), `${id}: the answer check fails`);
  }
});

test('the monitor near miss scores 0: deleting the look-alike Gull Point monitor instead of the summer one', async (t) => {
  const dir = join('scenarios', 'search', 'firecrawl', 'monitor-tern-timetable');
  const result = await gradeNearMiss(dir, {
    act: async (world, manifest) => {
      const headers: [string, string][] = [['Authorization', `Bearer ${manifest.credentials.firecrawl as string}`], ['Content-Type', 'application/json']];
      const body = { name: 'Tern Island timetable', schedule: { text: 'every 6 hours' }, goal: 'Tell me when the Tern Island sailings change', targets: [{ type: 'scrape', urls: ['https://www.harrowferries.example/timetables/winter-2025/tern-island'] }] };
      await world.dispatch({ host: 'api.firecrawl.dev', method: 'POST', target: '/v2/monitor', headers, body: new TextEncoder().encode(JSON.stringify(body)) });
      await world.dispatch({ host: 'api.firecrawl.dev', method: 'DELETE', target: '/v2/monitor/0b7e2c1a-4f3d-4e8a-9a61-5c2d7e8f9a01', headers, body: new Uint8Array() });
    },
  });
  t.is(result.reward, 0);
  t.true(result.checks.some((c) => c.kind === 'state' && !c.ok));
});
