import test from 'ava';
import { z } from 'zod';
import { sweep } from '../mocks/digitalocean/conformance.js';
import { digitaloceanService } from '../mocks/digitalocean/index.js';
import { conformance } from './helpers/conformance.js';

// The conformance suite over DigitalOcean (test/helpers/conformance.ts): determinism, seeds,
// error and fault shapes, volatile fields, and all 353 tools of the pinned @digitalocean/mcp
// (a Go binary reaching the world through HTTPS_PROXY) through MCP.

const TOKEN = 'dop_v1_conformance000000000000000000000000000000000000000000000000a';
const DROPLETS = ['398100201', '398100338', '398100475', '999999999'];

const DoError = z.object({ id: z.string().min(1), message: z.string(), request_id: z.string().uuid().optional() }).strict();

conformance(test, {
  service: 'digitalocean',
  sweep,
  headers: [['Authorization', `Bearer ${TOKEN}`]],
  // The docs site (reached by its own Host, HTML 404s) and presigned uploads are not the API's routes.
  skipRoutes: digitaloceanService.routes!.map((route) => `${route.method} ${route.pattern}`).filter((route) => / \/_docs|\/v1\/batches\/files/.test(route)),
  values: {
    droplet_id: DROPLETS, action_id: ['2410000001', '1'], domain_name: ['harborlabs.dev', 'missing.example'], domain_record_id: ['1730398103', '1'],
    tag_id: ['worker', 'web-prod', 'missing'], ssh_key_identifier: ['41000032', 'missing'], project_id: ['default', '00000000-0000-4000-8000-000000000000'],
  },
  bodies: {
    'POST /v2/droplets': (r, i) => ({ name: `gen-${i}`, region: r.pick(['nyc3', 'sfo3', 'ams3']), size: r.pick(['s-1vcpu-1gb', 's-2vcpu-2gb']), image: 'ubuntu-24-04-x64', tags: [r.pick(['worker', 'web-prod'])] }),
    'POST /v2/droplets/:droplet_id/actions': (r) => ({ type: r.pick(['power_off', 'power_on', 'reboot', 'resize', 'snapshot']), size: 's-4vcpu-8gb', name: 'gen-snap' }),
    'POST /v2/domains/:domain_name/records': (r, i) => ({ type: 'A', name: `gen${i}`, data: `203.0.113.${r.int(1, 250)}` }),
    'POST /v2/tags': (_r, i) => ({ name: `gen-${i}` }),
    'POST /v2/volumes': (r, i) => ({ name: `gen-${i}`, size_gigabytes: r.int(1, 100), region: 'nyc3' }),
  },
  requests: [
    (r) => ({ method: 'GET', target: `/v2/droplets?per_page=${r.int(1, 6)}&page=${r.int(1, 3)}` }),
    (r) => ({ method: 'GET', target: `/v2/droplets?tag_name=${r.pick(['web-prod', 'web-prod-old', 'worker'])}` }),
    // The long tail, weighted up: the spec fallback's lists, creates and reads.
    ...[1, 2, 3, 4].map(() => (r: { pick<T>(items: readonly T[]): T }) => ({ method: 'GET', target: `/v2/${r.pick(['load_balancers', 'vpcs', 'apps', 'databases', 'kubernetes/clusters', 'reserved_ips', 'certificates'])}` })),
    ...[1, 2, 3].map(() => (r: { pick<T>(items: readonly T[]): T }, i: number) => ({ method: 'POST', target: '/v2/vpcs', body: { name: `gen-vpc-${i}`, region: r.pick(['nyc3', 'ams3']) } })),
    () => ({ method: 'GET', target: '/v2/nope' }),
  ],
  seeded: { patterns: [/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/g, /164\.90\.\d+\.\d+/g], headers: ['Content-Length'] },
  errorShape: DoError,
});
