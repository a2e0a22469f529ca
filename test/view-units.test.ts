import test from 'ava';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JournalEntry, McpRecord } from '../mocks/core/journal-format.js';
import { ReplayReportFileSchema, readReportFile } from '../replay/report-file.js';
import { TimelinePageSchema, type TimelineRow } from '../replay/view/api.js';
import { bodySides } from '../replay/view/data.js';
import { formatXml, parseForm, prettyBody } from '../replay/view/pretty.js';
import { buildTimeline, findRow, indexCall, indexEntry, type TrialIndex } from '../replay/view/timeline.js';
import { trialPaths } from '../replay/view/trial.js';
import { tempDir } from './helpers/journal.js';

const bytes = (text: string) => new TextEncoder().encode(text);

test('bodies by type: JSON indented, form keys nested, GraphQL query formatted with its variables, XML indented', (t) => {
  const json = prettyBody([['Content-Type', 'application/json']], bytes('{"a":1,"b":[true,null]}'));
  t.like(json, { type: 'json', size: 23, truncated: false, raw: '{"a":1,"b":[true,null]}' });
  t.is(json.text, '{\n  "a": 1,\n  "b": [\n    true,\n    null\n  ]\n}');

  const form = prettyBody([['content-type', 'application/x-www-form-urlencoded; charset=utf-8']],
    bytes('amount=2000&currency=usd&metadata[order_id]=6735&items[0][price]=p_1&items[0][quantity]=2&items[1][price]=p_2&expand[]=customer&note=a+b%26c'));
  t.is(form.type, 'form');
  t.deepEqual(JSON.parse(form.text), {
    amount: '2000', currency: 'usd', metadata: { order_id: '6735' },
    items: [{ price: 'p_1', quantity: '2' }, { price: 'p_2' }], expand: ['customer'], note: 'a b&c',
  });

  const graphql = prettyBody([['Content-Type', 'application/json']],
    bytes(JSON.stringify({ query: 'query Issues($first:Int){viewer{issues(first:$first){nodes{id title}}}}', variables: { first: 2 } })));
  t.is(graphql.type, 'graphql');
  t.is(graphql.text, 'query Issues($first: Int) {\n  viewer {\n    issues(first: $first) {\n      nodes {\n        id\n        title\n      }\n    }\n  }\n}');
  t.deepEqual(JSON.parse(graphql.variables!), { variables: { first: 2 } });

  const xml = prettyBody([['Content-Type', 'application/xml']], bytes('<?xml version="1.0"?><a><b x="1">text</b><c/><!-- note --></a>'));
  t.is(xml.type, 'xml');
  t.is(xml.text, '<?xml version="1.0"?>\n<a>\n  <b x="1">text</b>\n  <c/>\n  <!-- note -->\n</a>');

  t.like(prettyBody([], new Uint8Array()), { type: 'empty', text: '' });
  t.like(prettyBody([['Content-Type', 'text/plain']], bytes('hello')), { type: 'text', text: 'hello' });
  const binary = prettyBody([['Content-Type', 'application/octet-stream']], new Uint8Array([0xff, 0x00, 0x41]));
  t.like(binary, { type: 'binary', raw: null });
  t.regex(binary.text, /^00000000 {2}ff 00 41 +\.\.A$/);
});

test('form parsing keeps what it cannot nest: a list given a named key becomes an object, __proto__ is a plain key', (t) => {
  t.deepEqual(parseForm('a[0]=x&a[k]=y'), { a: { 0: 'x', k: 'y' } });
  const odd = parseForm('__proto__[polluted]=1&b=%E0%A4');
  t.deepEqual(Object.keys(odd), ['__proto__', 'b']);
  t.is(({} as Record<string, unknown>).polluted, undefined);
  t.is(odd.b, '%E0%A4', 'a bad escape is kept as sent');
  t.is(formatXml('<a><b>1</b></a>'), '<a>\n  <b>1</b>\n</a>');
});

test('side by side: the differing run of a flipped byte, on character boundaries; hex for binary bodies', (t) => {
  const [a, b] = bodySides(bytes('{"title":"add é"}'), bytes('{"title":"Add é"}'));
  t.like(a, { encoding: 'text', start: 10, end: 11, before: '{"title":"', differs: 'a', after: 'dd é"}' });
  t.like(b, { differs: 'A', start: 10, end: 11 });
  // é is two bytes (c3 a9); a change in its second byte takes the whole character.
  const [c, d] = bodySides(bytes('xé'), new Uint8Array([0x78, 0xc3, 0xa8]));
  t.like(c, { differs: 'é', start: 1, end: 3 });
  t.like(d, { differs: 'è' });
  const [e, f] = bodySides(new Uint8Array([1, 2, 0xff, 4]), new Uint8Array([1, 2, 0xfe, 4]));
  t.like(e, { encoding: 'hex', before: '01 02', differs: 'ff', after: '04' });
  t.like(f, { differs: 'fe' });
  const [g, h] = bodySides(bytes('same'), bytes('same, longer'));
  t.like(g, { differs: '', start: 4, end: 4 });
  t.like(h, { differs: ', longer', start: 4, end: 12 });
});

function entry(seq: number, attribution: JournalEntry['attribution'], status = 200, target = `/repos/acme/widgets/issues/${seq}`): JournalEntry {
  return {
    seq, time: `2025-01-01T00:00:${String(seq).padStart(2, '0')}.000Z`, kind: 'http', service: 'github', host: 'api.github.com', method: 'GET', target,
    request: { headers: [], body: new Uint8Array(), oversize: false },
    response: { status, headers: [], body: bytes('{}') }, attribution, fault: null, operation: null,
  };
}
const mcp = (callId: string, tool = 'get_issue') => ({ kind: 'mcp' as const, client: 'github', endpoint: 'github', tool, callId });
const other = (kind: 'startup' | 'direct' | 'blocked') => ({ kind, client: null, endpoint: null, tool: null, callId: null });
function call(n: number, tool: string, before: number, after: number): McpRecord {
  return { n, endpoint: 'github', kind: 'call', tool, callId: `github#${n}`, arguments: { n }, result: null, isError: false, error: null, worldSeqBefore: before, worldSeqAfter: after };
}

