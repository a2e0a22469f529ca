import test from 'ava';
import { Client } from '@notionhq/client';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { IDS } from '../mocks/notion/conformance.js';
import { FaultRuleSchema } from '../mocks/core/fault-plan.js';
import { MemoryJournal } from '../mocks/core/journal.js';
import { World } from '../mocks/core/world.js';
import { serveWorld } from '../proxy/serve.js';
import { prepareWorld } from './helpers/prepare-world.js';
import { journalEntries } from './helpers/mcp-stack.js';
import { tempDir } from './helpers/journal.js';

// The Notion mock in process (one world for the file, requests in order): Notion's 429
// `rate_limited` with Retry-After, which @notionhq/client retries; what the SDK and server tests
// do not reach: moving pages, schema changes, Markdown edits, search order, IDs without dashes,
// the Notion-Version check, filter and cursor errors.

const SCENARIO = 'mocks/notion/conformance';
const { token: TOKEN, tasks: TASKS, task: TASK, incidentDoc: DOC, engineering: ENGINEERING, tasksDb: TASKS_DB } = IDS;

const { header, services, catalog } = prepareWorld({ scenarioDir: SCENARIO });
const faults = { chaos: 'none' as const, rules: [FaultRuleSchema.parse({ route: '/v1/data_sources/**', operation: 'dataSources.query', kind: '429', nth: [1], retry_after: 0 })] };
const world = new World({ seed: header.seed, epochMs: Date.parse(header.epoch), tickMs: header.tickMs, services, journal: new MemoryJournal({ ...header, faults }), faults });
test.after.always(() => world.journal.close());

async function call(method: string, target: string, body?: unknown, headers: [string, string][] = [['Notion-Version', '2025-09-03']]) {
  const response = await world.dispatch({
    host: 'api.notion.com', method, target, headers: [['Authorization', `Bearer ${TOKEN}`], ['Content-Type', 'application/json'], ...headers],
    body: new TextEncoder().encode(body === undefined ? '' : JSON.stringify(body)),
  });
  return { status: response.status, headers: response.headers, json: JSON.parse(new TextDecoder().decode(response.body)) as Record<string, any> };
}

test.serial('a 429 is Notion\'s rate_limited with Retry-After; @notionhq/client retries it and gets the rows', async (t) => {
  const listening = await serveWorld(world, catalog.catalog.services, { ports: 'ephemeral', adminPort: 0 });
  try {
    const notion = new Client({ auth: TOKEN, baseUrl: new URL(listening.services.notion!.url).origin, logLevel: 'error' as never, retry: { maxRetries: 2 } });
    const rows = await notion.dataSources.query({ data_source_id: TASKS, page_size: 5 });
    t.is(rows.results.length, 5);
    const queries = (await journalEntries(world.journal)).filter((e) => e.operation?.name === 'dataSources.query');
    t.deepEqual(queries.map((e) => e.response.status), [429, 200]);
    t.deepEqual(JSON.parse(new TextDecoder().decode(queries[0]!.response.body)), { object: 'error', status: 429, code: 'rate_limited', message: 'You have been rate limited. Please try again in a few minutes.' });
    t.true(queries[0]!.response.headers.some(([name, value]) => name.toLowerCase() === 'retry-after' && value === '0'));
  } finally {
    await listening.close();
  }
});

test.serial('IDs with or without dashes; a missing or malformed Notion-Version is refused', async (t) => {
  t.is((await call('GET', `/v1/pages/${TASK.replace(/-/g, '')}`)).json.id, TASK);
  t.like((await call('GET', `/v1/pages/${TASK}`, undefined, [])).json, { status: 400, code: 'missing_version' });
  t.like((await call('GET', `/v1/pages/${TASK}`, undefined, [['Notion-Version', 'latest']])).json, { status: 400, code: 'validation_error' });
  t.like((await call('GET', '/v1/pages/not-an-id')).json, { status: 400, code: 'validation_error' });
  t.like((await call('DELETE', '/v1/users')).json, { status: 400, code: 'invalid_request_url' });
});

