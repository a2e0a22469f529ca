import test from 'ava';
import { join } from 'node:path';
import { placeholderProblems, renderEnv, renderTemplate, placeholderCredential } from '../catalog/env-template.js';
import { loadCatalog, type LoadedCatalog } from '../catalog/load.js';
import { CatalogSchema, EndpointEntrySchema } from '../catalog/schema.js';
import { endpointEnvironment } from '../catalog/supervisor.js';
import { parseToml } from '../catalog/toml-file.js';
import { createCa, ensureCa } from '../certs/index.js';
import { covers, permits } from '../certs/name-constraints.js';
import { hostClashes, HostTable, parseHostPattern } from '../mocks/core/hosts.js';
import { ScenarioManifestSchema } from '../scenarios/manifest.js';
import { validateScenario } from '../scenarios/validate.js';
import { HostRoutes } from '../proxy/routes.js';
import { EXAMPLE_SCENARIO } from './helpers/world.js';
import { tempDir } from './helpers/journal.js';

test('host table: concrete hosts, patterns with their placeholder values, concrete wins', (t) => {
  const table = new HostTable([
    { host: '{site}.atlassian.net', value: 'jira' },
    { host: 'status.atlassian.net', value: 'statuspage' },
    { host: '{bucket}.s3.{region}.amazonaws.com', value: 's3' },
    { host: '{service}.{region}.amazonaws.com', value: 'aws' },
    { host: 'slack.com', value: 'slack' },
    { host: '{team}.slack.com', value: 'slack' },
  ]);
  t.deepEqual(table.resolve('acme.atlassian.net'), { value: 'jira', entry: '{site}.atlassian.net', params: { site: 'acme' } });
  t.deepEqual(table.resolve('Status.Atlassian.NET.:443'), { value: 'statuspage', entry: 'status.atlassian.net', params: {} });
  t.deepEqual(table.resolve('logs.s3.eu-west-1.amazonaws.com')?.params, { bucket: 'logs', region: 'eu-west-1' });
  t.deepEqual(table.resolve('ec2.us-east-1.amazonaws.com'), { value: 'aws', entry: '{service}.{region}.amazonaws.com', params: { service: 'ec2', region: 'us-east-1' } });
  t.deepEqual(table.resolve('acme.slack.com')?.params, { team: 'acme' });
  t.is(table.resolve('slack.com')?.entry, 'slack.com');
  // One placeholder is one label: never none, never two, never a non-DNS label.
  for (const host of ['atlassian.net', 'a.b.atlassian.net', 'under_score.atlassian.net', '-x.atlassian.net', 'example.com']) t.is(table.resolve(host), undefined, host);
  t.deepEqual(table.concreteHosts, ['status.atlassian.net', 'slack.com']);
  t.deepEqual(table.patternSuffixes, ['atlassian.net', 'amazonaws.com', 'slack.com']);
});

test('host patterns: malformed ones say what is wrong; two that can match one host are named together', (t) => {
  for (const [bad, why] of [
    ['{x}.com', /at least two fixed labels after its last placeholder/],
    ['api.{region}', /at least two fixed labels/],
    ['{a}{b}.x.com', /label "\{a\}\{b\}"/],
    ['Api.GitHub.com', /lower-case DNS label/],
    ['{x}.{x}.a.com', /uses \{x\} twice/],
    ['localhost', /at least two labels/],
  ] as const) t.throws(() => parseHostPattern(bad), { message: why }, bad);
  t.deepEqual(hostClashes(['{site}.atlassian.net', '{org}.atlassian.net', 'api.github.com', '{a}.{b}.amazonaws.com', 's3.{region}.amazonaws.com', 'api.github.com'])
    .map((c) => [c.a, c.b]), [['{site}.atlassian.net', '{org}.atlassian.net'], ['{a}.{b}.amazonaws.com', 's3.{region}.amazonaws.com'], ['api.github.com', 'api.github.com']]);
  t.deepEqual(hostClashes(['{service}.{region}.amazonaws.com', '{bucket}.s3.{region}.amazonaws.com', 'sts.amazonaws.com', '{team}.slack.com', 'slack.com']), []);
  t.throws(() => new HostTable([{ host: '{a}.x.io', value: 1 }, { host: '{b}.x.io', value: 2 }]), { message: 'host patterns {a}.x.io and {b}.x.io can match the same host' });
});

const service = (id: string, hosts: string[], port: number) => ['[[services]]', `id = "${id}"`, 'group = "code"', `hostnames = ${JSON.stringify(hosts)}`, `port = ${port}`, 'auth = "none"', ''];

