import test from 'ava';
import { credentialVars, placeholderCredential, renderEnv } from '../catalog/env-template.js';
import { endpointEnvironment } from '../catalog/supervisor.js';
import { EndpointEntrySchema } from '../catalog/schema.js';
import { ScenarioManifestSchema } from '../scenarios/manifest.js';

// A scenario's credential is a string or a table of values; env templates name a table's values.

const slack = EndpointEntrySchema.parse({
  id: 'slack', service: 'slack', kind: 'upstream', package: '@modelcontextprotocol/server-slack', version: '2025.4.25', reach: 'preload', bridge_port: 7102,
  env: { SLACK_BOT_TOKEN: '{{credential.token}}', SLACK_TEAM_ID: '{{credential.team_id}}' },
});
const network = { proxyUrl: 'http://slack:pw@127.0.0.1:1', caPath: '/ca.pem', preloadPath: '/preload.mjs', serviceUrl: 'http://127.0.0.1:2' };

test('a table fills {{credential.KEY}}; a string fills {{credential}}', (t) => {
  const env = endpointEnvironment({ endpoint: slack, credential: { token: 'xoxb-1', team_id: 'T01EXAMPLE' }, network }, {});
  t.like(env, { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_TEAM_ID: 'T01EXAMPLE', HTTPS_PROXY: network.proxyUrl });
  t.deepEqual(credentialVars('ghp_x'), { credential: 'ghp_x' });
  t.deepEqual(renderEnv({ A: '{{credential}}' }, credentialVars('ghp_x'), 'e'), { A: 'ghp_x' });
});

test('a missing value fails with its name; a string credential where a table is needed fails too', (t) => {
  t.throws(() => endpointEnvironment({ endpoint: slack, credential: { token: 'xoxb-1' }, network }, {}), { message: /endpoints\.slack\.env\.SLACK_TEAM_ID: \{\{credential\.team_id\}\} has no value here/ });
  t.throws(() => endpointEnvironment({ endpoint: slack, credential: 'xoxb-1', network }, {}), { message: /\{\{credential\.token\}\} has no value/ });
});

test('capturing tool lists fills every value a template names with the placeholder', (t) => {
  t.deepEqual(placeholderCredential(slack.env, 'cap'), { token: 'cap', team_id: 'cap' });
  t.is(placeholderCredential({ GITHUB_PERSONAL_ACCESS_TOKEN: '{{credential}}' }, 'cap'), 'cap');
});

test('scenario.toml: credentials are strings or tables of lower-case keys', (t) => {
  const base = { id: 'x/y/z', group: 'collab', services: ['slack'], epoch: '2024-01-01T00:00:00Z' };
  t.deepEqual(ScenarioManifestSchema.parse({ ...base, credentials: { slack: { token: 'xoxb-1', team_id: 'T1' }, github: 'ghp' } }).credentials,
    { slack: { token: 'xoxb-1', team_id: 'T1' }, github: 'ghp' });
  t.false(ScenarioManifestSchema.safeParse({ ...base, credentials: { slack: { Token: 'x' } } }).success);
  t.false(ScenarioManifestSchema.safeParse({ ...base, credentials: { slack: '' } }).success);
});
