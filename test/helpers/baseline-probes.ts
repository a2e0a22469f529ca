import type { TemplateValue } from '../../catalog/env-template.js';
import { signRequest } from '../../mocks/aws/sigv4.js';

/**
 * One authenticated read per catalog service, built from a credential in the shape the service's
 * endpoint env template takes (`baseline_credential`, a scenario's `[credentials]`): what
 * test/baseline.test.ts sends to prove each service's baseline credential logs in to its baseline
 * dataset. `send` runs one request through a world and returns its status and parsed body; a probe
 * may send several (MongoDB Atlas exchanges its client credentials for a token first).
 */
export interface ProbeAnswer { status: number; json: unknown }
export type ProbeSend = (request: { host: string; method: string; target: string; headers: [string, string][]; body?: string }) => ProbeAnswer;
export interface ProbeContext { send: ProbeSend; amzDate: string }

/** A probe's verdict: whether the service took the credential (a 2xx read, and `ok` on the body where the status alone says nothing). */
export type Probe = (credential: TemplateValue, c: ProbeContext) => boolean;

const field = (credential: TemplateValue, key: string): string => {
  if (typeof credential === 'string') throw new Error(`the credential is a string, the probe needs a table with ${key}`);
  const value = credential[key];
  if (value === undefined) throw new Error(`the credential table has no ${key}`);
  return value;
};
const text = (credential: TemplateValue): string => {
  if (typeof credential !== 'string') throw new Error('the credential is a table, the probe needs a string');
  return credential;
};
const basicAuth = (user: string, password: string): [string, string] => ['Authorization', `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`];
const bearer = (token: string): [string, string] => ['Authorization', `Bearer ${token}`];
const ok2xx = (answer: ProbeAnswer) => answer.status >= 200 && answer.status < 300;
const get = (host: string, target: string, ...headers: [string, string][]) => ({ host, method: 'GET', target, headers });
const postJson = (host: string, target: string, body: unknown, ...headers: [string, string][]) =>
  ({ host, method: 'POST', target, headers: [['Content-Type', 'application/json'] as [string, string], ...headers], body: JSON.stringify(body) });
/** A GraphQL read: 2xx with `data` and no `errors` (GraphQL APIs may refuse a login inside a 200). */
const graphqlOk = (answer: ProbeAnswer) => {
  const body = answer.json as { data?: unknown; errors?: unknown } | undefined;
  return ok2xx(answer) && body?.data != null && body.errors === undefined;
};