test.serial('filter_properties keeps the named properties, by ID or name, as Notion sends and axios encodes them', async (t) => {
  const status = (await call('GET', `/v1/pages/${TASK}`)).json.properties.Status.id as string;
  t.deepEqual(Object.keys((await call('GET', `/v1/pages/${TASK}?filter_properties=title&filter_properties=${encodeURIComponent(status)}`)).json.properties), ['Task', 'Status']);
  const rows = (await call('POST', `/v1/data_sources/${TASKS}/query?filter_properties[]=Due`, { page_size: 2 })).json.results;
  t.deepEqual(rows.map((r: any) => Object.keys(r.properties)), [['Due'], ['Due']]);
});

test.serial('search: title words, most recently edited first unless asked otherwise, trashed pages left out', async (t) => {
  const desc = (await call('POST', '/v1/search', { query: 'search', filter: { property: 'object', value: 'page' } })).json.results;
  const times = desc.map((p: any) => p.last_edited_time as string);
  t.true(desc.length >= 3);
  t.deepEqual(times, [...times].sort().reverse());
  const asc = (await call('POST', '/v1/search', { query: 'search', filter: { property: 'object', value: 'page' }, sort: { timestamp: 'last_edited_time', direction: 'ascending' } })).json.results;
  t.deepEqual(asc.map((p: any) => p.last_edited_time), [...times].reverse());
  await call('PATCH', `/v1/pages/${desc[0].id}`, { in_trash: true });
  const after = (await call('POST', '/v1/search', { query: 'search', filter: { property: 'object', value: 'page' } })).json.results;
  t.false(after.some((p: any) => p.id === desc[0].id));
  t.like((await call('POST', '/v1/search', { filter: { property: 'object', value: 'database' } })).json, { status: 400, code: 'validation_error' });
});

test.serial('query: compound and date filters, an unknown property and a bad cursor are Notion\'s 400', async (t) => {
  const { json } = await call('POST', `/v1/data_sources/${TASKS}/query`, {
    filter: { or: [{ property: 'Due', date: { before: '2025-09-05' } }, { and: [{ property: 'Estimate', number: { greater_than: 4 } }, { property: 'Tags', multi_select: { contains: 'docs' } }] }] },
    sorts: [{ timestamp: 'created_time', direction: 'descending' }],
  });
  t.true(json.results.length > 0);
  for (const row of json.results) {
    const p = row.properties;
    t.true(p.Due.date.start < '2025-09-05' || (p.Estimate.number > 4 && p.Tags.multi_select.some((o: any) => o.name === 'docs')));
  }
  t.like((await call('POST', `/v1/data_sources/${TASKS}/query`, { filter: { property: 'Status', select: { equals: 'Done' } } })).json, { status: 400, code: 'validation_error' });
  t.like((await call('POST', `/v1/data_sources/${TASKS}/query`, { start_cursor: 'nope' })).json, { status: 400, code: 'validation_error', message: 'start_cursor provided is invalid: nope' });
});

test.serial('schema changes reach every row: a renamed property keeps its values, a removed one goes, a new one starts empty', async (t) => {
  const before = (await call('GET', `/v1/pages/${TASK}`)).json.properties;
  const updated = await call('PATCH', `/v1/data_sources/${TASKS}`, { properties: { Estimate: { name: 'Points' }, Tags: null, Reviewer: { people: {} } } });
  t.is(updated.status, 200);
  t.deepEqual(Object.keys(updated.json.properties).sort(), ['Assignee', 'Created', 'Due', 'Points', 'Priority', 'Reviewer', 'Status', 'Task']);
  const after = (await call('GET', `/v1/pages/${TASK}`)).json.properties;
  t.is(after.Points.number, before.Estimate.number);
  t.false('Tags' in after);
  t.deepEqual(after.Reviewer, { id: updated.json.properties.Reviewer.id, type: 'people', people: [] });
});

