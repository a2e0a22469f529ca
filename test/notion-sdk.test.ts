import test from 'ava';
import { Ajv, type ValidateFunction } from 'ajv';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { JournalEntry } from '../mocks/core/journal-format.js';
import { nodeClientEnv, run } from './helpers/proxy-processes.js';
import { startProxiedWorld, type ProxiedWorld } from './helpers/proxy.js';
import { sourceUrl } from '../mocks/core/source-url.js';

// @notionhq/client, unmodified, in a Node child that reaches https://api.notion.com through the
// proxy (the preload, NODE_EXTRA_CA_CERTS, certificate checks on): users, search, a data source
// and its database, a filtered and sorted query over cursor pages, a database row created,
// updated and trashed, blocks, comments, and Notion's errors as the SDK's APIResponseError. Every
// answer it received validates against the OpenAPI description the Notion MCP server ships.

const SCENARIO = 'mocks/notion/conformance';
let w: ProxiedWorld;
type Step = { step: string; result?: any; error?: { name: string; code?: string; status?: number; message: string } };
let steps: Map<string, Step>;
let entries: JournalEntry[];

test.before(async () => {
  w = await startProxiedWorld({ scenarioDir: SCENARIO });
  w.tracker.register('notion');
  w.tracker.markReady('notion');
  const script = fileURLToPath(new URL('./helpers/notion-client.mjs', sourceUrl(import.meta.url)));
  const names = ['users.me', 'users paginated', 'search data sources', 'database and data source', 'query paginated', 'create row', 'update row', 'blocks', 'comments', 'trash row',
    'not found', 'bad status', 'bad filter', 'unauthorized'];
  const result = await run(process.execPath, [script, ...names], { ...nodeClientEnv(w.urlFor('notion'), w.caPath), NOTION_TOKEN: 'ntn_conformance_token_00000000000' });
  if (result.code !== 0) throw new Error(result.stderr);
  steps = new Map(result.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Step).map((s) => [s.step, s]));
  entries = (await w.entries()).filter((e) => e.kind === 'http');
});
test.after.always(() => w?.close());

const ok = (name: string) => {
  const step = steps.get(name)!;
  if (step.error) throw new Error(`${name}: ${JSON.stringify(step.error)}`);
  return step.result;
};
const failed = (name: string) => steps.get(name)!.error!;

test('users: the integration\'s bot, and every user over cursor pages of 3', (t) => {
  t.like(ok('users.me'), { me: { object: 'user', type: 'bot', name: 'Acme Agent', bot: { workspace_name: 'Acme' } }, full: true });
  t.is(ok('users paginated').names.length, 10, 'nine people and the bot');
});

test('search finds the data source by title words; the data source and its database agree', (t) => {
  t.like(ok('search data sources'), { ids: ['49dffeef-d8a6-55ba-b63e-bd485dd4467b'], full: true });
  const { properties, database, full } = ok('database and data source');
  t.deepEqual(properties, { Task: 'title', Status: 'status', Assignee: 'people', Due: 'date', Priority: 'select', Tags: 'multi_select', Estimate: 'number', Created: 'created_time' });
  t.deepEqual(database, [{ id: '49dffeef-d8a6-55ba-b63e-bd485dd4467b', name: 'Sprint Tasks' }]);
  t.true(full);
});

test('a filtered, sorted query over cursor pages: every open high-priority task, by due date', (t) => {
  const { titles, statuses, priorities, dues, full } = ok('query paginated');
  t.true(titles.length > 4, `more than one page: ${titles.length}`);
  t.false(statuses.includes('Done'));
  t.deepEqual(new Set(priorities), new Set(['High']));
  t.deepEqual([...dues].sort(), dues);
  t.true(full);
  t.true(entries.filter((e) => e.operation?.name === 'dataSources.query' && new TextDecoder().decode(e.request.body).includes('start_cursor')).length >= 1);
});

