import test from 'ava';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startStack, type Stack } from '../catalog/stack.js';
import { nodeClientEnv } from './helpers/proxy-processes.js';
import { testCaDir } from './helpers/proxy.js';
import { sourceUrl } from '../mocks/core/source-url.js';

// The official @linear/sdk (v98, unmodified) in its own Node process, reaching
// https://api.linear.app/graphql through the preload and the TLS proxy, against the Linear mock.

const run = promisify(execFile);
const SCENARIO = 'scenarios/example/linear/workspace';
const KEY = 'lin_api_mayaXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX';
let stack: Stack;

test.before(async () => {
  stack = await startStack({ scenarioDir: SCENARIO, ports: 'ephemeral', caDir: testCaDir(), endpoints: false, clients: ['linear-sdk'] });
});
test.after.always(async () => {
  await stack?.close();
});

test('@linear/sdk reads, pages, creates, updates and comments; its error classes see Linear\'s errors', async (t) => {
  const script = fileURLToPath(new URL('./helpers/linear-sdk-client.mjs', sourceUrl(import.meta.url)));
  const { stdout } = await run(process.execPath, [script], { env: { ...process.env, ...nodeClientEnv(stack.proxy!.proxy.urlFor('linear-sdk'), stack.caPath!), LINEAR_API_KEY: KEY } });
  const out = JSON.parse(stdout);
  t.deepEqual(out.viewer, { name: 'Maya Chen', email: 'maya@northwind.dev' });
  t.deepEqual(out.teams, ['DES', 'ENG', 'MOB', 'OPS']);
  t.deepEqual(out.states, ['Backlog', 'Canceled', 'Done', 'Duplicate', 'In Progress', 'In Review', 'Todo']);
  t.deepEqual(out.started, ['ENG-1', 'ENG-15', 'ENG-3', 'ENG-7']);
  t.deepEqual(out.paged, { first: { count: 10, hasNext: true }, all: 16, hasNext: false });
  t.deepEqual(out.created, { success: true, identifier: 'ENG-17', state: 'Backlog', labels: ['Backend', 'Bug'], priorityLabel: 'High' });
  t.deepEqual(out.updated, { state: 'Done', assignee: 'maya@northwind.dev', completed: true });
  t.deepEqual(out.comment, { success: true, body: 'Done via the SDK', comments: 1 });
  t.like(out.missing, { type: 'InvalidInput', invalidInput: true });
  t.deepEqual(out.unauthenticated, { type: 'AuthenticationError', authentication: true });

  await stack.world.journal.flush();
  const names: string[] = [];
  for await (const entry of stack.world.journal.entries()) names.push(entry.operation?.name ?? 'null');
  t.true(names.includes('Query.viewer') && names.includes('Mutation.issueCreate') && names.includes('Mutation.issueUpdate') && names.includes('Mutation.commentCreate'), names.join(' '));
  t.false(names.includes('null'), 'every request is named by its root field');
  const issue = Object.values(stack.world.gradingState().linear!.issues!).find((i) => (i as { title: string }).title === 'Filed with @linear/sdk');
  t.like(issue, { identifier: 'ENG-17', state: 'Done', assignee: 'maya@northwind.dev', labels: ['Backend', 'Bug'], comments: 1 });
});
