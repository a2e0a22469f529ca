import test from 'ava';
import { join } from 'node:path';
import { gradeNearMiss, scenarioSuite } from './helpers/scenario-suite.js';

// The cloud cross-service scenario: the droplet the API moved to is found in DigitalOcean and
// Cloudflare's production KV origin for api.example.com points at its public address. Valid, nop
// 0, oracle 1 with R_b 0 over both MCP servers, replay identical; the addresses the near misses
// invite (the old droplet, staging's new one, the private address) score 0.

const dir = join('scenarios', 'cloud', 'cross', 'origin-for-resized-api-droplet');
const manifest = scenarioSuite({
  service: 'cloudflare',
  services: ['cloudflare', 'digitalocean'],
  dirs: [dir],
  credentialOk: (world, credential) => {
    const token = world.state(['cloudflare']).cloudflare?.tokens?.[(credential as { token: string }).token] as { read_only: boolean } | undefined;
    return token !== undefined && !token.read_only;
  },
}).get(dir)!;

test('near misses score 0: the old droplet\'s, staging\'s or the private address as the production origin', async (t) => {
  const credential = manifest.credentials.cloudflare as { token: string; account_id: string };
  for (const value of ['203.0.113.20', '203.0.113.78', '10.116.0.77']) {
    const result = await gradeNearMiss(dir, {
      act: async (world) => {
        const response = await world.dispatch({
          host: 'api.cloudflare.com', method: 'PUT', body: new TextEncoder().encode(value),
          target: `/client/v4/accounts/${credential.account_id}/storage/kv/namespaces/8209fffe3da5ac9e4506974a53801bdc/values/origin:api.example.com`,
          headers: [['Authorization', `Bearer ${credential.token}`], ['Content-Type', 'text/plain']],
        });
        t.true(response.status < 300, `${response.status} ${new TextDecoder().decode(response.body)}`);
      },
    });
    t.is(result.reward, 0, value);
  }
});
