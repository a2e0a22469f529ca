import test from 'ava';
import { CatalogSchema } from '../catalog/schema.js';
import { readSnapshots } from '../catalog/snapshots.js';
import { qualifiedName, splitQualifiedName } from '../catalog/router/names.js';
import { measureTools } from '../catalog/toolmeter.js';
import { ROUTER_TOOLS } from '../catalog/router/tools.js';
import { parameterNames, tokenize, ToolIndex, type IndexedTool, type ToolEntry } from '../catalog/router/rank.js';

const tool = (name: string, description: string, properties: Record<string, unknown> = {}): IndexedTool =>
  ({ name, description, inputSchema: { type: 'object', properties } });

const shipped = readSnapshots().flatMap((snapshot) => snapshot.tools.map((t): ToolEntry => ({ endpoint: snapshot.endpoint, tool: t as IndexedTool })));

test('words: camelCase and snake_case split, lower case, stopwords dropped, plurals folded', (t) => {
  t.deepEqual(tokenize('listPullRequests'), ['list', 'pull', 'request']);
  t.deepEqual(tokenize('API-create-a-comment'), ['api', 'create', 'comment']);
  t.deepEqual(tokenize('get_JSONSchema of the policies'), ['get', 'json', 'schema', 'policy']);
  t.deepEqual(tokenize('status address issues'), ['status', 'address', 'issue']);
});

test('parameter names: nested properties, array items and alternatives', (t) => {
  t.deepEqual(parameterNames({
    type: 'object',
    properties: {
      owner: { type: 'string' },
      labels: { type: 'array', items: { type: 'object', properties: { color: {} } } },
      target: { anyOf: [{ type: 'object', properties: { branch: {} } }, { type: 'string' }] },
    },
  }), ['owner', 'labels', 'color', 'target', 'branch']);
});

test('ties are ordered by qualified name, whatever order the tools were indexed in', (t) => {
  const same = tool('create_issue', 'Create an issue', { title: { type: 'string' } });
  const entries: ToolEntry[] = [
    { endpoint: 'gamma', tool: same }, { endpoint: 'alpha', tool: same }, { endpoint: 'beta', tool: same },
    { endpoint: 'alpha', tool: tool('delete_branch', 'Delete a branch') },
  ];
  for (const order of [entries, [...entries].reverse(), [entries[2]!, entries[0]!, entries[3]!, entries[1]!]]) {
    const { matched, tools } = new ToolIndex(order).search('create issue', 10);
    t.is(matched, 3);
    t.deepEqual(tools.map((r) => r.name), ['alpha__create_issue', 'beta__create_issue', 'gamma__create_issue']);
    t.is(new Set(tools.map((r) => r.score)).size, 1, 'the same words score the same');
  }
});

test('parameter names count: a word only a parameter has finds its tool, and lifts it over an equal tool without it', (t) => {
  const index = new ToolIndex([
    { endpoint: 'svc', tool: tool('list_items', 'List the items', { page: {} }) },
    { endpoint: 'svc', tool: tool('list_things', 'List the things', { repository: {} }) },
  ]);
  t.deepEqual(index.search('repository', 5).tools.map((r) => r.name), ['svc__list_things']);
  t.deepEqual(index.search('list repository', 5).tools.map((r) => r.name), ['svc__list_things', 'svc__list_items']);
  t.is(index.search('unrelated words', 5).matched, 0);
});

test('a word in the name outweighs the same word in the description', (t) => {
  const index = new ToolIndex([
    { endpoint: 'svc', tool: tool('remove_record', 'Deletes one record for good') },
    { endpoint: 'svc', tool: tool('delete_record', 'Removes one record for good') },
  ]);
  t.deepEqual(index.search('delete', 5).tools.map((r) => r.name), ['svc__delete_record', 'svc__remove_record']);
});

