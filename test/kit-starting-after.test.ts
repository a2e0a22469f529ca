import test from 'ava';
import { ServiceError } from '../mocks/kit/errors.js';
import { startingAfterPage } from '../mocks/kit/pagination/starting-after.js';

const items = Array.from({ length: 25 }, (_, i) => ({ id: `obj_${25 - i}` })); // newest first
const opts = { url: '/v1/things', id: (item: { id: string }) => item.id };
const ids = (page: { data: { id: string }[] }) => page.data.map((d) => d.id);

test('the first page: default limit 10, has_more, the list object\'s shape', (t) => {
  const page = startingAfterPage(items, {}, opts);
  t.deepEqual(Object.keys(page), ['object', 'data', 'has_more', 'url']);
  t.like(page, { object: 'list', has_more: true, url: '/v1/things' });
  t.deepEqual(ids(page), items.slice(0, 10).map((i) => i.id));
});

test('starting_after walks forward to the end; ending_before walks back; every item seen once', (t) => {
  const seen: string[] = [];
  let page = startingAfterPage(items, { limit: 7 }, opts);
  seen.push(...ids(page));
  while (page.has_more) {
    page = startingAfterPage(items, { limit: 7, starting_after: seen.at(-1)! }, opts);
    seen.push(...ids(page));
  }
  t.deepEqual(seen, items.map((i) => i.id));
  t.is(page.data.length, 4);
  const back = startingAfterPage(items, { limit: 7, ending_before: page.data[0]!.id }, opts);
  t.deepEqual(ids(back), items.slice(14, 21).map((i) => i.id), 'the 7 just before, in list order');
  t.true(back.has_more);
  const first = startingAfterPage(items, { limit: 7, ending_before: items[3]!.id }, opts);
  t.deepEqual(ids(first), items.slice(0, 3).map((i) => i.id));
  t.false(first.has_more, 'nothing precedes the first page');
});

test('the last item\'s starting_after is an empty page; an empty list has no more', (t) => {
  t.like(startingAfterPage(items, { starting_after: 'obj_1' }, opts), { data: [], has_more: false });
  t.like(startingAfterPage([], {}, opts), { data: [], has_more: false });
  t.like(startingAfterPage(items, { limit: 25 }, opts), { has_more: false });
  t.like(startingAfterPage(items, { limit: 24 }, opts), { has_more: true });
});

test('bad limits, both cursors, unknown cursors are errors with the parameter named', (t) => {
  for (const limit of [0, 101, 1.5, -3]) {
    const error = t.throws(() => startingAfterPage(items, { limit }, opts), { instanceOf: ServiceError });
    t.like(error, { status: 400, details: { param: 'limit' } });
  }
  t.like(t.throws(() => startingAfterPage(items, { starting_after: 'obj_3', ending_before: 'obj_9' }, opts)), { status: 400, code: 'parameters_exclusive' });
  t.like(t.throws(() => startingAfterPage(items, { starting_after: 'obj_99' }, opts)), { status: 400, code: 'resource_missing', details: { param: 'starting_after' } });
  const custom = t.throws(() => startingAfterPage(items, { ending_before: 'x' }, { ...opts, unknownCursor: (id, param) => new ServiceError(404, 'gone', `${param}=${id}`) }));
  t.like(custom, { status: 404, message: 'ending_before=x' });
  t.is(startingAfterPage(items, { limit: 50 }, { ...opts, maxLimit: 50 }).data.length, 25);
});
