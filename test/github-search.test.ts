import test from 'ava';
import { invalidEntries } from './helpers/github-openapi.js';
import { TOKENS, exampleWorld, sender } from './helpers/github-requests.js';

/** Search: repositories, code, issues and users, with qualifiers, visibility and pagination. */
const names = (items: { full_name?: string; login?: string; number?: number; path?: string }[]) =>
  items.map((i) => i.full_name ?? i.login ?? i.number ?? i.path);

test('repositories: terms in name, description and topics; qualifiers; private ones only for members', async (t) => {
  const send = sender(await exampleWorld());
  t.deepEqual(names(send('GET', '/search/repositories?q=widgets').json.items), ['acme/widgets'], 'forks are left out by default');
  t.deepEqual(names(send('GET', '/search/repositories?q=widgets+fork:true').json.items), ['acme/widgets', 'carol/widgets']);
  t.deepEqual(names(send('GET', '/search/repositories?q=infrastructure').json.items), ['acme/infra']);
  t.deepEqual(names(send('GET', '/search/repositories?q=infrastructure', undefined, { token: TOKENS.carol }).json.items), []);
  t.deepEqual(names(send('GET', '/search/repositories?q=user:alice').json.items), ['alice/dotfiles']);
  t.deepEqual(names(send('GET', '/search/repositories?q=topic:ui+language:typescript').json.items), ['acme/widgets']);
  const all = send('GET', '/search/repositories?q=org:acme&sort=stars&order=desc');
  t.is(all.json.total_count, 2);
  t.is(all.json.incomplete_results, false);
  t.is(all.json.items[0].score > 0, true);
  t.deepEqual(invalidEntries(send.entries), []);
});

test('code: needs authentication; searches default branches by content, path, extension', async (t) => {
  const send = sender(await exampleWorld());
  const anonymous = send('GET', '/search/code?q=formatNumber', undefined, { token: null });
  t.is(anonymous.status, 401);
  t.is(anonymous.json.errors[0].message, 'Must be authenticated to access the code search API');
  const hits = send('GET', '/search/code?q=formatNumber+repo:acme/widgets').json;
  t.deepEqual(names(hits.items), ['src/index.ts', 'src/util/format.ts', 'src/widget.ts']);
  t.is(hits.items[0].repository.full_name, 'acme/widgets');
  t.regex(hits.items[0].html_url, /^https:\/\/github\.com\/acme\/widgets\/blob\/[0-9a-f]{40}\/src\/index\.ts$/);
  t.deepEqual(names(send('GET', '/search/code?q=paint').json.items), [], 'feature branches are not indexed');
  t.deepEqual(names(send('GET', '/search/code?q=cidr+extension:tf').json.items), ['main.tf', 'modules/network/main.tf']);
  t.deepEqual(names(send('GET', '/search/code?q=cidr', undefined, { token: TOKENS.carol }).json.items), [], 'private code is hidden');
  t.deepEqual(names(send('GET', '/search/code?q=set+filename:.vimrc').json.items), ['.vimrc']);
  t.deepEqual(invalidEntries(send.entries), []);
});

test('issues: is, label (quoted), author, assignee, no:, state, in:title; pull requests too', async (t) => {
  const send = sender(await exampleWorld());
  const bugs = send('GET', '/search/issues?q=repo:acme/widgets+is:issue+is:open+label:bug&per_page=100').json;
  t.true(bugs.items.every((i: { labels: { name: string }[] }) => i.labels.some((l) => l.name === 'bug')));
  t.is(bugs.search_type, 'lexical');
  t.deepEqual(names(send('GET', '/search/issues?q=repo:acme/widgets+label:"good first issue"+is:open&sort=created&order=asc').json.items), [3, 14, 18, 28, 30]);
  t.deepEqual(names(send('GET', '/search/issues?q=repo:acme/widgets+is:pr+author:bob&sort=created&order=asc').json.items), [39, 40]);
  const unplanned = send('GET', '/search/issues?q=org:acme+assignee:bob+no:milestone').json.items;
  t.deepEqual(unplanned.map((i: { repository_url: string; number: number }) => `${i.repository_url.split('/').slice(-2).join('/')}#${i.number}`), ['acme/infra#1']);
  t.deepEqual(names(send('GET', '/search/issues?q=flicker+in:title').json.items), [9]);
  t.deepEqual(names(send('GET', '/search/issues?q=office+repo:acme/infra').json.items), [2], 'body and comments are searched');
  t.deepEqual(names(send('GET', '/search/issues?q=office', undefined, { token: TOKENS.carol }).json.items), []);
  t.is(send('GET', '/search/issues?q=repo:acme/widgets+is:closed').json.total_count, 6);
  const paged = send('GET', '/search/issues?q=repo:acme/widgets&per_page=10&page=2');
  t.is(paged.json.items.length, 10);
  t.is(paged.header('Link'), [
    '<https://api.github.com/search/issues?q=repo%3Aacme%2Fwidgets&per_page=10&page=1>; rel="prev"',
    '<https://api.github.com/search/issues?q=repo%3Aacme%2Fwidgets&per_page=10&page=3>; rel="next"',
    '<https://api.github.com/search/issues?q=repo%3Aacme%2Fwidgets&per_page=10&page=5>; rel="last"',
    '<https://api.github.com/search/issues?q=repo%3Aacme%2Fwidgets&per_page=10&page=1>; rel="first"',
  ].join(', '));
  t.deepEqual(invalidEntries(send.entries), []);
});

test('users: logins, names, type and followers qualifiers', async (t) => {
  const send = sender(await exampleWorld(), null);
  t.deepEqual(names(send('GET', '/search/users?q=alice').json.items), ['alice']);
  t.deepEqual(names(send('GET', '/search/users?q=type:org').json.items), ['acme']);
  t.deepEqual(names(send('GET', '/search/users?q=followers:>10+type:user&sort=followers').json.items), ['alice', 'bob']);
  t.deepEqual(names(send('GET', '/search/users?q=díaz').json.items), ['carol']);
  const missing = send('GET', '/search/users');
  t.is(missing.status, 422);
  t.deepEqual(missing.json.errors, [{ resource: 'Search', field: 'q', code: 'missing' }]);
  t.deepEqual(invalidEntries(send.entries), []);
});
