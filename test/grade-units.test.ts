import test from 'ava';
import { gradeTrial, GradingError } from '../scenarios/grade/index.js';
import { pathPattern } from '../scenarios/grade/calls.js';
import { gradeState } from '../scenarios/grade/state.js';
import { ScenarioManifestSchema } from '../scenarios/manifest.js';
import { matches, predicateProblems } from '../scenarios/predicates.js';
import type { JournalEntry } from '../mocks/core/journal-format.js';

test('predicates: literals, deep subsets, dotted paths and operators', (t) => {
  const doc = { title: 'Fix bug', labels: ['bug', 'p1'], user: { login: 'alice' }, comments: 3, closed_at: null };
  t.true(matches(doc, { title: 'Fix bug', 'user.login': 'alice' }));
  t.true(matches(doc, { user: { login: 'alice' } }));
  t.false(matches(doc, { title: 'fix bug' }));
  t.true(matches(doc, { labels: { $contains: 'p1' }, comments: { $gte: 3, $lte: 3 } }));
  t.true(matches(doc, { title: { $regex: '^Fix' }, missing: { $exists: false }, closed_at: null }));
  t.true(matches(doc, { labels: { $len: 2 }, comments: { $in: [1, 3] }, title: { $not: 'Other' } }));
  t.false(matches(doc, { labels: ['bug'] }), 'arrays compare whole');
  t.true(matches([{ a: 1 }, { a: 2 }], { $any: { a: 2 } }));
  t.deepEqual(predicateProblems({ x: { $nope: 1 }, y: { $regex: '(' } }).length, 2);
});

test('path patterns: params, single and multi-segment wildcards', (t) => {
  t.true(pathPattern('/repos/:owner/:repo/issues')('/repos/acme/widgets/issues'));
  t.false(pathPattern('/repos/:owner/:repo/issues')('/repos/acme/widgets/issues/1'));
  t.true(pathPattern('/repos/acme/*')('/repos/acme/widgets'));
  t.false(pathPattern('/repos/acme/*')('/repos/acme/widgets/issues'));
  t.true(pathPattern('/repos/acme/infra/**')('/repos/acme/infra'));
  t.true(pathPattern('/repos/acme/infra/**')('/repos/acme/infra/issues/1'));
  t.false(pathPattern('/repos/acme/infra/**')('/repos/acme/infrastructure'));
  t.true(pathPattern('/**')('/anything/at/all'));
});

const initial = { svc: { items: { a: { name: 'a', state: 'open', updated_at: 't0' }, b: { name: 'b', state: 'open', updated_at: 't0' } } } };

test('state: R_c counts only the changes that were needed; R_b counts other leaves that changed and unexpected documents', (t) => {
  const expectations = [
    { service: 'svc', collection: 'items', where: { name: 'a' }, fields: { state: 'closed' }, absent: false, description: '' },
    { service: 'svc', collection: 'items', where: { name: 'b' }, fields: { state: 'open' }, absent: false, description: '' },
  ];
  const volatile = { svc: { items: ['updated_at'] } };
  const good = { svc: { items: { a: { name: 'a', state: 'closed', updated_at: 't1' }, b: { name: 'b', state: 'open', updated_at: 't0' } } } };
  t.like(gradeState(expectations, initial, good, volatile), { state_ok: true, r_c: 1, r_b: 0, unintended_changes: 0 });
  const sloppy = { svc: { items: { a: { name: 'a', state: 'open', updated_at: 't0' }, b: { name: 'B', state: 'open', updated_at: 't0' }, c: { name: 'c', state: 'open' } } } };
  const graded = gradeState(expectations, initial, sloppy, volatile);
  t.like(graded, { state_ok: false, r_c: 0, unintended_changes: 2 });
  t.true(graded.r_b > 0);
  t.deepEqual(graded.unintended, ['svc/items/b: name "b" → "B"', 'svc/items/c: new document']);
});

