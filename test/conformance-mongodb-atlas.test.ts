import test from 'ava';
import { z } from 'zod';
import { sweep } from '../mocks/mongodb-atlas/conformance.js';
import { mongodbAtlasService } from '../mocks/mongodb-atlas/index.js';
import { conformance } from './helpers/conformance.js';

// The conformance suite over MongoDB Atlas (test/helpers/conformance.ts): determinism, seeds,
// Atlas's error envelope for errors and faults, volatile fields, and all 24 tools of the pinned
// mongodb-mcp-server (its own node-fetch agent reaching the world through HTTPS_PROXY) over MCP.

const PROD = '65b2a1c3d4e5f60718293a01';
const SANDBOX = '65b2a1c3d4e5f60718293a05';
const AtlasError = z.object({ detail: z.string(), error: z.number().int(), errorCode: z.string().regex(/^[A-Z_]+$/), parameters: z.array(z.unknown()), reason: z.string() }).strict();
const OAuthError = z.object({ error: z.string(), error_description: z.string() }).strict();

conformance(test, {
  service: 'mongodb-atlas',
  sweep,
  headers: [['Authorization', 'Bearer mdb-conformance-access-token'], ['Accept', 'application/vnd.atlas.2025-03-12+json']],
  // The knowledge base answers on its own host; the custom methods (`…:start`) are reached by their rewritten routes.
  skipRoutes: mongodbAtlasService.routes!.map((route) => `${route.method} ${route.pattern}`).filter((route) => /\/_knowledge|\/~|\/api\/oauth/.test(route)),
  values: {
    groupId: [PROD, SANDBOX, '65b2a1c3d4e5f60718293aff'], orgId: ['65a1f0c2e4b0a1b2c3d4e5f6', '65a1f0c2e4b0a1b2c3d4e5ff'],
    clusterName: ['payments-main', 'payments-reporting', 'Cluster0', 'missing'], name: ['demo-flex', 'Cluster0', 'missing'],
    databaseName: ['admin'], username: ['payments-api', 'dev', 'missing'], entryValue: ['198.51.100.10', '10.20.0.0%2F16', '192.0.2.1'],
    processId: ['payments-main-shard-00-00.x.mongodb.net:27017'], sampleDatasetId: ['65b2a1c3d4e5f60718293a99'],
  },
  bodies: {
    'POST /api/atlas/v2/groups': (r, i) => ({ name: `gen-project-${i}`, orgId: r.pick(['65a1f0c2e4b0a1b2c3d4e5f6', '65a1f0c2e4b0a1b2c3d4e5f7']) }),
    'POST /api/atlas/v2/groups/:groupId/databaseUsers': (r, i) => ({ username: `gen-${i}`, databaseName: 'admin', password: 'gen-password', roles: [{ roleName: r.pick(['read', 'readWrite']), databaseName: 'app' }] }),
    'POST /api/atlas/v2/groups/:groupId/clusters': (r, i) => ({ name: `gen-${i}`, clusterType: 'REPLICASET', replicationSpecs: [{ regionConfigs: [{ providerName: 'AWS', regionName: 'US_EAST_1', priority: 7, electableSpecs: { instanceSize: r.pick(['M10', 'M20']), nodeCount: 3 } }] }] }),
    'PATCH /api/atlas/v2/groups/:groupId/clusters/:clusterName': (r) => ({ paused: r.pick([true, false]) }),
  },
  requests: [
    (r) => ({ method: 'GET', target: `/api/atlas/v2/groups?itemsPerPage=${r.int(1, 4)}&pageNum=${r.int(1, 3)}` }),
    (r) => ({ method: 'GET', target: `/api/atlas/v2/groups/${PROD}/alerts?status=${r.pick(['OPEN', 'CLOSED'])}` }),
    () => ({ method: 'GET', target: '/api/atlas/v2/groups/65b2a1c3d4e5f60718293a04/streams' }),
    () => ({ method: 'GET', target: '/api/atlas/v2/nope' }),
  ],
  seeded: { patterns: [/[0-9a-f]{24}/g, /\.[a-z0-9]{5}\.mongodb\.net/g, /atlas-[a-z0-9]{5}-shard/g, /eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9\.[0-9a-f]{48}/g, /vpc-[0-9a-f]{17}/g], headers: ['Content-Length', 'WWW-Authenticate'] },
  errorShape: z.union([AtlasError, OAuthError]),
  // atlas-connect-cluster creates a temporary user, then waits 30 s for a mongod no world has
  // before it answers "connecting".
  toolTimeoutMs: 90_000,
});
