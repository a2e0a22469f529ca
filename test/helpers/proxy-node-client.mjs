// A Node client for the proxy tests: runs the named steps in order with whatever the preload
// set up (global fetch, https, http, @octokit/rest), printing one JSON line per step.
import http from 'node:http';
import https from 'node:https';

const read = (message) => new Promise((resolve, reject) => {
  let body = '';
  message.setEncoding('utf8');
  message.on('data', (chunk) => { body += chunk; });
  message.on('end', () => resolve(body));
  message.on('error', reject);
});

const get = (module, url) => new Promise((resolve, reject) => {
  module.get(url, (message) => read(message).then((body) => resolve({ status: message.statusCode, body }), reject)).on('error', reject);
});

const steps = {
  async fetch() {
    const response = await fetch('https://api.github.com/user', { headers: { 'user-agent': 'toolbench-test' } });
    return { status: response.status, body: await response.text() };
  },
  async 'fetch-post'() {
    const response = await fetch('https://api.github.com/repos/octo-org/hello-world/issues', {
      method: 'POST', headers: { 'user-agent': 'toolbench-test', 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Filed with fetch' }),
    });
    return { status: response.status, body: await response.text() };
  },
  'https-get': () => get(https, 'https://api.github.com/user'),
  'http-get': () => get(http, 'http://api.github.com/user'),
  async octokit() {
    const { Octokit } = await import('@octokit/rest');
    const octokit = new Octokit({ auth: process.env.GITHUB_TOKEN ?? 'test-token', userAgent: 'toolbench-test' });
    const issue = await octokit.rest.issues.create({ owner: 'octo-org', repo: 'hello-world', title: 'Filed with octokit' });
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
