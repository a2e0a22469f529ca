import test from 'ava';
import { z } from 'zod';
import { sweep } from '../mocks/circleci/conformance.js';
import { conformance } from './helpers/conformance.js';

// CircleCI through the conformance suite (test/helpers/conformance.ts): determinism, seeds, error
// and fault shapes, volatile fields, and the 13 tools of @circleci/mcp-server-circleci through MCP.

const TOKEN = 'CCIPAT_conformance_9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c';

const suite = conformance(test, {
  fullSweep: true, // a test below reads every tool's outcome
  service: 'circleci',
  sweep,
  headers: [['Circle-Token', TOKEN]],
  values: {
    vcs: ['gh', 'gh', 'gh', 'bb'], org: ['acme', 'acme', 'acme', 'nobody'], repo: ['storefront', 'payments-api', 'docs-site', 'storefront-legacy', 'missing'],
    number: ['101', '102', '1002', '1007', '1017', '9999'], stream: ['output', 'error'], task: ['0'], step: ['101', '401', '999'],
  },
  bodies: {
    'POST /api/v2/project/:vcs/:org/:repo/pipeline/run': (random) => ({ config: { branch: random.pick(['main', 'feature/x']) }, checkout: { branch: random.pick(['main', 'feature/x']) } }),
    'POST /api/v2/workflow/:id/rerun': (random) => ({ from_failed: random.pick([true, false]) }),
    'POST /api/v2/compile-config-with-defaults': (random) => ({ config_yaml: random.pick(['version: 2.1\njobs:\n  a:\n    docker: []\nworkflows:\n  w:\n    jobs:\n      - a\n', 'version: 3\n', 'jobs: {}\n']) }),
    'POST /api/v2/organizations/:org/usage_export_job': () => ({ start: '2025-11-01T00:00:00Z', end: '2025-11-05T23:59:59Z' }),
  },
  requests: [
    (random) => ({ method: 'GET', target: `/api/v2/project/gh/acme/${random.pick(['storefront', 'payments-api'])}/pipeline?branch=${random.pick(['main', 'release%2F2.4', 'nope'])}` }),
    (random) => ({ method: 'GET', target: `/api/private/me/followed-projects${random.pick(['', '?page-token=b2Zmc2V0OjI', '?page-token=bad!'])}` }),
  ],
  seeded: { patterns: [/\b[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\b/g, /\b[0-9a-f]{40}\b/g] },
  errorShape: z.object({ message: z.string() }).strict(),
});

test('circleci: the 12 tools that call the API succeed against the mock (find_underused_resource_classes only reads a local CSV)', async (t) => {
  const result = await suite.sweep();
  t.is(result.outcomes.length, 13);
  const failed = result.outcomes.filter((o) => o.tool !== 'find_underused_resource_classes' && (o.isError || o.transportError !== null)).map((o) => `${o.tool}: ${o.text.slice(0, 200)}`);
  t.deepEqual(failed, []);
  t.true(result.outcomes.every((o) => o.tool === 'find_underused_resource_classes' || (o.entries.length > 0 && o.entries.every((e) => e.response.status < 300))));
  const logs = result.outcomes.find((o) => o.tool === 'get_build_failure_logs')!;
  t.regex(logs.text, /TypeError: Cannot read properties of undefined \(reading 'price'\)/);
});
