import test from 'ava';
import { readFileSync } from 'node:fs';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { ConfluenceClient } from 'confluence.js';
import { startStack, type Stack } from '../catalog/stack.js';
import { testCaDir } from './helpers/proxy.js';

// confluence.js 2 (ConfluenceClient over axios, unmodified) against the Confluence part of the
// Atlassian site, over HTTPS through the proxy to https://larkspur.atlassian.net/wiki/rest.
// Confluence publishes no OpenAPI description in the bundle: the shapes checked here are the
// ones confluence.js's models and Atlassian's REST reference give.

class TrustingProxyAgent extends HttpsProxyAgent<string> {
  constructor(proxy: string, private readonly caPem: Buffer) {
    super(proxy);
  }
  override connect(req: Parameters<HttpsProxyAgent<string>['connect']>[0], opts: Parameters<HttpsProxyAgent<string>['connect']>[1]) {
    return super.connect(req, { ...opts, ca: this.caPem } as typeof opts);
  }
}

const EMAIL = 'priya.raman@larkspur.example';
const TOKEN = 'ATATT3x9ewrejf7GrkHYjzBKVSRJPic';
let stack: Stack;
let wiki: ConfluenceClient;
let agent: TrustingProxyAgent;
// confluence.js rejects with the response body itself (Confluence's error envelope), not an Error.
async function failure(promise: Promise<unknown>): Promise<{ statusCode: number; message: string }> {
  try {
    await promise;
  } catch (error) {
    return error as { statusCode: number; message: string };
  }
  throw new Error('the request succeeded');
}

test.before(async () => {
  stack = await startStack({ scenarioDir: 'mocks/atlassian/conformance', ports: 'ephemeral', caDir: testCaDir(), endpoints: false });
  const { proxy, ca } = stack.addresses();
  agent = new TrustingProxyAgent(proxy!, readFileSync(ca!));
  wiki = new ConfluenceClient({ host: 'https://larkspur.atlassian.net', authentication: { basic: { email: EMAIL, apiToken: TOKEN } }, baseRequestConfig: { httpsAgent: agent, proxy: false } });
});
test.after.always(() => stack?.close());

test.serial('spaces and the page tree', async (t) => {
  const spaces = await wiki.space.getSpaces({ limit: 10 });
  t.deepEqual(spaces.results.map((s) => s.key), ['ENG', 'MOB', 'OPS', 'HR', 'ARCH']);
  const current = await wiki.space.getSpaces({ status: 'current' });
  t.false(current.results.some((s) => s.key === 'ARCH'), 'the archived space is not current');
  const page = await wiki.content.getContentById({ id: '65003', expand: ['body.storage', 'version', 'ancestors', 'space', 'metadata.labels'] });
  t.is(page.title, 'API rate limits');
  t.is(page.space?.key, 'ENG');
  t.is(page.version?.number, 1);
  t.deepEqual(page.ancestors?.map((a) => a.title), ['Platform Engineering Home', 'Architecture overview']);
  t.regex(page.body?.storage?.value ?? '', /100 requests per 10 seconds/);
  t.deepEqual(((page as unknown as { metadata: unknown }).metadata as { labels: { results: { name: string }[] } }).labels.results.map((l) => l.name), ["api", "limits"]);
  const kids = await wiki.contentChildrenAndDescendants.getContentChildrenByType({ id: '65002', type: 'page' });
  t.deepEqual(kids.results.map((k) => k.title), ['API rate limits', 'Billing service design']);
});

test.serial('create, update with the next version, comment, label; a stale version is a 409 and a title clash a 400', async (t) => {
  const created = await wiki.content.createContent({ type: 'page', title: 'Incident comms template', space: { key: 'OPS' }, ancestors: [{ id: '65014' }], body: { storage: { value: '<p>Status page first.</p>', representation: 'storage' } } });
  t.is(created.version?.number, 1);
  t.deepEqual(created.ancestors?.map((a) => a.id), ['65014']);
  const updated = await wiki.content.updateContent({ id: created.id, type: 'page', title: 'Incident comms template', version: { number: 2 }, body: { storage: { value: '<p>Status page first, then customers.</p>', representation: 'storage' } } });
  t.is(updated.version?.number, 2);
  const stale = await failure(wiki.content.updateContent({ id: created.id, type: 'page', title: 'x', version: { number: 2 } }));
  t.like(stale, { statusCode: 409, message: 'Version must be incremented on update. Current version is: 2' });
  const clash = await failure(wiki.content.createContent({ type: 'page', title: 'On-call handbook', space: { key: 'OPS' } }));
  t.is(clash.statusCode, 400);
  const comment = await wiki.content.createContent({ type: 'comment', container: { id: created.id, type: 'page' }, body: { storage: { value: '<p>Looks good.</p>', representation: 'storage' } } } as never);
  t.is(comment.type, 'comment');
  const comments = await wiki.contentChildrenAndDescendants.getContentChildrenByType({ id: created.id, type: 'comment' });
  t.deepEqual(comments.results.map((c) => c.id), [comment.id]);
  const read = await wiki.content.getContentById({ id: comment.id, expand: ['body.storage', 'container'] });
  t.is(read.body?.storage?.value, '<p>Looks good.</p>');
  t.is(read.container?.id, created.id);
  const labels = await wiki.contentLabels.addLabelsToContent({ id: created.id, body: [{ prefix: 'global', name: 'template' }] } as never);
  t.deepEqual(labels.results.map((l) => l.name), ['template']);
});

test.serial('CQL: content search, the generic search with excerpts, user search', async (t) => {
  const found = await wiki.content.searchContentByCQL({ cql: 'type = page AND (text ~ "on-call" OR label = oncall) ORDER BY title', limit: 10 });
  t.deepEqual(found.results.map((p) => p.title), ['On-call handbook', 'Operations Home', 'Runbook: payment webhook retries'], 'words, as Confluence tokenizes on-call');
  const byAncestor = await wiki.content.searchContentByCQL({ cql: 'ancestor = 65001 AND type = page ORDER BY title' });
  t.true(byAncestor.results.length >= 6);
  const generic = await wiki.search.searchByCQL({ cql: 'space = HR AND title ~ "travel"' });
  t.is(generic.results[0]?.title, 'Travel policy');
  t.regex(generic.results[0]?.excerpt ?? '', /14 days ahead/);
  const bad = await failure(wiki.content.searchContentByCQL({ cql: 'space = ENG AND' }));
  t.is(bad.statusCode, 400);
  const users = await wiki.search.searchUser({ cql: 'user.fullname ~ "hana"' });
  t.deepEqual(users.results.map((r) => (r as unknown as { user: { displayName: string } }).user.displayName), ['Hana Kobayashi']);
});

test.serial('errors: an unknown page is Confluence\'s 404 envelope, a wrong token a 401', async (t) => {
  const missing = await failure(wiki.content.getContentById({ id: '99999999' }));
  t.deepEqual(missing, { statusCode: 404, data: { authorized: true, valid: true, errors: [], successful: false }, message: 'No content found with id : ContentId{id=99999999}', reason: 'Not Found' });
  const wrong = new ConfluenceClient({ host: 'https://larkspur.atlassian.net', authentication: { basic: { email: EMAIL, apiToken: 'wrong' } }, baseRequestConfig: { httpsAgent: agent, proxy: false } });
  const auth = await failure(wrong.space.getSpaces());
  t.is(auth.statusCode, 401);
});
