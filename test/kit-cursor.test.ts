import test from 'ava';
import fc from 'fast-check';
import { cursorPage, decodeCursor, encodeCursor, InvalidCursorError } from '../mocks/kit/pagination/cursor.js';

const ids = Array.from({ length: 7 }, (_, i) => `C${String(i).padStart(8, '0')}`);
const options = { defaultLimit: 3, maxLimit: 5, kind: 'team', keyOf: (id: string) => id };

test('cursors look like Slack\'s: base64 of kind:key, decoded only for their own kind', (t) => {
  t.is(encodeCursor('team', 'C061FA5PB'), 'dGVhbTpDMDYxRkE1UEI=');
  t.is(decodeCursor('team', 'dGVhbTpDMDYxRkE1UEI='), 'C061FA5PB');
  t.is(decodeCursor('user', 'dGVhbTpDMDYxRkE1UEI='), null, 'a cursor of another list');
  t.is(decodeCursor('team', 'not base64!'), null);
  t.is(decodeCursor('team', 'dGVhbTpDMDYxRkE1UEI'), null, 'unpadded is not what we hand out');
});

test('pages: default and capped limits, next cursor until the last page', (t) => {
  const first = cursorPage(ids, options);
  t.deepEqual(first.items, ids.slice(0, 3));
  t.is(decodeCursor('team', first.next!), ids[3] ?? null);
  const second = cursorPage(ids, { ...options, cursor: first.next!, limit: 100 });
  t.deepEqual(second.items, ids.slice(3), 'a limit over the maximum is capped, here at 5 with 4 left');
  t.is(second.next, null);
  t.deepEqual(cursorPage(ids, { ...options, limit: 0 }).items.length, 3, 'limit 0 takes the default');
  t.deepEqual(cursorPage([], options), { items: [], next: null });
});

test('a cursor naming nothing in the list, or of another kind, is refused', (t) => {
  t.throws(() => cursorPage(ids, { ...options, cursor: encodeCursor('team', 'C99999999') }), { instanceOf: InvalidCursorError });
  t.throws(() => cursorPage(ids, { ...options, cursor: encodeCursor('user', ids[2]!) }), { instanceOf: InvalidCursorError });
  t.throws(() => cursorPage(ids, { ...options, cursor: '%%%' }), { instanceOf: InvalidCursorError });
});

test('following next cursors visits every item once, in order, for any list and limit', (t) => {
  t.notThrows(() => fc.assert(fc.property(fc.uniqueArray(fc.string({ minLength: 1, maxLength: 6 }), { maxLength: 40 }), fc.integer({ min: 1, max: 12 }), (keys, limit) => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let guard = 0; guard < 100; guard++) {
      const page = cursorPage(keys, { cursor, limit, defaultLimit: 5, maxLimit: 10, kind: 'k', keyOf: (k) => k });
      seen.push(...page.items);
      if (page.next === null) break;
      cursor = page.next;
    }
    return JSON.stringify(seen) === JSON.stringify(keys);
  })));
});
