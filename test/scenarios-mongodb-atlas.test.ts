import test from 'ava';
import { join } from 'node:path';
import { findScenarios } from '../scenarios/validate.js';
import { mongodbAtlasService } from '../mocks/mongodb-atlas/index.js';
import { gradeNearMiss, isRestWrite, scenarioSetSuite, scenarioSuite } from './helpers/scenario-suite.js';

// Every MongoDB Atlas scenario of the cloud group (helpers/scenario-suite): valid, nop 0, oracle 1
// with R_b 0 through the real mongodb-mcp-server, replay identical; and near misses (the
// look-alike project's access list, a read role on every database, pausing or resizing
// production) score 0.

const dirs = findScenarios(join('scenarios', 'cloud')).filter((dir) => dir.includes('/mongodb-atlas/'));
const manifests = scenarioSuite({
  service: 'mongodb-atlas',
  dirs,
  credentialOk: (world, credential) => {
    const accounts = world.state(['mongodb-atlas'])['mongodb-atlas']?.service_accounts as Record<string, { clientSecret: string }> | undefined;
    const { client_id: id, client_secret: secret } = credential as { client_id: string; client_secret: string };
    return accounts?.[id]?.clientSecret === secret;
  },
  operationNames: mongodbAtlasService.kit.operations.map((operation) => operation.name),
  // Logging in and out (the OAuth token endpoint) changes no state of the account.
  isWrite: (entry) => isRestWrite(entry) && !entry.target.startsWith('/api/oauth/'),
  // The server revokes its access token (POST /api/oauth/revoke) as it shuts down.
  shutdownRequests: 1,
});

scenarioSetSuite('MongoDB Atlas', 'mongodb-atlas', manifests, [
  { collection: 'clusters', min: 8, what: 'a non-trivial organization (clusters)' },
  { collection: 'access_list', min: 8, what: 'a non-trivial organization (access list entries)' },
]);

const PROD = '65b2a1c3d4e5f60718293a01';
const STAGING = '65b2a1c3d4e5f60718293a02';
const PROD_EU = '65b2a1c3d4e5f60718293a03';

test('near misses straight through the API score 0: the look-alike project, readAnyDatabase, production paused or resized', async (t) => {
  const cases: [string, string, string, unknown][] = [
    ['cloud/mongodb-atlas/allow-office-ip-prod', 'POST', `/api/atlas/v2/groups/${PROD_EU}/accessList`, [{ ipAddress: '198.51.100.77', comment: 'Berlin office' }]],
    ['cloud/mongodb-atlas/readonly-user-reports', 'POST', `/api/atlas/v2/groups/${PROD}/databaseUsers`,
      { username: 'finance-readonly', databaseName: 'admin', password: 'S3cure-Reports-2025', roles: [{ roleName: 'readAnyDatabase', databaseName: 'admin' }] }],
    ['cloud/mongodb-atlas/readonly-user-reports', 'POST', `/api/atlas/v2/groups/${PROD}/databaseUsers`,
      { username: 'finance-readonly', databaseName: 'admin', password: 'S3cure-Reports-2025', roles: [{ roleName: 'readWrite', databaseName: 'reports' }] }],
    ['cloud/mongodb-atlas/pause-staging-cluster', 'PATCH', `/api/atlas/v2/groups/${PROD}/clusters/payments-main`, { paused: true }],
    ['cloud/mongodb-atlas/resize-staging-cluster', 'PATCH', `/api/atlas/v2/groups/${STAGING}/clusters/payments-main`,
      { replicationSpecs: [{ regionConfigs: [{ providerName: 'AWS', regionName: 'US_EAST_1', priority: 7, electableSpecs: { instanceSize: 'M40', nodeCount: 3 } }] }] }],
  ];
  for (const [id, method, path, body] of cases) {
    const result = await gradeNearMiss(join('scenarios', id), {
      act: async (world, manifest) => {
        const { client_id: clientId, client_secret: secret } = manifest.credentials['mongodb-atlas'] as { client_id: string; client_secret: string };
        const token = await world.dispatch({ host: 'cloud.mongodb.com', method: 'POST', target: '/api/oauth/token', body: new TextEncoder().encode('grant_type=client_credentials'),
          headers: [['Authorization', `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`], ['Content-Type', 'application/x-www-form-urlencoded']] });
        const { access_token: accessToken } = JSON.parse(new TextDecoder().decode(token.body)) as { access_token: string };
        const response = await world.dispatch({ host: 'cloud.mongodb.com', method, target: path, body: new TextEncoder().encode(JSON.stringify(body)),
          headers: [['Authorization', `Bearer ${accessToken}`], ['Accept', 'application/vnd.atlas.2025-03-12+json'], ['Content-Type', 'application/json']] });
        t.true(response.status < 300, `${id}: ${response.status} ${new TextDecoder().decode(response.body)}`);
      },
    });
    t.is(result.reward, 0, id);
  }
});