test('the catalog takes host patterns and [[noise]]; a clash names both entries with its line', (t) => {
  const good = parseToml('ok.toml', [
    ...service('jira', ['{site}.atlassian.net'], 9001), ...service('status', ['status.atlassian.net'], 9002),
    '[[noise]]', 'id = "beacon"', 'hostnames = ["{region}.telemetry.example.net"]', 'status = 204', '',
  ].join('\n'), CatalogSchema);
  t.like(good.noise[0], { id: 'beacon', status: 204, content_type: 'application/json', body: '' });

  const clash = t.throws(() => parseToml('clash.toml', [
    ...service('jira', ['{site}.atlassian.net'], 9001), ...service('confluence', ['{space}.atlassian.net'], 9002),
  ].join('\n'), CatalogSchema));
  t.regex(clash!.message, /line 11, field services\[1\]\.hostnames\[0\]: host pattern \{space\}\.atlassian\.net can match the same host as \{site\}\.atlassian\.net of services\[0\] \(jira\)/);

  const noise = t.throws(() => parseToml('noise.toml', [
    ...service('npm', ['registry.npmjs.org'], 9001), '[[noise]]', 'id = "npm"', 'hostnames = ["registry.npmjs.org"]',
  ].join('\n'), CatalogSchema));
  t.regex(noise!.message, /field noise\[0\]\.hostnames\[0\]: hostname registry\.npmjs\.org is already claimed by services\[0\] \(npm\)/);

  const bad = t.throws(() => parseToml('bad.toml', service('x', ['{x}.com'], 9001).join('\n'), CatalogSchema));
  t.regex(bad!.message, /line 4, field services\[0\]\.hostnames\[0\]: "\{x\}\.com" must end in at least two fixed labels/);
});

test('the proxy routes patterns, noise, passthrough and metadata probes; its TLS names are hosts and .suffixes', (t) => {
  const routes = new HostRoutes({
    services: [{ id: 'jira', hostnames: ['{site}.atlassian.net'] }, { id: 'github', hostnames: ['api.github.com'] }],
    noise: [{ hostnames: ['api.agnost.ai', '{r}.in.applicationinsights.azure.com'] }],
    passthrough: ['api.anthropic.com'],
  });
  t.deepEqual(routes.route('acme.atlassian.net'), { kind: 'service', host: 'acme.atlassian.net', service: 'jira' });
  t.deepEqual(routes.route('westus-0.in.applicationinsights.azure.com'), { kind: 'noise', host: 'westus-0.in.applicationinsights.azure.com' });
  t.deepEqual(routes.route('api.anthropic.com'), { kind: 'passthrough', host: 'api.anthropic.com' });
  t.deepEqual(routes.route('169.254.169.254'), { kind: 'blocked', host: '169.254.169.254', why: 'cloud-metadata' });
  t.deepEqual(routes.route('[fd00:ec2::254]'), { kind: 'blocked', host: '[fd00:ec2::254]', why: 'cloud-metadata' });
  t.deepEqual(routes.route('metadata.google.internal'), { kind: 'blocked', host: 'metadata.google.internal', why: 'cloud-metadata' });
  t.deepEqual(routes.route('atlassian.net'), { kind: 'blocked', host: 'atlassian.net', why: 'outside-catalog' });
  t.deepEqual(routes.tlsNames, ['api.github.com', 'api.agnost.ai', '.atlassian.net', '.in.applicationinsights.azure.com']);
});

test('name constraints: a .suffix permits subdomains only; an existing CA that lacks a pattern suffix is refused, not replaced', (t) => {
  t.true(permits(['.atlassian.net'], 'acme.atlassian.net'));
  t.false(permits(['.atlassian.net'], 'atlassian.net'));
  t.false(permits(['.atlassian.net'], 'evilatlassian.net'));
  t.true(covers(['atlassian.net'], '.atlassian.net'));
  t.true(covers(['.atlassian.net'], '.atlassian.net'));
  t.false(covers(['acme.atlassian.net'], '.atlassian.net'));
  const dir = join(tempDir('toolbench-hosts-'), 'ca');
  const ca = createCa(dir, ['api.github.com', '.atlassian.net'], { keyBits: 1024 });
  t.deepEqual(ca.permitted, ['.atlassian.net', 'api.github.com']);
  t.is(ensureCa(dir, ['api.github.com', '.atlassian.net']).created, false);
  const error = t.throws(() => ensureCa(dir, ['api.github.com', '.atlassian.net', '.slack.com']), { code: 'TB_ERR_CERTS' } as never);
  t.regex(error!.message, /does not permit \.slack\.com \(it permits \.atlassian\.net, api\.github\.com\).*certs init --dir .* --force/);
});

const aws = EndpointEntrySchema.parse({
  id: 'aws', service: 'aws', kind: 'native', reach: 'base-url', bridge_port: 1,
  env: { AWS_ACCESS_KEY_ID: '{{credential.key_id}}', AWS_SECRET_ACCESS_KEY: '{{ credential.secret }}', AWS_ENDPOINT_URL: '{{service_url}}' },
});

