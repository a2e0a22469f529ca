import type { SweepProfile } from '../kit/sweep-profile.js';

/**
 * How the conformance suite and `toolbench coverage` call the 24 tools of mongodb-mcp-server in
 * the conformance world (mocks/mongodb-atlas/conformance): acme-corp's projects and clusters.
 * Creates go to the sandbox project; pause and upgrade target staging's clusters.
 */
const PROD = '65b2a1c3d4e5f60718293a01';
const STAGING = '65b2a1c3d4e5f60718293a02';
const ANALYTICS = '65b2a1c3d4e5f60718293a04';
const SANDBOX = '65b2a1c3d4e5f60718293a05';

export const sweep: SweepProfile = {
  scenario: 'mocks/mongodb-atlas/conformance',
  args: {
    common: { projectId: PROD, orgId: '65a1f0c2e4b0a1b2c3d4e5f6', clusterName: 'payments-main' },
    tools: {
      'atlas-create-project': { projectName: 'sweep-project', orgId: '65a1f0c2e4b0a1b2c3d4e5f6' },
      'atlas-create-db-user': { projectId: SANDBOX, username: 'sweep-user', password: 'sweep-password-1', roles: [{ roleName: 'read', databaseName: 'sample_mflix' }] },
      'atlas-create-free-cluster': { projectId: STAGING, name: 'sweep-free', region: 'US_EAST_1' },
      'atlas-create-cluster': { projectId: SANDBOX, clusterName: 'sweep-dedicated', provider: 'AWS', regions: ['US_EAST_1'], instanceSize: 'M10' },
      'atlas-create-access-list': { projectId: SANDBOX, ipAddresses: ['198.51.100.200'], comment: 'sweep' },
      'atlas-pause-resume-cluster': { projectId: STAGING, clusterName: 'payments-main', action: 'PAUSE' },
      'atlas-upgrade-cluster': { projectId: PROD, clusterName: 'payments-reporting', targetTier: 'M40' },
      'atlas-load-sample-dataset': { projectId: SANDBOX, clusterName: 'Cluster0' },
      'atlas-connect-cluster': { projectId: SANDBOX, clusterName: 'Cluster0' },
      'atlas-list-alerts': { projectId: ANALYTICS },
      'atlas-streams-discover': { projectId: ANALYTICS, action: 'list-workspaces' },
      'atlas-streams-build': { projectId: ANALYTICS, resource: 'workspace', workspaceName: 'sweep-ws', cloudProvider: 'AWS', region: 'VIRGINIA_USA', tier: 'SP10' },
      'atlas-streams-manage': { projectId: ANALYTICS, workspaceName: 'clickstream', action: 'update-workspace', newTier: 'SP30' },
      'atlas-streams-teardown': { projectId: ANALYTICS, resource: 'processor', workspaceName: 'clickstream', resourceName: 'sessionize' },
      'search-knowledge': { query: 'pause a cluster', limit: 3 },
    },
  },
  order: ['atlas-create-project', 'atlas-streams-build'],
  // The server's region list is built in; it calls no API.
  offline: ['atlas-get-regions'],
  // atlas-connect-cluster creates a temporary user, then waits 30 s for a mongod no world has.
  toolTimeoutMs: 90_000,
  slow: ['atlas-connect-cluster'],
};
