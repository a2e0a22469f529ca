import test from 'ava';
import type { JournalEntry } from '../mocks/core/journal-format.js';
import { bodyDiff } from '../replay/body-diff.js';
import { diffEntries, diffJournals, diffResponse } from '../replay/diff.js';
import { headerDiff } from '../replay/header-diff.js';
import { comparedHeaders, serviceHeaders } from '../replay/identity.js';
import { jsonPathDiff } from '../replay/json-diff.js';

const bytes = (text: string) => new Uint8Array(Buffer.from(text));

test('header diff: changed, added, removed, moved, a name in another case; transport headers ignored', (t) => {
  t.deepEqual(headerDiff([['A', '1'], ['B', '2']], [['A', '1'], ['B', '2']]), []);
  t.deepEqual(headerDiff([['Date', 'x'], ['ETag', '"a"'], ['Gone', '1']], [['Date', 'x'], ['ETag', '"b"'], ['New', '2']]), [
    { op: 'changed', name: 'ETag', recorded: '"a"', replayed: '"b"' },
    { op: 'removed', name: 'Gone', recorded: '1' },
    { op: 'added', name: 'New', replayed: '2' },
  ]);
  t.deepEqual(headerDiff([['A', '1'], ['B', '2'], ['C', '3']], [['B', '2'], ['C', '3'], ['A', '1']]), [{ op: 'moved', name: 'A', value: '1' }]);
  t.deepEqual(headerDiff([['ETag', 'x']], [['etag', 'x']]), [{ op: 'changed', name: 'ETag', recorded: 'x', replayed: 'x', replayedName: 'etag' }]);
  t.deepEqual(comparedHeaders([['Date', 'x'], ['Connection', 'keep-alive'], ['keep-alive', 'timeout=5'], ['Transfer-Encoding', 'chunked']]), [['Date', 'x']]);
  t.deepEqual(serviceHeaders([['Date', 'x'], ['Content-Type', 'text/plain'], ['X-Toolbench-Seq', '3'], ['Content-Length', '7']]), [['Content-Type', 'text/plain']]);
});

test('JSON paths: nested keys, odd keys, array lengths and items, type changes; capped with a total', (t) => {
  const { changes, total } = jsonPathDiff(
    { a: { b: 1, c: [1, 2, 3] }, 'odd key': true, gone: 1, same: 'x' },
    { a: { b: 2, c: [1, 2] }, 'odd key': 'true', added: null, same: 'x' });
  t.is(total, 6);
  t.deepEqual(changes.map((c) => [c.path, c.op, c.recorded, c.replayed]), [
    ['$.a.b', 'changed', '1', '2'],
    ['$.a.c.length', 'changed', '3', '2'],
    ['$.a.c[2]', 'removed', '3', undefined],
    ['$["odd key"]', 'changed', 'true', '"true"'],
    ['$.gone', 'removed', '1', undefined],
    ['$.added', 'added', undefined, 'null'],
  ]);
  const many = jsonPathDiff(Array.from({ length: 50 }, (_, i) => i), Array.from({ length: 50 }, (_, i) => i + 1), 5);
  t.is(many.changes.length, 5);
  t.is(many.total, 50);
});

test('body diff: JSON paths, same JSON in other bytes, text and binary excerpts', (t) => {
  t.is(bodyDiff(bytes('{"a":1}'), bytes('{"a":1}')), null);
  t.like(bodyDiff(bytes('{"a":1}'), bytes('{"a":2}')), { kind: 'json', totalPaths: 1, paths: [{ path: '$.a' }] });
  t.like(bodyDiff(bytes('{"a":1,"b":2}'), bytes('{"b":2,"a":1}')), { kind: 'bytes', sameJson: true, offset: 2 });
  t.like(bodyDiff(bytes('hello world'), bytes('hello World')), { kind: 'bytes', sameJson: false, offset: 6, excerpt: { encoding: 'text', recorded: '"hello world"', replayed: '"hello World"' } });
  t.like(bodyDiff(new Uint8Array([0, 1, 2, 0xff]), new Uint8Array([0, 1, 3, 0xff])), { kind: 'bytes', offset: 2, excerpt: { encoding: 'hex', recorded: '000102ff', replayed: '000103ff' } });
  t.like(bodyDiff(bytes('abc'), bytes('abcd')), { kind: 'bytes', offset: 3, recordedSize: 3, replayedSize: 4 });
  const long = 'x'.repeat(100);
  const diff = bodyDiff(bytes(`${long}A${long}`), bytes(`${long}B${long}`));
  t.true(diff?.kind === 'bytes' && diff.excerpt.recorded.startsWith('…"') && diff.excerpt.recorded.length < 60);
});