test('credential tables: {{credential.field}} in env templates; a missing field names the endpoint, env var and field', (t) => {
  const manifest = ScenarioManifestSchema.parse({
    id: 'x/y', group: 'cloud', services: ['aws'], epoch: '2025-01-01T00:00:00Z',
    credentials: { aws: { key_id: 'AKIDEXAMPLE', secret: 'wJalrXUtnFEMI' }, github: 'ghp_x' },
  });
  t.deepEqual(renderEnv(aws.env, { credential: manifest.credentials.aws, service_url: 'http://127.0.0.1:9' }, 'endpoints.aws'),
    { AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE', AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI', AWS_ENDPOINT_URL: 'http://127.0.0.1:9' });
  t.throws(() => renderEnv(aws.env, { credential: { key_id: 'AKID' }, service_url: 'x' }, 'endpoints.aws'),
    { message: 'endpoints.aws.env.AWS_SECRET_ACCESS_KEY: {{credential.secret}}: the credential has no field secret (it has key_id)' });
  t.throws(() => renderTemplate('{{credential.key_id}}', { credential: 'ghp_x' }, 'endpoints.github.env.TOKEN'),
    { message: /endpoints\.github\.env\.TOKEN: \{\{credential\.key_id\}\} names field key_id, but credential is a single string/ });
  t.throws(() => renderTemplate('{{credential}}', { credential: { key_id: 'a', secret: 'b' } }, 'endpoints.aws.env.X'),
    { message: 'endpoints.aws.env.X: {{credential}} is a table here (fields key_id, secret); name one field, as in {{credential.key_id}}' });
  t.deepEqual(placeholderProblems({ 'endpoints.aws.env.A': '{{credential.key_id}}', 'endpoints.aws.env.B': '{{credential.region}}' }, 'credential', { key_id: 'a' }),
    ['endpoints.aws.env.B: {{credential.region}}: the credential has no field region (it has key_id)']);
  t.deepEqual(placeholderCredential(aws), { key_id: 'toolbench-capture-only', secret: 'toolbench-capture-only' });
  // A server that checks its credential's shape before listing tools names its own stand-in (Twilio's SIDs).
  const twilio = loadCatalog().catalog.endpoints.find((e) => e.id === 'twilio')!;
  t.deepEqual(placeholderCredential(twilio), { account_sid: 'AC00000000000000000000000000000000', api_key: 'SK00000000000000000000000000000000', api_secret: 'toolbench-capture-only' });
  // Empty tables and bad field names are refused by the scenario schema.
  t.false(ScenarioManifestSchema.safeParse({ id: 'x/y', group: 'cloud', services: ['aws'], epoch: '2025-01-01T00:00:00Z', credentials: { aws: {} } }).success);
  t.false(ScenarioManifestSchema.safeParse({ id: 'x/y', group: 'cloud', services: ['aws'], epoch: '2025-01-01T00:00:00Z', credentials: { aws: { 'key-id': 'a' } } }).success);
});

test('scenario validate reports a credential that does not fit the catalog\'s templates, by field', async (t) => {
  const shipped = loadCatalog();
  const catalog: LoadedCatalog = {
    ...shipped,
    catalog: { ...shipped.catalog, endpoints: shipped.catalog.endpoints.map((e) => e.id === 'github' ? { ...e, env: { GITHUB_PERSONAL_ACCESS_TOKEN: '{{credential.token}}' } } : e) },
  };
  const problems = await validateScenario(EXAMPLE_SCENARIO, catalog);
  t.true(problems.some((p) => /scenario\.toml: field credentials\.github: catalog endpoints\.github\.env\.GITHUB_PERSONAL_ACCESS_TOKEN: \{\{credential\.token\}\} names field token, but credential is a single string/.test(p)), problems.join('\n'));
  t.deepEqual(await validateScenario(EXAMPLE_SCENARIO, shipped), []);
});

test('every endpoint, whatever its reach, gets the same proxy, loopback NO_PROXY, CA bundle and preload', (t) => {
  const network = { proxyUrl: 'http://aws:pw@127.0.0.1:8080', caPath: '/ca/ca.pem', bundlePath: '/ca/ca-bundle.pem', preloadPath: '/tb/proxy/preload.mjs', serviceUrl: 'http://127.0.0.1:9' };
  const envs = (['base-url', 'https-proxy', 'preload'] as const).map((reach) =>
    endpointEnvironment({ endpoint: { ...aws, reach }, credential: { key_id: 'AKID', secret: 's' }, network }, { PATH: '/bin', NODE_OPTIONS: '--inspect', HTTPS_PROXY: 'http://leak' }));
  for (const env of envs) {
    t.deepEqual(env, envs[0]);
    t.like(env, {
      HTTPS_PROXY: network.proxyUrl, HTTP_PROXY: network.proxyUrl, https_proxy: network.proxyUrl, http_proxy: network.proxyUrl,
      NO_PROXY: 'localhost,127.0.0.1,::1', no_proxy: 'localhost,127.0.0.1,::1',
      SSL_CERT_FILE: '/ca/ca-bundle.pem', NODE_EXTRA_CA_CERTS: '/ca/ca.pem', NODE_OPTIONS: '--import=file:///tb/proxy/preload.mjs',
      AWS_ACCESS_KEY_ID: 'AKID', AWS_SECRET_ACCESS_KEY: 's', AWS_ENDPOINT_URL: 'http://127.0.0.1:9', PATH: '/bin',
    });
  }
});