export const BASELINE_PROBES: Record<string, Probe> = {
  github: (cr, c) => ok2xx(c.send(get('api.github.com', '/user', bearer(text(cr))))),
  // Slack answers a bad token with 200 and `ok: false`.
  slack: (cr, c) => {
    const answer = c.send(postJson('slack.com', '/api/auth.test', {}, bearer(field(cr, 'token'))));
    const body = answer.json as { ok?: boolean; team_id?: string };
    return ok2xx(answer) && body.ok === true && body.team_id === field(cr, 'team_id');
  },
  stripe: (cr, c) => ok2xx(c.send(get('api.stripe.com', '/v1/customers?limit=1', bearer(text(cr))))),
  linear: (cr, c) => graphqlOk(c.send(postJson('api.linear.app', '/graphql', { query: '{ viewer { id } }' }, ['Authorization', text(cr)]))),
  zendesk: (cr, c) => ok2xx(c.send(get(`${field(cr, 'subdomain')}.zendesk.com`, '/api/v2/tickets.json', basicAuth(`${field(cr, 'email')}/token`, field(cr, 'token'))))),
  shopify: (cr, c) => graphqlOk(c.send(postJson(`${field(cr, 'shop')}.myshopify.com`, '/admin/api/2026-01/graphql.json', { query: '{ shop { name } }' }, ['X-Shopify-Access-Token', field(cr, 'token')]))),
  twilio: (cr, c) => ok2xx(c.send(get('api.twilio.com', `/2010-04-01/Accounts/${field(cr, 'account_sid')}.json`, basicAuth(field(cr, 'api_key'), field(cr, 'api_secret'))))),
  hubspot: (cr, c) => ok2xx(c.send(get('api.hubapi.com', '/crm/v3/objects/contacts?limit=1', bearer(text(cr))))),
  google: (cr, c) => ok2xx(c.send(get('www.googleapis.com', '/drive/v3/files?pageSize=1', bearer(text(cr))))),
  notion: (cr, c) => ok2xx(c.send(get('api.notion.com', '/v1/users/me', bearer(text(cr)), ['Notion-Version', '2025-09-03']))),
  atlassian: (cr, c) => ok2xx(c.send(get(`${field(cr, 'site')}.atlassian.net`, '/rest/api/3/myself', basicAuth(field(cr, 'email'), field(cr, 'token'))))),
  datadog: (cr, c) => ok2xx(c.send(get('api.datadoghq.com', '/api/v1/monitor', ['DD-API-KEY', field(cr, 'api_key')], ['DD-APPLICATION-KEY', field(cr, 'app_key')]))),
  sentry: (cr, c) => ok2xx(c.send(get('sentry.io', '/api/0/organizations/', bearer(text(cr))))),
  launchdarkly: (cr, c) => ok2xx(c.send(get('app.launchdarkly.com', '/api/v2/auditlog', ['Authorization', text(cr)]))),
  elasticsearch: (cr, c) => ok2xx(c.send(get('acme-logs.es.us-east-1.aws.elastic.cloud', '/_cat/indices?format=json', ['Authorization', `ApiKey ${text(cr)}`]))),
  supabase: (cr, c) => ok2xx(c.send(get('api.supabase.com', '/v1/projects', bearer(text(cr))))),
  cloudflare: (cr, c) => ok2xx(c.send(get('api.cloudflare.com', `/client/v4/accounts/${field(cr, 'account_id')}`, bearer(field(cr, 'token'))))),
  aws: (cr, c) => {
    const body = 'Action=GetCallerIdentity&Version=2011-06-15';
    const headers = signRequest({
      method: 'POST', target: '/', headers: [['Host', 'sts.amazonaws.com'], ['Content-Type', 'application/x-www-form-urlencoded']], body: new TextEncoder().encode(body),
      keyId: field(cr, 'key_id'), secret: field(cr, 'secret'), region: 'us-east-1', service: 'sts', amzDate: c.amzDate,
    });
    return ok2xx(c.send({ host: 'sts.amazonaws.com', method: 'POST', target: '/', headers, body }));
  },
  circleci: (cr, c) => ok2xx(c.send(get('circleci.com', '/api/v2/me', ['Circle-Token', text(cr)]))),
  kubernetes: (cr, c) => ok2xx(c.send(get('kubernetes.toolbench.test', '/api/v1/namespaces', bearer(text(cr))))),
  digitalocean: (cr, c) => ok2xx(c.send(get('api.digitalocean.com', '/v2/account', bearer(text(cr))))),
  brave: (cr, c) => ok2xx(c.send(get('api.search.brave.com', '/res/v1/web/search?q=status', ['X-Subscription-Token', text(cr)]))),
  tavily: (cr, c) => ok2xx(c.send(postJson('api.tavily.com', '/search', { query: 'status' }, bearer(text(cr))))),
  pagerduty: (cr, c) => ok2xx(c.send(get('api.pagerduty.com', '/services', ['Authorization', `Token token=${text(cr)}`]))),
  exa: (cr, c) => ok2xx(c.send(get('api.exa.ai', '/research/v1', ['x-api-key', text(cr)]))),
  firecrawl: (cr, c) => ok2xx(c.send(get('api.firecrawl.dev', '/v2/team/credit-usage', bearer(text(cr))))),
  // A service account: the client credentials buy a bearer token, which then reads.
  'mongodb-atlas': (cr, c) => {
    const grant = c.send({
      host: 'cloud.mongodb.com', method: 'POST', target: '/api/oauth/token', body: 'grant_type=client_credentials',
      headers: [['Content-Type', 'application/x-www-form-urlencoded'], basicAuth(field(cr, 'client_id'), field(cr, 'client_secret'))],
    });
    const token = (grant.json as { access_token?: string } | undefined)?.access_token;
    return ok2xx(grant) && token !== undefined
      && ok2xx(c.send(get('cloud.mongodb.com', '/api/atlas/v2/groups', bearer(token), ['Accept', 'application/vnd.atlas.2025-03-12+json'])));
  },
  'azure-devops': (cr, c) => ok2xx(c.send(get('dev.azure.com', `/${field(cr, 'organization')}/_apis/projects?api-version=7.1`, bearer(field(cr, 'token'))))),
  gitlab: (cr, c) => ok2xx(c.send(get('gitlab.com', '/api/v4/user', ['PRIVATE-TOKEN', text(cr)]))),
};
