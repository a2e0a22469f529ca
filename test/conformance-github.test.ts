import test from 'ava';
import { z } from 'zod';
import { sweep } from '../mocks/github/conformance.js';
import { conformance } from './helpers/conformance.js';
import { TOKENS } from './helpers/github-requests.js';

// The conformance suite over GitHub (test/helpers/conformance.ts): determinism, seeds, error and
// fault shapes, volatile fields, and all 26 tools of the pinned server through MCP.

const GitHubError = z.object({
  message: z.string(),
  errors: z.array(z.union([z.string(), z.object({ resource: z.string(), code: z.string() }).passthrough()])).optional(),
  documentation_url: z.string().url().optional(),
  status: z.string().regex(/^\d{3}$/).optional(),
}).strict();

const numbers = ['1', '2', '6', '39', '40', '41', '999'];

conformance(test, {
  service: 'github',
  sweep,
  headers: [['Authorization', `Bearer ${TOKENS.alice}`], ['Accept', 'application/vnd.github+json']],
  values: {
    owner: ['acme', 'alice', 'nobody'], repo: ['widgets', 'infra', 'dotfiles'], org: ['acme'], username: ['alice', 'bob', 'ghost'],
    issue_number: numbers, pull_number: numbers, comment_id: ['1', '2'], name: ['bug', 'documentation'],
    path: ['README.md', 'src', 'docs/new.md'], ref: ['heads/main', 'heads/feature/color-support', 'tags/none'], branch: ['main', 'release/1.0'],
  },
  bodies: {
    'POST /repos/:owner/:repo/issues': (r, i) => ({ title: `Generated ${i}`, labels: [r.pick(['bug', 'documentation'])] }),
    'PATCH /repos/:owner/:repo/issues/:issue_number': (r) => ({ state: r.pick(['open', 'closed']) }),
    'POST /repos/:owner/:repo/issues/:issue_number/comments': (_r, i) => ({ body: `Comment ${i}` }),
    'POST /repos/:owner/:repo/labels': (_r, i) => ({ name: `label-${i}`, color: 'ededed' }),
    'POST /user/repos': (_r, i) => ({ name: `generated-${i}` }),
    'PUT /repos/:owner/:repo/contents/*path': (_r, i) => ({ message: `Write ${i}`, content: Buffer.from(`file ${i}\n`).toString('base64') }),
  },
  requests: [
    (r) => ({ method: 'GET', target: `/search/issues?q=${encodeURIComponent(r.pick(['repo:acme/widgets bug', 'is:open label:bug', 'widget']))}` }),
    (r) => ({ method: 'GET', target: `/repos/acme/widgets/issues?state=${r.pick(['open', 'closed', 'all'])}&per_page=${r.int(1, 5)}&page=${r.int(1, 3)}` }),
  ],
  seeded: { fields: ['node_id'], headers: ['X-GitHub-Request-Id', 'ETag', 'Content-Length'] },
  errorShape: GitHubError,
});
