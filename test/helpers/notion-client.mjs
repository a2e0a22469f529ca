// @notionhq/client, unmodified, through whatever the preload set up (https://api.notion.com via
// the proxy): runs the named steps and prints one JSON line per step ({step, result} or
// {step, error: {name, code, status, message}}). The token comes from NOTION_TOKEN.
import { Client, APIResponseError, collectPaginatedAPI, isFullPage, isFullDataSource, isFullBlock, isFullUser, isFullComment, isFullDatabase } from '@notionhq/client';

const notion = new Client({ auth: process.env.NOTION_TOKEN, retry: false, logLevel: 'error' });
const stranger = new Client({ auth: 'ntn_not_a_token_of_this_workspace', retry: false, logLevel: 'error' });
const TASKS = '49dffeef-d8a6-55ba-b63e-bd485dd4467b';
const HANA = '9def87cc-819d-5542-b3e7-bf5689a8e558';
const DOC = '6080af5a-0655-5b60-83c1-1aa49e200bab';
const text = (content) => [{ type: 'text', text: { content } }];
const state = {};

const steps = {
  'users.me': async () => { const me = await notion.users.me({}); return { me, full: isFullUser(me) }; },
  'users paginated': async () => {
    const users = await collectPaginatedAPI(notion.users.list, { page_size: 3 });
    return { names: users.map((u) => u.name) };
  },
  'search data sources': async () => {
    const found = await notion.search({ query: 'sprint tasks', filter: { property: 'object', value: 'data_source' } });
    return { ids: found.results.map((r) => r.id), full: found.results.every(isFullDataSource) };
  },
  'database and data source': async () => {
    const source = await notion.dataSources.retrieve({ data_source_id: TASKS });
    const database = await notion.databases.retrieve({ database_id: source.parent.database_id });
    return { properties: Object.fromEntries(Object.entries(source.properties).map(([n, p]) => [n, p.type])), database: database.data_sources, full: isFullDatabase(database) };
  },
  'query paginated': async () => {
    const rows = await collectPaginatedAPI(notion.dataSources.query, {
      data_source_id: TASKS, page_size: 4,
      filter: { and: [{ property: 'Status', status: { does_not_equal: 'Done' } }, { property: 'Priority', select: { equals: 'High' } }] },
      sorts: [{ property: 'Due', direction: 'ascending' }],
    });
    return { titles: rows.map((r) => r.properties.Task.title[0].plain_text), statuses: rows.map((r) => r.properties.Status.status.name), priorities: rows.map((r) => r.properties.Priority.select.name), dues: rows.map((r) => r.properties.Due.date.start), full: rows.every(isFullPage) };
  },
  'create row': async () => {
    const page = await notion.pages.create({
      parent: { data_source_id: TASKS },
      properties: {
        Task: { title: text('Draft the Q4 hiring plan') }, Status: { status: { name: 'Not started' } },
        Assignee: { people: [{ id: HANA }] }, Due: { date: { start: '2025-10-10' } }, Priority: { select: { name: 'High' } },
      },
      children: [{ object: 'block', type: 'to_do', to_do: { rich_text: text('List the open roles') } }],
    });
    state.page = page.id;
    const title = await notion.pages.properties.retrieve({ page_id: page.id, property_id: 'title' });
    return { page, title, full: isFullPage(page) };
  },
  'update row': async () => {
    const page = await notion.pages.update({ page_id: state.page, properties: { Status: { status: { name: 'In progress' } } } });
    return { status: page.properties.Status.status.name, edited: page.last_edited_time };
  },
  'blocks': async () => {
    const appended = await notion.blocks.children.append({ block_id: state.page, children: [
      { type: 'heading_2', heading_2: { rich_text: text('Notes') } },
      { type: 'paragraph', paragraph: { rich_text: text('Budget approved for two roles.') } },
    ] });
    const todo = (await notion.blocks.children.list({ block_id: state.page })).results[0];
    const checked = await notion.blocks.update({ block_id: todo.id, to_do: { checked: true } });
    const deleted = await notion.blocks.delete({ block_id: appended.results[1].id });
    const first = await notion.blocks.children.list({ block_id: state.page, page_size: 1 });
    const second = await notion.blocks.children.list({ block_id: state.page, page_size: 1, start_cursor: first.next_cursor });
    const after = { results: [...first.results, ...second.results] };
    return {
      types: after.results.map((b) => b.type), has_more: [first.has_more, second.has_more], checked: checked.to_do.checked,
      deleted: deleted.in_trash, full: [...after.results, checked].every(isFullBlock),
    };
  },
  'comments': async () => {
    const before = await notion.comments.list({ block_id: DOC });
    const created = await notion.comments.create({ parent: { page_id: DOC }, rich_text: text('Added the status page step.') });
    const reply = await notion.comments.create({ discussion_id: before.results[0].discussion_id, rich_text: text('Agreed.') });
    const after = await notion.comments.list({ block_id: DOC });
    return { before: before.results.length, after: after.results.length, sameThread: reply.discussion_id === before.results[0].discussion_id, full: isFullComment(created) };
  },
  'trash row': async () => {
    const page = await notion.pages.update({ page_id: state.page, in_trash: true });
    const rows = await notion.dataSources.query({ data_source_id: TASKS, filter: { property: 'Task', title: { contains: 'hiring' } } });
    return { in_trash: page.in_trash, found: rows.results.length };
  },
  'not found': () => notion.pages.retrieve({ page_id: '00000000-0000-4000-8000-000000000000' }),
  'bad status': () => notion.pages.create({ parent: { data_source_id: TASKS }, properties: { Task: { title: text('x') }, Status: { status: { name: 'Blocked' } } } }),
  'bad filter': () => notion.dataSources.query({ data_source_id: TASKS, filter: { property: 'Nope', select: { equals: 'x' } } }),
  'unauthorized': () => stranger.users.me({}),
};

for (const name of process.argv.slice(2)) {
  try {
    console.log(JSON.stringify({ step: name, result: await steps[name]() }));
  } catch (error) {
    const e = error instanceof APIResponseError ? { name: error.name, code: error.code, status: error.status, message: error.message } : { name: error?.name, message: String(error?.message ?? error) };
    console.log(JSON.stringify({ step: name, error: e }));
  }
}
