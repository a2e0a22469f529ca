import test from 'ava';
import fc from 'fast-check';
import { connection, ConnectionArgumentError, decodeCursor, encodeCursor } from '../mocks/kit/pagination/connection.js';

const items = Array.from({ length: 7 }, (_, i) => ({ id: `n${i + 1}` }));
const key = (item: { id: string }) => item.id;
const ids = (page: { nodes: { id: string }[] }) => page.nodes.map((n) => n.id);

test('first/after pages forward; every item once; pageInfo says where it stands', (t) => {
  const one = connection(items, { first: 3 }, key);
  t.deepEqual(ids(one), ['n1', 'n2', 'n3']);
  t.deepEqual(one.pageInfo, { hasNextPage: true, hasPreviousPage: false, startCursor: encodeCursor('n1'), endCursor: encodeCursor('n3') });
  t.deepEqual(one.edges.map((e) => e.node.id), ids(one));
  const two = connection(items, { first: 3, after: one.pageInfo.endCursor }, key);
  t.deepEqual(ids(two), ['n4', 'n5', 'n6']);
  t.true(two.pageInfo.hasPreviousPage);
  const three = connection(items, { first: 3, after: two.pageInfo.endCursor }, key);
  t.deepEqual(ids(three), ['n7']);
  t.false(three.pageInfo.hasNextPage);
});

test('last/before pages backward', (t) => {
  const last = connection(items, { last: 2 }, key);
  t.deepEqual(ids(last), ['n6', 'n7']);
  t.true(last.pageInfo.hasPreviousPage);
  t.false(last.pageInfo.hasNextPage);
  const before = connection(items, { last: 2, before: last.pageInfo.startCursor }, key);
  t.deepEqual(ids(before), ['n4', 'n5']);
  t.true(before.pageInfo.hasNextPage, 'items after the before-cursor exist');
  t.deepEqual(ids(connection(items, { after: encodeCursor('n2'), before: encodeCursor('n5') }, key)), ['n3', 'n4']);
});

test('defaults, limits and bad cursors', (t) => {
  t.is(connection(items, {}, key, { defaultFirst: 5 }).nodes.length, 5);
  t.is(connection([], {}, key).pageInfo.endCursor, null);
  t.throws(() => connection(items, { first: 300 }, key), { instanceOf: ConnectionArgumentError, message: 'first must be at most 250' });
  t.throws(() => connection(items, { first: -1 }, key), { instanceOf: ConnectionArgumentError });
  t.throws(() => connection(items, { after: 'not a cursor!' }, key), { instanceOf: ConnectionArgumentError });
  t.throws(() => connection(items, { after: encodeCursor('gone') }, key), { message: /Cursor not found/ });
  t.throws(() => decodeCursor(''), { instanceOf: ConnectionArgumentError });
});

test('paging forward with any page size visits every item exactly once, in order', (t) => {
  t.notThrows(() => fc.assert(fc.property(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 1, max: 9 }), (count, size) => {
    const list = Array.from({ length: count }, (_, i) => ({ id: `k${i}` }));
    const seen: string[] = [];
    let after: string | null = null;
    for (let guard = 0; guard < 100; guard++) {
      const page: ReturnType<typeof connection<{ id: string }>> = connection(list, { first: size, after }, key);
      seen.push(...ids(page));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    return JSON.stringify(seen) === JSON.stringify(list.map((i) => i.id));
  })));
});
