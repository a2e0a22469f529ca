import test from 'ava';
import { pageLinks, pageParams } from '../mocks/kit/pagination/page-link.js';

const q = (text: string) => new URLSearchParams(text);
const items = Array.from({ length: 95 }, (_, i) => i + 1);
const target = (query: string, path = '/repos/acme/widgets/issues') => ({ origin: 'https://api.example.com', path, query: q(query) });

test('page and per_page: defaults, clamping, and nonsense falling back', (t) => {
  t.deepEqual(pageParams(q('')), { page: 1, perPage: 30 });
  t.deepEqual(pageParams(q('page=3&per_page=50')), { page: 3, perPage: 50 });
  t.deepEqual(pageParams(q('per_page=1000')), { page: 1, perPage: 100 }, 'clamped to the maximum');
  t.deepEqual(pageParams(q('page=-2&per_page=abc')), { page: 1, perPage: 30 });
  t.deepEqual(pageParams(q('page=0&per_page=0')), { page: 1, perPage: 30 });
  t.deepEqual(pageParams(q('p=2&limit=10'), { pageParam: 'p', perPageParam: 'limit', defaultPerPage: 20, maxPerPage: 50 }), { page: 2, perPage: 10 });
  t.deepEqual(pageParams(q('limit=80'), { perPageParam: 'limit', maxPerPage: 50 }), { page: 1, perPage: 50 });
});

test('Link: prev, next, last, first in that order, the query kept in order with page replaced', (t) => {
  const first = pageLinks(items, target('state=all&per_page=20'));
  t.deepEqual(first.items, items.slice(0, 20));
  t.is(first.last, 5);
  t.deepEqual(first.headers, [['Link',
    '<https://api.example.com/repos/acme/widgets/issues?state=all&per_page=20&page=2>; rel="next", '
    + '<https://api.example.com/repos/acme/widgets/issues?state=all&per_page=20&page=5>; rel="last"']]);
  const middle = pageLinks(items, target('page=3&state=all&per_page=20'));
  t.deepEqual(middle.items, items.slice(40, 60));
  t.deepEqual(middle.headers[0]![1].split(', ').map((link) => /rel="(\w+)"/.exec(link)![1]), ['prev', 'next', 'last', 'first']);
  t.true(middle.headers[0]![1].startsWith('<https://api.example.com/repos/acme/widgets/issues?page=2&state=all&per_page=20>; rel="prev"'), 'page stays where it was');
  const last = pageLinks(items, target('per_page=20&page=5'));
  t.deepEqual(last.items, items.slice(80));
  t.deepEqual(last.headers[0]![1].split(', ').map((link) => /page=(\d+)>; rel="(\w+)"/.exec(link)!.slice(1).join(' ')), ['4 prev', '1 first']);
});

test('one page has no Link; past the end is empty and points back; a cap hides the rest; links may name an alias path', (t) => {
  t.deepEqual(pageLinks([1, 2, 3], target('')), { items: [1, 2, 3], headers: [], page: 1, last: 1 });
  t.deepEqual(pageLinks([], target('')).headers, [], 'an empty list is one empty page');
  const beyond = pageLinks(items, target('per_page=50&page=9'));
  t.deepEqual(beyond.items, []);
  t.deepEqual(beyond.headers[0]![1].split(', ').map((link) => /page=(\d+)>; rel="(\w+)"/.exec(link)!.slice(1).join(' ')), ['2 prev', '1 first']);
  const capped = pageLinks(items, target('per_page=30&page=2'), { cap: 40 });
  t.deepEqual(capped.items, items.slice(30, 40));
  t.is(capped.last, 2);
  const alias = pageLinks(items, target('', '/repositories/7/issues'));
  t.true(alias.headers[0]![1].startsWith('<https://api.example.com/repositories/7/issues?page=2>; rel="next"'));
  const custom = pageLinks(items, target('p=2&limit=40'), { pageParam: 'p', perPageParam: 'limit' });
  t.deepEqual(custom.items, items.slice(40, 80));
  t.regex(custom.headers[0]![1], /\?p=1&limit=40>; rel="prev"/);
});