test.serial('move a page into a data source: its title becomes the row\'s title, the rest starts empty', async (t) => {
  const moved = await call('POST', `/v1/pages/${DOC}/move`, { parent: { type: 'database_id', database_id: TASKS_DB } });
  t.like(moved.json, { parent: { type: 'data_source_id', data_source_id: TASKS } });
  t.is(moved.json.properties.Task.title[0].plain_text, 'Incident response');
  t.is(moved.json.properties.Status.status, null);
  const back = await call('POST', `/v1/pages/${DOC}/move`, { parent: { type: 'page_id', page_id: ENGINEERING } });
  t.deepEqual(Object.keys(back.json.properties), ['title']);
});

test.serial('page Markdown: read, targeted edit, replace; the blocks follow', async (t) => {
  const block = '98e8f81a-d433-5f2c-8f78-f5b484b07990';
  t.like((await call('GET', `/v1/pages/${block}/markdown`)).json, { status: 404, code: 'object_not_found' }, 'a block is no page');
  const id = (await call('POST', '/v1/search', { query: 'Release checklist' })).json.results[0].id as string;
  t.is((await call('GET', `/v1/pages/${id}/markdown`)).json.markdown, '## Release checklist\n- Changelog updated\n- Migrations reviewed\n- Feature flags set');
  const edited = await call('PATCH', `/v1/pages/${id}/markdown`, { type: 'update_content', update_content: { content_updates: [{ old_str: '- Feature flags set', new_str: '- [ ] Feature flags set' }] } });
  t.is(edited.json.markdown, '## Release checklist\n- Changelog updated\n- Migrations reviewed\n- [ ] Feature flags set');
  const children = (await call('GET', `/v1/blocks/${id}/children`)).json.results;
  t.deepEqual(children.map((b: any) => b.type), ['heading_2', 'bulleted_list_item', 'bulleted_list_item', 'to_do']);
  t.like((await call('PATCH', `/v1/pages/${id}/markdown`, { type: 'update_content', update_content: { content_updates: [{ old_str: 'absent', new_str: 'x' }] } })).json, { status: 400 });
  const replaced = await call('PATCH', `/v1/pages/${id}/markdown`, { type: 'replace_content', replace_content: { new_str: '# Done\n1. Ship' } });
  t.is(replaced.json.markdown, '# Done\n1. Ship');
});

test('a dataset naming an unknown status, property or user stops the load naming the page and property', (t) => {
  const dir = tempDir('toolbench-notion-dataset-');
  cpSync(SCENARIO, dir, { recursive: true });
  const file = join(dir, 'dataset', 'notion.json');
  const data = JSON.parse(readFileSync(file, 'utf8')) as { pages: { id: string; properties: Record<string, unknown> }[] };
  const row = data.pages.find((p) => p.id === TASK)!;
  const broken = (change: (properties: Record<string, unknown>) => void) => {
    const copy = structuredClone(data);
    change(copy.pages.find((p) => p.id === TASK)!.properties);
    writeFileSync(file, JSON.stringify(copy));
    return t.throws(() => {
      const prepared = prepareWorld({ scenarioDir: dir });
      return new World({ seed: 1, epochMs: 0, tickMs: 1000, services: prepared.services, journal: new MemoryJournal(prepared.header) });
    })!.message;
  };
  t.truthy(row);
  t.regex(broken((p) => { p.Status = 'Blocked'; }), new RegExp(`pages: ${TASK}: Status: Invalid status option, \`Blocked\``));
  t.regex(broken((p) => { p.Owner = 'x'; }), new RegExp(`pages: ${TASK}: Owner is not a property of data source`));
  t.regex(broken((p) => { p.Assignee = ['00000000-0000-4000-8000-000000000000']; }), new RegExp(`pages: ${TASK}: Assignee: .*existing user IDs`));
});
