import test from 'ava';
import { readFileSync } from 'node:fs';
import { MemoryJournal } from '../mocks/core/journal.js';
import type { JournalHeader } from '../mocks/core/journal-format.js';
import { FaultRuleSchema } from '../mocks/core/fault-plan.js';
import { World } from '../mocks/core/world.js';
import { LinearDatasetSchema } from '../mocks/linear/dataset.js';
import { linearService } from '../mocks/linear/index.js';

// The Linear mock in-process: determinism across worlds and seeds, Linear's error shapes, filters.

const baseline = JSON.parse(readFileSync('scenarios/baseline/dataset/linear.json', 'utf8'));
const KEY = 'lin_api_mayaXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX';
const header: JournalHeader = { format: 2, toolbench: 'test', scenario: 'linear', datasetHash: '', seed: 42, catalogHash: '', epoch: '2025-09-20T09:00:00.000Z', tickMs: 1000, scenarioDir: '/nowhere' };

function world(seed = 42, faults?: World['config']['faults']) {
  return new World({
    seed, epochMs: Date.parse('2025-09-20T09:00:00Z'), tickMs: 1000, journal: new MemoryJournal(header), faults,
    services: [{ id: 'linear', hostnames: ['api.linear.app'], definition: linearService, data: LinearDatasetSchema.parse(baseline) }],
  });
}
function gql(w: World, query: string, variables: Record<string, unknown> = {}, auth: string | null = KEY) {
  const headers: [string, string][] = [['Content-Type', 'application/json'], ...(auth ? [['Authorization', auth] as [string, string]] : [])];
  const entry = w.process({ host: 'api.linear.app', method: 'POST', target: '/graphql', headers, body: new TextEncoder().encode(JSON.stringify({ query, variables })) });
  return { entry, status: entry.response.status, text: new TextDecoder().decode(entry.response.body), json: JSON.parse(new TextDecoder().decode(entry.response.body)) };
}

// A session of reads and writes that names things by key, identifier and name, never by UUID.
const SESSION: [string, Record<string, unknown>?][] = [
  ['{ viewer { id name email teams { nodes { id key } } } }'],
  ['{ issues(first: 20, filter: { team: { key: { eq: "ENG" } } }) { nodes { id identifier title state { id name } labels { nodes { id name } } assignee { id email } project { id name } cycle { id number } } } }'],
  ['{ issue(id: "ENG-3") { id title comments { nodes { id body user { id name } } } relations { nodes { id type relatedIssue { identifier } } } } }'],
  ['mutation { issueCreate(input: { teamId: "ENG", title: "Determinism check", priority: 3 }) { success issue { id identifier url branchName createdAt state { id name } } } }'],
  ['mutation { commentCreate(input: { issueId: "ENG-17", body: "Seen" }) { success comment { id body createdAt user { id } } } }'],
  ['mutation { issueUpdate(id: "ENG-17", input: { priority: 1 }) { success issue { id priority priorityLabel updatedAt } } }'],
  ['{ projects { nodes { id name lead { id email } teams { nodes { id key } } projectMilestones { nodes { id name } } } } }'],
];

function runSession(seed: number): string[] {
  const w = world(seed);
  return SESSION.map(([query, variables]) => gql(w, query, variables).text);
}

test('two worlds answer the same session with the same bytes', (t) => {
  t.deepEqual(runSession(42), runSession(42));
});

test('another seed changes only the ids', (t) => {
  const uuids = /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/g;
  const normalise = (texts: string[]) => {
    const names = new Map<string, string>();
    return texts.map((text) => text.replace(uuids, (id) => {
      if (!names.has(id)) names.set(id, `<id ${names.size}>`);
      return names.get(id)!;
    }));
  };
  const a = runSession(42);
  const b = runSession(43);
  t.notDeepEqual(a, b);
  t.deepEqual(normalise(a), normalise(b));
});

