// A Node client for the preload tests: runs the named steps in order with whatever the preload
// set up, printing one JSON line per step. Each step is what a real server's HTTP library does.
// LOOPBACK_URL is a plain server on loopback (it must be reached directly, never via the proxy).
import http from 'node:http';
import https from 'node:https';
import { request as namedHttpsRequest } from 'node:https';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
/** The stripe-node @stripe/mcp 0.2.5 runs, as npm installed it for @stripe/agent-toolkit. */
const STRIPE_17 = fileURLToPath(new URL('../../node_modules/@stripe/agent-toolkit/node_modules/stripe', import.meta.url));

const read = (message) => new Promise((resolve, reject) => {
  let body = '';
  message.setEncoding('utf8');
  message.on('data', (chunk) => { body += chunk; });
  message.on('end', () => resolve({ status: message.statusCode, body }));
  message.on('error', reject);
});

const call = (fn, url, options = {}) => new Promise((resolve, reject) => {
  const req = fn(url, options, (message) => read(message).then(resolve, reject));
  req.on('error', reject);
  req.end();
});

const stripeList = async (Stripe) => {
  const stripe = new Stripe('sk_test_toolbench', { maxNetworkRetries: 0 });
  const list = await stripe.customers.list({ limit: 3 });
  return { status: 200, body: JSON.stringify(list), agent: stripe._api?.agent ?? null };
};

const steps = {
  // stripe-node 23 (devDependency) and 17.7 (what @stripe/mcp 0.2.5 runs): each makes its own keep-alive https.Agent at load.
  'stripe-23': async () => stripeList(require('stripe')),
  'stripe-17': async () => stripeList(require(STRIPE_17)),
  'stripe-17-version': async () => ({ status: 200, body: require(`${STRIPE_17}/package.json`).version }),
  // superagent's way: agent:false makes Node build `new https.globalAgent.constructor()`.
  'agent-false': () => call(https.request, 'https://api.stripe.com/v1/agent-false', { agent: false }),
  'agent-false-http': () => call(http.request, 'http://api.stripe.com/v1/agent-false-http', { agent: false }),
  // A library's own plain Agent, through the ESM named import and through .get.
  'own-agent-named-import': () => call(namedHttpsRequest, 'https://api.stripe.com/v1/own-agent', { agent: new https.Agent({ keepAlive: true }) }),
  'own-agent-get': () => call(https.get, 'https://api.stripe.com/v1/own-agent-get', { agent: new https.Agent() }),
  'own-http-agent': () => call(http.request, 'http://api.stripe.com/v1/own-http-agent', { agent: new http.Agent({ keepAlive: true }) }),
  'global-agents': async () => ({
    status: 200,
    body: JSON.stringify({
      separate: http.globalAgent !== https.globalAgent,
      https: https.globalAgent instanceof https.Agent, http: http.globalAgent instanceof http.Agent,
      constructible: new https.globalAgent.constructor() instanceof https.Agent && new http.globalAgent.constructor() instanceof http.Agent,
    }),
  }),
  'fetch-pattern': async () => {
    const response = await fetch('https://acme.atlassian.net/rest/api/3/myself');
    return { status: response.status, body: await response.text() };
  },
  'https-pattern': () => call(https.request, 'https://logs.s3.eu-west-1.amazonaws.com/?list-type=2'),
  'fetch-noise': async () => {
    const response = await fetch('https://api.agnost.ai/api/v1/capture-event', { method: 'POST', body: '{"event":"tool_call"}', headers: { 'content-type': 'application/json' } });
    return { status: response.status, body: await response.text() };
  },
  'https-noise': () => call(https.request, 'https://westeurope-5.in.applicationinsights.azure.com/v2/track', { method: 'POST' }),
  'loopback-http': () => call(http.request, process.env.LOOPBACK_URL + '/direct', { agent: new http.Agent() }),
  'loopback-fetch': async () => {
    const response = await fetch(process.env.LOOPBACK_URL + '/direct-fetch');
    return { status: response.status, body: await response.text() };
  },
  'metadata-http': () => call(http.request, 'http://169.254.169.254/latest/meta-data/iam/security-credentials/'),
  'metadata-fetch': async () => {
    const response = await fetch('http://metadata.google.internal/computeMetadata/v1/instance/id', { headers: { 'Metadata-Flavor': 'Google' } });
    return { status: response.status, body: await response.text() };
  },
};

for (const name of process.argv.slice(2)) {
  const started = Date.now();
  try {
    const result = await steps[name]();
    process.stdout.write(JSON.stringify({ step: name, ...result, agent: undefined, ms: Date.now() - started }) + '\n');
  } catch (error) {
    const cause = error?.cause?.message ?? null;
    process.stdout.write(JSON.stringify({ step: name, error: String(error?.message ?? error), cause, status: error?.statusCode ?? null, ms: Date.now() - started }) + '\n');
  }
}