function entry(seq: number, target: string, body: string): JournalEntry {
  return {
    seq, time: '2025-01-01T00:00:00.000Z', kind: 'http', service: 's', host: 'h', method: 'GET', target, operation: null,
    request: { headers: [], body: new Uint8Array(), oversize: false },
    response: { status: 200, headers: [['Date', 'x']], body: bytes(body) }, attribution: null, fault: null,
  };
}

async function* stream(entries: JournalEntry[]) { yield* entries; }

test('journal against journal: request identity first, then the response; a missing entry counts', async (t) => {
  const a = [entry(1, '/a', '{"x":1}'), entry(2, '/b', '{"x":2}'), entry(3, '/c', '{}')];
  const b = [entry(1, '/a', '{"x":1}'), entry(2, '/B', '{"x":3}')];
  t.deepEqual(diffEntries(a[1], b[1])?.fields, ['request', 'body']);
  t.deepEqual(diffEntries(a[1], b[1])?.requestChanges, [{ field: 'target', recorded: '/b', replayed: '/B' }]);
  const summary = await diffJournals(stream(a), stream(b));
  t.like(summary, { entries: 3, identical: 1, divergent: 2, divergentSeqs: [2, 3], byField: { request: 1, body: 1, missing: 1 } });
  t.is(summary.first?.seq, 2);
  t.like(diffEntries(a[2], undefined), { fields: ['missing'], missing: 'replayed' });
});

test('an entry that agrees is null; each single difference is reported (the fast agreement check and the full comparison agree)', (t) => {
  const response = { status: 200, headers: [['Date', 'x'], ['ETag', '"a"'], ['Content-Length', '2']] as [string, string][], body: bytes('{}') };
  const recorded = {
    seq: 4, time: 0, kind: 'request', service: 'github', host: 'api.github.com', method: 'GET', target: '/', operation: null,
    request: { headers: [], body: new Uint8Array(0), oversize: false }, response, attribution: null, fault: null,
  } as unknown as JournalEntry;
  const same = { seq: 4, ...response, fault: null };
  t.is(diffResponse(recorded, same), null);
  t.is(diffResponse(recorded, { ...same, fault: undefined }), null);
  // Transport headers on either side, in any case and place, are not compared.
  t.is(diffResponse(recorded, { ...same, headers: [['Connection', 'keep-alive'], ...response.headers, ['TRANSFER-ENCODING', 'chunked']] }), null);
  t.is(diffResponse(recorded, { ...same, fault: undefined, cut: false }), null);
  const fields = (replayed: Parameters<typeof diffResponse>[1], on: JournalEntry = recorded) => diffResponse(on, replayed)?.fields;
  t.deepEqual(fields({ ...same, seq: 5 }), ['seq']);
  t.deepEqual(fields({ ...same, status: 201 }), ['status']);
  t.deepEqual(fields({ ...same, headers: [['Date', 'x'], ['Etag', '"a"'], ['Content-Length', '2']] }), ['headers']);
  t.deepEqual(fields({ ...same, headers: response.headers.slice(0, 2) }), ['headers']);
  t.deepEqual(fields({ ...same, body: bytes('[]') }), ['body']);
  t.deepEqual(fields({ ...same, fault: { kind: 'latency', latencyMs: 0 } }), ['fault']);
  t.deepEqual(fields({ ...same, fault: undefined, cut: false }, { ...recorded, fault: { kind: 'reset', latencyMs: 0 } } as JournalEntry), ['fault']);
  t.deepEqual(fields({ ...same, fault: undefined, cut: true, body: bytes('{') }, { ...recorded, fault: { kind: 'reset', latencyMs: 0 } } as JournalEntry), undefined);
});