test('over the shipped snapshots: the tool a task needs comes first, the same every time; limit and find', (t) => {
  const index = new ToolIndex(shipped);
  t.is(index.size, shipped.length);
  t.is(index.search('create an issue on github', 5).tools[0]!.name, 'github__create_issue');
  t.is(index.search('refund a charge', 5).tools[0]!.name, 'stripe__create_refund');
  t.is(index.search('list kubernetes pods', 5).tools[0]!.name, 'kubernetes__pods_list');
  t.is(index.search('post a slack message', 5).tools[0]!.name, 'slack__slack_post_message');
  const first = index.search('list', 50);
  t.is(first.tools.length, 50);
  t.true(first.matched > 50);
  t.deepEqual(new ToolIndex([...shipped].reverse()).search('list', 50), first, 'indexing order changes nothing');
  t.deepEqual(index.find('stripe__create_refund')?.endpoint, 'stripe');
  t.is(index.find('stripe__no_such_tool'), undefined);
});

test('over the shipped snapshots: a tool\'s endpoint and name as the query find it (first for 90%, in the top 5 for 99%)', (t) => {
  const index = new ToolIndex(shipped);
  const ranks = shipped.map(({ endpoint, tool: { name } }) => index.search(`${endpoint} ${name}`, 5).tools.findIndex((r) => r.name === qualifiedName(endpoint, name)));
  t.true(ranks.filter((r) => r === 0).length >= 0.9 * shipped.length, `${ranks.filter((r) => r === 0).length} of ${shipped.length} first`);
  t.true(ranks.filter((r) => r >= 0).length >= 0.99 * shipped.length, `${ranks.filter((r) => r >= 0).length} of ${shipped.length} in the top 5`);
});

test('qualified names: endpoint__tool, split at the first __ (endpoint ids have no underscore)', (t) => {
  t.is(qualifiedName('kubernetes-node', 'pods_list'), 'kubernetes-node__pods_list');
  t.deepEqual(splitQualifiedName('kubernetes-node__pods_list'), { endpoint: 'kubernetes-node', tool: 'pods_list' });
  t.deepEqual(splitQualifiedName('svc__odd__name'), { endpoint: 'svc', tool: 'odd__name' });
  for (const bad of ['create_issue', '__tool', 'github__', '']) t.is(splitQualifiedName(bad), null, bad);
  // Every shipped tool's qualified name comes back to its own endpoint and tool.
  for (const { endpoint, tool: { name } } of shipped) t.deepEqual(splitQualifiedName(qualifiedName(endpoint, name)), { endpoint, tool: name });
});

test('catalog: [router] defaults to port 7100; an endpoint named router or a port clash is refused', (t) => {
  const services = [{ id: 'github', group: 'code', hostnames: ['api.github.com'], port: 8101, auth: 'bearer' }];
  const endpoint = { service: 'github', kind: 'native', reach: 'preload' };
  t.deepEqual(CatalogSchema.parse({ services }).router, { description: '', bridge_port: 7100 });
  const named = CatalogSchema.safeParse({ services, endpoints: [{ ...endpoint, id: 'router', bridge_port: 7101 }] });
  t.false(named.success);
  t.regex(JSON.stringify(named.error?.issues), /id router is the router's/);
  const clash = CatalogSchema.safeParse({ services, router: { bridge_port: 7101 }, endpoints: [{ ...endpoint, id: 'gh', bridge_port: 7101 }] });
  t.false(clash.success);
  t.regex(JSON.stringify(clash.error?.issues), /port 7101 is already used by router/);
});

test('toolmeter per arm: all is every endpoint\'s tools, router its two definitions as served', (t) => {
  const report = measureTools(readSnapshots());
  t.deepEqual(report.arms.all, { ...report.total, endpoint: 'all' });
  t.like(report.arms.router, { endpoint: 'router', tools: 2, bytes: Buffer.byteLength(JSON.stringify(ROUTER_TOOLS)) });
  for (const encoding of ['o200k_base', 'cl100k_base'] as const) {
    t.true(report.arms.router.tokens[encoding] > 100 && report.arms.router.tokens[encoding] < 1000, `${encoding}: ${report.arms.router.tokens[encoding]}`);
    t.true(report.arms.router.tokens[encoding] * 100 < report.arms.all.tokens[encoding]);
  }
});