test('a database row: created with title, status, people, date, select and a to-do; read, updated, trashed', (t) => {
  const { page, title, full } = ok('create row');
  t.true(full);
  t.like(page, { object: 'page', parent: { type: 'data_source_id', data_source_id: '49dffeef-d8a6-55ba-b63e-bd485dd4467b' }, in_trash: false });
  t.like(page.properties, { Status: { status: { name: 'Not started' } }, Due: { date: { start: '2025-10-10', end: null } }, Priority: { select: { name: 'High', color: 'red' } } });
  t.is(page.properties.Assignee.people[0].name, 'Hana Sato');
  t.is(page.properties.Estimate.number, null, 'properties not given are empty');
  t.like(title, { object: 'list', results: [{ object: 'property_item', type: 'title', title: { plain_text: 'Draft the Q4 hiring plan' } }] });
  t.regex(page.url, /^https:\/\/www\.notion\.so\/Draft-the-Q4-hiring-plan-[0-9a-f]{32}$/);
  t.is(ok('update row').status, 'In progress');
  t.deepEqual(ok('trash row'), { in_trash: true, found: 0 });
});

test('blocks: append, list in order over cursor pages, tick a to-do, delete one', (t) => {
  t.deepEqual(ok('blocks'), { types: ['to_do', 'heading_2'], has_more: [true, false], checked: true, deleted: true, full: true });
});

test('comments: a new discussion on a page, a reply in an existing one', (t) => {
  t.deepEqual(ok('comments'), { before: 1, after: 3, sameThread: true, full: true });
});

test('Notion\'s errors reach the SDK as APIResponseError with its code and status', (t) => {
  t.like(failed('not found'), { name: 'APIResponseError', code: 'object_not_found', status: 404 });
  t.like(failed('bad status'), { code: 'validation_error', status: 400 });
  t.like(failed('bad filter'), { code: 'validation_error', status: 400, message: 'Could not find property with name or id: Nope' });
  t.like(failed('unauthorized'), { code: 'unauthorized', status: 401, message: 'API token is invalid.' });
});

/**
 * Notion's OpenAPI description as its MCP server ships it: the schema of an operation's answer by
 * status (an error status the operation does not list is checked against its 400 schema); null
 * when the operation gives that answer no schema (GET /v1/users/{user_id} has only examples).
 */
function specValidators(): (method: string, path: string, status: number) => { listed: boolean; validate: ValidateFunction | null } {
  const spec = JSON.parse(readFileSync(fileURLToPath(new URL('../node_modules/@notionhq/notion-mcp-server/scripts/notion-openapi.json', sourceUrl(import.meta.url))), 'utf8'));
  const ajv = new Ajv({ strict: false, allErrors: true, logger: false });
  ajv.addSchema({ components: spec.components }, 'spec');
  const fix = (node: unknown): unknown => JSON.parse(JSON.stringify(node).replace(/"#\/components\//g, '"spec#/components/'));
  const routes = Object.entries(spec.paths as Record<string, Record<string, any>>).flatMap(([template, item]) => Object.entries(item).map(([method, op]) => ({
    method: method.toUpperCase(), re: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`), params: template.split('{').length, op,
  }))).sort((a, b) => a.params - b.params); // literal paths (/v1/users/me) before templates
  return (method, path, status) => {
    const route = routes.find((r) => r.method === method && r.re.test(path));
    const response = route?.op.responses?.[String(status)] ?? (status >= 400 ? route?.op.responses?.['400'] : undefined);
    const schema = response?.content?.['application/json']?.schema;
    return { listed: response !== undefined, validate: schema ? ajv.compile(fix(schema) as object) : null };
  };
}

test('every answer the SDK got validates against the OpenAPI description (success and error schemas)', (t) => {
  const validatorFor = specValidators();
  const notion = entries.filter((e) => e.service === 'notion');
  t.true(notion.length >= 25, `${notion.length} requests`);
  let validated = 0;
  for (const entry of notion) {
    const path = entry.target.split('?')[0]!;
    const { listed, validate } = validatorFor(entry.method, path, entry.response.status);
    t.true(listed, `${entry.method} ${path} ${entry.response.status} is in the description`);
    const body = JSON.parse(new TextDecoder().decode(entry.response.body));
    if (validate) {
      validated += 1;
      t.true(validate(body), `${entry.method} ${path} ${entry.response.status}: ${JSON.stringify(validate.errors)}`);
    }
    if (entry.response.status >= 400) t.deepEqual(Object.keys(body), ['object', 'status', 'code', 'message']);
  }
  t.true(validated >= notion.length * 0.8, `${validated} of ${notion.length} answers had a schema`);
  t.log(`${validated} of ${notion.length} answers validated; the rest have only examples in the description`);
});