test('an ignore entry naming a field that does not exist is an error, not a silent skip', (t) => {
  const scenario = ScenarioManifestSchema.parse({
    id: 'x/y', group: 'code', services: ['svc'], epoch: '2025-01-01T00:00:00Z', expect: { ignore: ['svc.items.updatd_at'] },
  });
  const input = {
    scenario, seed: 1, agent: 'nop', initial, final: initial, volatile: {}, entries: [] as JournalEntry[], mcp: [],
    answer: null, agentOutput: '', agentExit: { code: 0, signal: null }, interrupted: false,
  };
  const error = t.throws(() => gradeTrial(input), { instanceOf: GradingError });
  t.regex(error!.message, /svc\.items\.updatd_at: no such field in any items document/);
  t.notThrows(() => gradeTrial({ ...input, scenario: { ...scenario, expect: { ...scenario.expect, ignore: ['svc.items.updated_at'] } } }));
  t.throws(() => gradeTrial({ ...input, volatile: { svc: { items: ['nope'] } } }), { message: /svc\.items\.nope/ });
});

test('case-insensitive regexes, $all, and dotted volatile fields', (t) => {
  t.true(matches('Initech Corp', { $iregex: '^initech' }));
  t.false(matches('Initech Corp', { $regex: '^initech' }));
  t.true(matches('retry = 5 # was 3', { $all: [{ $contains: 'retry = 5' }, { $not: { $contains: 'retry = 3\n' } }] }));
  t.false(matches('x', { $all: [{ $contains: 'x' }, { $contains: 'y' }] }));
  const before = { svc: { pulls: { p: { head: { sha: 'a', ref: 'f' }, title: 't' } } } };
  const after = { svc: { pulls: { p: { head: { sha: 'b', ref: 'f' }, title: 't' } } } };
  t.like(gradeState([], before, after, { svc: { pulls: ['head.sha'] } }), { unintended_changes: 0 });
  t.like(gradeState([], before, { svc: { pulls: { p: { head: { sha: 'b', ref: 'g' }, title: 't' } } } }, { svc: { pulls: ['head.sha'] } }), { unintended_changes: 1 });
});

test('noise entries (telemetry, update checks) count in neither api_calls nor mcp_bypass, and match no call expectation', (t) => {
  const scenario = ScenarioManifestSchema.parse({
    id: 'x/y', group: 'code', services: ['svc'], epoch: '2025-01-01T00:00:00Z',
    expect: { forbidden_calls: [{ method: 'POST', host: 'api.agnost.ai' }] },
  });
  const entry = (seq: number, kind: 'http' | 'noise', host: string, attribution: 'mcp' | 'direct', callId: string | null = attribution === 'mcp' ? 'svc#1' : null): JournalEntry => ({
    seq, time: '2025-01-01T00:00:00.000Z', kind, service: kind === 'http' ? 'svc' : null, host, method: 'POST', target: '/e', operation: null,
    request: { headers: [], body: new Uint8Array(0), oversize: false }, response: { status: 200, headers: [], body: new Uint8Array(0) },
    attribution: { kind: attribution, client: null, endpoint: attribution === 'mcp' ? 'svc' : null, tool: callId ? 'do' : null, callId }, fault: null,
  });
  const result = gradeTrial({
    scenario, seed: 1, agent: 'nop', initial, final: initial, volatile: {}, mcp: [],
    entries: [entry(1, 'http', 'svc.test', 'mcp'), entry(2, 'noise', 'api.agnost.ai', 'mcp'), entry(3, 'noise', 'api.agnost.ai', 'direct'), entry(4, 'http', 'svc.test', 'direct')],
    answer: null, agentOutput: '', agentExit: { code: 0, signal: null }, interrupted: false,
  });
  t.like(result, { api_calls: 2, mcp_bypass: 1, forbidden_calls_ok: true, world_requests: 4 });
  // A server's own request between tool calls (a background refresh) is no API call either.
  const background = gradeTrial({
    scenario, seed: 1, agent: 'nop', initial, final: initial, volatile: {}, mcp: [],
    entries: [entry(1, 'http', 'svc.test', 'mcp'), entry(2, 'http', 'svc.test', 'mcp', null)],
    answer: null, agentOutput: '', agentExit: { code: 0, signal: null }, interrupted: false,
  });
  t.like(background, { api_calls: 1, mcp_bypass: 0, world_requests: 2 });
});

test('call matchers: a method is one HTTP method (an alternation would silently match nothing)', async (t) => {
  const { CallMatcherSchema } = await import('../scenarios/expectations.js');
  t.is(CallMatcherSchema.parse({ method: 'post', path: '/x' }).method, 'POST');
  const refused = CallMatcherSchema.safeParse({ method: 'POST|PUT', path: '/x' });
  t.false(refused.success);
  t.regex(refused.success ? '' : refused.error.issues[0]!.message, /one HTTP method/);
});
