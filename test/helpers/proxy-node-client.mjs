// A Node client for the proxy tests: runs the named steps in order with whatever the preload
// set up (global fetch, https, http, @octokit/rest), printing one JSON line per step. The GitHub
// token comes from GITHUB_TOKEN.
import http from 'node:http';
import https from 'node:https';

const read = (message) => new Promise((resolve, reject) => {
  let body = '';
  message.setEncoding('utf8');
  message.on('data', (chunk) => { body += chunk; });
  message.on('end', () => resolve(body));
  message.on('error', reject);
});

const token = process.env.GITHUB_TOKEN ?? '';
const authorization = { authorization: `Bearer ${token}` };

const get = (module, url) => new Promise((resolve, reject) => {
  module.get(url, { headers: authorization }, (message) => read(message).then((body) => resolve({ status: message.statusCode, body }), reject)).on('error', reject);
});

const steps = {
  async fetch() {
    const response = await fetch('https://api.github.com/user', { headers: { 'user-agent': 'toolbench-test', ...authorization } });
    return { status: response.status, body: await response.text() };
  },
  async 'fetch-post'() {
    const response = await fetch('https://api.github.com/repos/acme/widgets/issues', {
      method: 'POST', headers: { 'user-agent': 'toolbench-test', 'content-type': 'application/json', ...authorization },
      body: JSON.stringify({ title: 'Filed with fetch' }),
    });
    return { status: response.status, body: await response.text() };
  },
  'https-get': () => get(https, 'https://api.github.com/user'),
  'http-get': () => get(http, 'http://api.github.com/user'),
  async octokit() {
    const { Octokit } = await import('@octokit/rest');
    const octokit = new Octokit({ auth: token, userAgent: 'toolbench-test' });
    const issue = await octokit.rest.issues.create({ owner: 'acme', repo: 'widgets', title: 'Filed with octokit' });
    return { status: issue.status, body: JSON.stringify(issue.data) };
  },
  'fetch-outside': () => fetch('https://example.com/').then((r) => ({ status: r.status })),
  'https-outside': () => get(https, 'https://example.com/'),
};

for (const name of process.argv.slice(2)) {
  try {
    process.stdout.write(JSON.stringify({ step: name, ...(await steps[name]()) }) + '\n');
  } catch (error) {
    process.stdout.write(JSON.stringify({ step: name, error: String(error?.message ?? error), cause: error?.cause?.message ?? null }) + '\n');
  }
}
