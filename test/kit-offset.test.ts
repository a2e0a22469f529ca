import test from 'ava';
import { offsetPage, type OffsetPage } from '../mocks/kit/pagination/offset.js';

const items = Array.from({ length: 45 }, (_, i) => i);

test('pages by offset and limit; the total and the next offset', (t) => {
  t.deepEqual(offsetPage(items, {}), { items: items.slice(0, 20), offset: 0, limit: 20, total: 45, has_more: true, next_offset: 20 });
  const last = offsetPage(items, { offset: 40, limit: 20 });
  t.deepEqual(last.items, [40, 41, 42, 43, 44]);
  t.like(last, { has_more: false, next_offset: null });
  t.like(offsetPage(items, { offset: 45 }), { items: [], has_more: false, next_offset: null });
  t.like(offsetPage(items, { offset: 25, limit: 20 }), { next_offset: null, has_more: false }, 'exactly at the end');
  t.like(offsetPage(items, { offset: 24, limit: 20 }), { next_offset: 44, has_more: true });
});

test('walking next_offset visits every item once', (t) => {
  const seen: number[] = [];
  let next: number | null = 0;
  while (next !== null) {
    const page: OffsetPage<number> = offsetPage(items, { offset: next, limit: 7 });
    seen.push(...page.items);
    next = page.next_offset;
  }
  t.deepEqual(seen, items);
});

test('bad offsets and limits are 400s naming the parameter; clamp caps the limit instead', (t) => {
  t.like(t.throws(() => offsetPage(items, { offset: -1 })), { status: 400, details: { param: 'offset' } });
  t.like(t.throws(() => offsetPage(items, { limit: 0 })), { status: 400, details: { param: 'limit' } });
  t.like(t.throws(() => offsetPage(items, { limit: 101 })), { status: 400, details: { param: 'limit' } });
  t.like(t.throws(() => offsetPage(items, { offset: 1.5 })), { status: 400 });
  t.like(offsetPage(items, { limit: 500 }, { maxLimit: 30, clamp: true }), { limit: 30 });
  t.is(offsetPage(items, {}, { defaultLimit: 5 }).items.length, 5);
});
