import test from 'ava';
import { join } from 'node:path';
import { gradeWorld } from '../scenarios/grade-world.js';
import { findScenarios } from '../scenarios/validate.js';
import { openWorld } from '../scenarios/world.js';
import { digitaloceanService } from '../mocks/digitalocean/index.js';
import { scenarioSetSuite, scenarioSuite } from './helpers/scenario-suite.js';

// Every DigitalOcean scenario of the cloud group (helpers/scenario-suite): valid (oracle arguments
// against the real server's input schemas), nop 0, oracle 1 with R_b 0 through the real
// @digitalocean/mcp (Go, HTTPS_PROXY), replay identical; and near misses (the look-alike Droplet,
// the staging zone, the old firewall, the current runners) score 0.

const dirs = findScenarios(join('scenarios', 'cloud')).filter((dir) => dir.includes('/digitalocean/'));
const manifests = scenarioSuite({
  service: 'digitalocean',
  dirs,
  credentialOk: (world, credential) => {
    const token = world.state(['digitalocean']).digitalocean?.tokens?.[credential as string] as { scope: string } | undefined;
    return token !== undefined && token.scope === 'write';
  },
  operationNames: digitaloceanService.kit.operations.map((operation) => operation.name),
});

scenarioSetSuite('DigitalOcean', 'digitalocean', manifests, [
  { collection: 'droplets', min: 20, what: 'a non-trivial team (droplets)' },
  { collection: 'records', min: 10, what: 'a non-trivial team (DNS records)' },
]);

/** A near miss straight through the API (as an agent with the wrong pick would make it) scores 0. */
test('near misses score 0: the web-prod-old Droplet, the replica, the staging zone, the old firewall, the ci runners', async (t) => {
  const cases: [string, string, string, unknown][] = [
    ['cloud/digitalocean/resize-web-prod', 'POST', '/v2/droplets/412500232/actions', { type: 'power_off' }],
    ['cloud/digitalocean/snapshot-db-primary', 'POST', '/v2/droplets/398701128/actions', { type: 'snapshot', name: 'db-primary-pre-pg16' }],
    ['cloud/digitalocean/repoint-api-record', 'PUT', '/v2/domains/staging.contosotravel.com/records/1700100126', { type: 'A', name: 'api', data: '138.197.60.56' }],
    ['cloud/digitalocean/grafana-office-access', 'POST', '/v2/firewalls/a1b2c3d4-0003-4a5b-8c6d-7e8f90a1b203/rules', { inbound_rules: [{ protocol: 'tcp', ports: '3000', sources: { addresses: ['198.51.100.0/24'] } }] }],
    ['cloud/digitalocean/power-off-legacy-runners', 'POST', '/v2/droplets/actions?tag_name=ci', { type: 'power_off' }],
  ];
  for (const [id, method, target, body] of cases) {
    const dir = join('scenarios', id);
    const manifest = manifests.get(dir)!;
    const opened = await openWorld({ scenarioDir: dir });
    try {
      const response = await opened.world.dispatch({ host: 'api.digitalocean.com', method, target, body: new TextEncoder().encode(JSON.stringify(body)),
        headers: [['Authorization', `Bearer ${manifest.credentials.digitalocean as string}`], ['Content-Type', 'application/json']] });
      t.true(response.status < 300, `${id}: ${response.status} ${new TextDecoder().decode(response.body)}`);
      const result = await gradeWorld(opened, { agent: 'near-miss', answer: manifest.oracle.answer, output: '', exit: { code: 0, signal: null }, interrupted: false });
      t.is(result.reward, 0, `${id}: ${method} ${target}`);
    } finally {
      await opened.world.journal.close();
    }
  }
});