test('Linear\'s errors: authentication, unknown ids, validation, variables, rate limits', (t) => {
  const w = world(42, { chaos: 'none', rules: [FaultRuleSchema.parse({ route: '/graphql', operation: 'Query.teams', kind: '429', nth: [1], retry_after: 30 })] });
  const anonymous = gql(w, '{ viewer { id } }', {}, null);
  t.is(anonymous.status, 400);
  t.like(anonymous.json.errors[0], { message: 'Authentication required, not authenticated', extensions: { type: 'authentication error', code: 'AUTHENTICATION_ERROR' } });
  t.is(gql(w, '{ viewer { id } }', {}, 'lin_api_unknown').status, 400);
  t.is(gql(w, '{ viewer { name } }', {}, `Bearer ${KEY}`).json.data.viewer.name, 'Maya Chen', 'an OAuth-style bearer');

  const missing = gql(w, '{ issue(id: "ENG-999") { title } }');
  t.is(missing.status, 200);
  t.deepEqual(missing.json, { errors: [{ message: 'Entity not found: Issue', path: ['issue'], locations: [{ line: 1, column: 3 }], extensions: { type: 'invalid input', code: 'INPUT_ERROR', statusCode: 400, userError: true, userPresentableMessage: 'Could not find referenced Issue.' } }], data: null });
  const invalid = gql(w, '{ issue(id: "ENG-1") { nonsense } }');
  t.is(invalid.status, 400);
  t.like(invalid.json.errors[0], { message: 'Cannot query field "nonsense" on type "Issue".', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });
  t.like(gql(w, 'query($id: String!) { issue(id: $id) { id } }').json.errors[0], { extensions: { code: 'BAD_USER_INPUT' } });
  t.is(gql(w, '{ issues(first: 500) { nodes { id } } }').json.errors[0].extensions.code, 'INPUT_ERROR');

  const limited = gql(w, '{ teams { nodes { key } } }');
  t.is(limited.status, 429);
  t.like(limited.json.errors[0], { extensions: { type: 'ratelimited', code: 'RATELIMITED' } });
  t.true(limited.entry.response.headers.some(([k, v]) => k === 'Retry-After' && v === '30'));
  t.deepEqual(limited.entry.operation, { name: 'Query.teams', via: 'handler' });
  t.is(gql(w, '{ teams { nodes { key } } }').status, 200, 'only the first call is faulted');
});

test('filters: nested entities, comparators, and/or, collections, relative dates', (t) => {
  const w = world();
  const identifiers = (filter: string) => (gql(w, `{ issues(first: 100, filter: ${filter}) { nodes { identifier } } }`).json.data.issues.nodes as { identifier: string }[]).map((i) => i.identifier).sort();
  t.deepEqual(identifiers('{ title: { containsIgnoreCase: "tax twice" } }'), ['ENG-3', 'MOB-7']);
  t.deepEqual(identifiers('{ title: { containsIgnoreCase: "tax twice" }, team: { key: { eq: "MOB" } } }'), ['MOB-7']);
  t.deepEqual(identifiers('{ labels: { some: { name: { eq: "Incident" } } } }'), ['OPS-1']);
  t.deepEqual(identifiers('{ or: [{ number: { eq: 1 }, team: { key: { eq: "ENG" } } }, { number: { eq: 2 }, team: { key: { eq: "DES" } } }] }'), ['DES-2', 'ENG-1']);
  t.deepEqual(identifiers('{ assignee: { null: true }, team: { key: { eq: "OPS" } } }'), ['OPS-4', 'OPS-7']);
  const mine = identifiers('{ assignee: { isMe: { eq: true } }, state: { type: { in: ["started", "unstarted"] } } }');
  t.true(mine.length > 0);
  t.deepEqual(mine, identifiers('{ assignee: { email: { eq: "maya@northwind.dev" } }, state: { type: { nin: ["backlog", "completed", "canceled", "triage"] } } }'));
  const recent = identifiers('{ createdAt: { gt: "-P40D" } }'); // after 2025-08-11 by the logical clock
  t.true(recent.length > 0 && recent.length < 40, `${recent.length} of 40 issues`);
  t.true(recent.includes('ENG-16') && !recent.includes('ENG-1'));
  t.deepEqual(identifiers('{ createdAt: { gt: "P1D" } }'), [], 'nothing is created in the future');
});

test('a dataset that names something missing is a clear load error', (t) => {
  const bad = LinearDatasetSchema.parse({ ...baseline, issues: [{ team: 'ENG', title: 'x', state: 'Nope' }] });
  t.throws(() => new World({ seed: 1, epochMs: 0, tickMs: 1000, journal: new MemoryJournal(header), services: [{ id: 'linear', hostnames: ['api.linear.app'], definition: linearService, data: bad }] }), { message: /issues\[0\] \(x\): team ENG has no state Nope/ });
});