function trialIndex(): TrialIndex {
  const entries = [
    entry(1, other('startup')), entry(2, other('startup')),
    entry(3, mcp('github#1')), entry(4, mcp('github#1'), 404),
    entry(5, other('direct')),
    entry(6, mcp('github#3', 'create_issue')),
    { ...entry(7, null), kind: 'reset' as const },
  ];
  const calls = [call(1, 'get_issue', 2, 4), call(2, 'list_issues', 5, 5), call(3, 'create_issue', 5, 6)];
  return { entries: entries.map((e) => indexEntry(e)), calls: calls.map(indexCall), crashes: [], divergent: new Set([4]) };
}

const shape = (rows: TimelineRow[]) => rows.map((row) => {
  switch (row.type) {
    case 'entry': return `${'  '.repeat(row.depth)}${row.seq} ${row.origin}${row.divergent ? ' ≠' : ''}`;
    case 'call': return `call ${row.tool} (${row.requests})`;
    case 'fold': return `fold ${row.count} ${row.folded ? 'folded' : 'open'}`;
    case 'crash': return `crash ${row.endpoint}`;
  }
});

test('timeline: calls in order with their requests nested, startup folded, bypasses and resets in place, a call with no request kept', (t) => {
  const index = trialIndex();
  t.deepEqual(shape(buildTimeline(index)), [
    'fold 2 folded', 'call get_issue (2)', '  3 mcp', '  4 mcp ≠', '5 direct', 'call list_issues (0)', 'call create_issue (1)', '  6 mcp', '7 reset',
  ]);
  t.deepEqual(shape(buildTimeline(index, {}, true)).slice(0, 3), ['fold 2 open', '  1 startup', '  2 startup']);
  const rows = buildTimeline(index);
  t.is(findRow(rows, 4), 3);
  t.is(findRow(rows, 2), 0, 'a folded startup request is found at its fold');
  t.notThrows(() => TimelinePageSchema.parse({ total: rows.length, offset: 0, rows, found: null }));
});

test('an entry\'s operation is shown and searched when the journal records one, null when it does not', (t) => {
  const plain = indexEntry(entry(1, mcp('github#1')));
  t.is(plain.operation, null);
  const named = indexEntry({ ...entry(2, mcp('github#1')), operation: { name: 'issues.get', via: 'handler' } });
  t.is(named.operation, 'issues.get');
  const spec = indexEntry({ ...entry(3, mcp('github#1')), operation: { name: 'repos.getReadme', via: 'spec' } });
  t.is(spec.operation, 'repos.getReadme (spec)');
  const index: TrialIndex = { entries: [plain, named, spec], calls: [], crashes: [], divergent: new Set() };
  t.deepEqual(shape(buildTimeline(index, { q: 'issues.get' })), ['2 mcp']);
});

test('timeline filters: attribution, status, tool, service, route and search', (t) => {
  const index = trialIndex();
  t.deepEqual(shape(buildTimeline(index, { origin: 'direct' })), ['5 direct']);
  t.deepEqual(shape(buildTimeline(index, { status: '4xx' })), ['call get_issue (2)', '  4 mcp ≠']);
  t.deepEqual(shape(buildTimeline(index, { status: '200', origin: 'startup' })), ['1 startup', '2 startup']);
  t.deepEqual(shape(buildTimeline(index, { tool: 'list_issues' })), ['call list_issues (0)'], 'a call without requests matches its tool');
  t.deepEqual(shape(buildTimeline(index, { tool: 'create_issue' })), ['call create_issue (1)', '  6 mcp']);
  t.deepEqual(shape(buildTimeline(index, { service: 'none' })), []);
  t.deepEqual(shape(buildTimeline(index, { route: 'GET /repos/acme/widgets/issues/:number', origin: 'direct' })), ['5 direct']);
  t.deepEqual(shape(buildTimeline(index, { q: 'issues/6' })), ['call create_issue (1)', '  6 mcp']);
  t.deepEqual(shape(buildTimeline(index, { q: 'LIST_ISSUES' })), ['call list_issues (0)'], 'search is case-insensitive and sees tool names');
});

test('bad input: a missing path, a file, a report that is not one, a result.json that is not one', (t) => {
  const dir = tempDir();
  t.throws(() => trialPaths(join(dir, 'nope')), { message: /nope: no such run folder or journal/ });
  writeFileSync(join(dir, 'file'), 'x');
  t.throws(() => trialPaths(join(dir, 'file')), { message: /is a file; give a run folder/ });
  t.throws(() => trialPaths(dir), { message: /is not a journal \(no LevelDB CURRENT file\)/ });
  writeFileSync(join(dir, 'report.json'), '{"format":1,"verdict":"maybe"}');
  t.throws(() => readReportFile(join(dir, 'report.json')), { message: /report\.json: field verdict: Invalid enum value/ });
  writeFileSync(join(dir, 'report.json'), '{');
  t.throws(() => readReportFile(join(dir, 'report.json')), { message: /report\.json: not JSON/ });
  t.throws(() => readReportFile(join(dir, 'absent.json')), { message: /absent\.json: cannot read it \(ENOENT\)/ });
  t.false(ReplayReportFileSchema.safeParse({}).success);
});
