import test from 'ava';
import { z } from 'zod';
import { sweep } from '../mocks/gitlab/conformance.js';
import { conformance } from './helpers/conformance.js';

// GitLab through the conformance suite (test/helpers/conformance.ts): determinism, seeds, error
// and fault shapes, volatile fields, and all 262 tools of @zereight/mcp-gitlab over MCP.

const sha = () => '0000000000000000000000000000000000000000';

conformance(test, {
  service: 'gitlab',
  sweep,
  headers: [['Authorization', 'Bearer gitlab-conformance-token']],
  values: {
    id: ['101', 'acme%2Fstorefront', '102', '999'], iid: ['1', '2', '9'], merge_request_iid: ['1', '2'], branch: ['main', 'feature%2Fcoupons', 'nope'],
    path: ['src%2Fcart.ts', 'README.md', 'missing.txt'], pipeline: ['9001', '9002', '1'], job: ['70001', '70003', '5'], sha: ['main', sha()],
    label: ['bug', 'feature', 'nope'], milestone: ['501', '9'], slug: ['home', 'nope'], note: ['100001', '1'], discussion: ['nope'],
    key: ['NPM_TOKEN', 'NOPE'], hook_id: ['301', '9'], tag: ['v1.0.0', 'v0'], tag_name: ['v1.0.0'], user: ['1', 'lee', 'nobody'], name: ['main'],
  },
  bodies: {
    'POST /api/v4/projects/:id/issues': (random, i) => ({ title: `Generated issue ${i}`, labels: random.pick(['bug', 'feature,needs-review', '']) }),
    'PUT /api/v4/projects/:id/issues/:iid': (random) => ({ state_event: random.pick(['close', 'reopen']), add_labels: 'needs-review' }),
    'POST /api/v4/projects/:id/issues/:iid/notes': (_random, i) => ({ body: `Generated note ${i}` }),
    'POST /api/v4/projects/:id/merge_requests/:iid/notes': (_random, i) => ({ body: `Generated MR note ${i}` }),
    'POST /api/v4/projects/:id/repository/branches': (random, i) => ({ branch: `gen-${i}`, ref: random.pick(['main', 'feature/coupons']) }),
    'POST /api/v4/projects/:id/labels': (_random, i) => ({ name: `gen-label-${i}`, color: '#123456' }),
    'POST /api/v4/projects/:id/variables': (_random, i) => ({ key: `GEN_${i}`, value: 'v' }),
    'POST /api/v4/projects/:id/repository/files/:path': (_random, i) => ({ branch: 'main', content: `generated ${i}\n`, commit_message: `Generated file ${i}` }),
  },
  requests: [
    (random) => ({ method: 'GET', target: `/api/v4/projects?pagination=keyset&order_by=id&sort=${random.pick(['asc', 'desc'])}&per_page=1` }),
    (random) => ({ method: 'GET', target: `/api/v4/projects/101/issues?state=${random.pick(['opened', 'closed', 'all'])}&labels=${random.pick(['bug', 'feature', ''])}&per_page=${random.int(1, 3)}&page=${random.int(1, 3)}` }),
    () => ({ method: 'GET', target: '/api/v4/projects/101/merge_requests/1/changes' }),
    () => ({ method: 'GET', target: '/api/v4/projects/101/jobs/70003/trace' }),
    () => ({ method: 'PUT', target: '/api/v4/projects/101/merge_requests/1/merge', body: {} }),
    () => ({ method: 'POST', target: '/api/v4/projects/101/issues', body: {} }),
    () => ({ method: 'GET', target: '/api/v4/user', headers: [['Authorization', 'Bearer wrong']] }),
    (_random, i) => ({ method: 'POST', target: '/api/v4/projects/101/issues/1/discussions', body: { body: `Generated thread ${i}` } }),
    (_random, i) => ({ method: 'POST', target: '/api/v4/projects/101/repository/commits', body: { branch: 'feature/coupons', commit_message: `Generated commit ${i}`, actions: [{ action: 'create', file_path: `gen/${i}.txt`, content: 'x' }] } }),
    () => ({ method: 'POST', target: '/api/graphql', body: { query: '{ project(fullPath: "acme/storefront") { id } }' } }),
  ],
  seeded: {
    // New commits, discussions and uploads take their SHAs from the seeded counters.
    patterns: [/[0-9a-f]{40}/, /[0-9a-f]{32}/, /glptt-[0-9a-f]+/],
    fields: ['id', 'short_id', 'parent_ids', 'discussion_id', 'commit_id', 'last_commit_id', 'blob_id', 'target', 'sha'],
  },
  errorShape: z.union([
    z.object({ message: z.union([z.string(), z.record(z.unknown()), z.array(z.string())]) }).strict(),
    z.object({ error: z.string() }).strict(),
  ]),
});
