import test from 'ava';
import { SeededIds } from '../mocks/core/ids.js';
import { DocumentStore } from '../mocks/core/store.js';
import { githubService } from '../mocks/github/index.js';
import { invalidEntries } from './helpers/github-openapi.js';
import { TOKENS, customWorld, exampleWorld, sender, type Send } from './helpers/github-requests.js';

/** Authentication, GitHub's headers, pagination, rate limits and conditional requests. */
function valid(t: { deepEqual: (a: unknown, b: unknown, m?: string) => void }, send: Send) {
  t.deepEqual(invalidEntries(send.entries), [], 'every response matches its OpenAPI schema');
}

test('tokens work as `token X`, `Bearer X` and Basic; an unknown token is 401 Bad credentials', async (t) => {
  const send = sender(await exampleWorld(), null);
  for (const authorization of [`token ${TOKENS.bob}`, `Bearer ${TOKENS.bob}`, `Basic ${Buffer.from(`bob:${TOKENS.bob}`).toString('base64')}`]) {
    const r = send('GET', '/user', undefined, { headers: [['Authorization', authorization]] });
    t.is(r.status, 200);
    t.is(r.json.login, 'bob');
    t.is(r.header('X-OAuth-Scopes'), 'repo, read:org, user');
  }
  const bad = send('GET', '/repos/acme/widgets', undefined, { token: 'ghp_nope' });
  t.is(bad.status, 401);
  t.is(bad.text, '{"message":"Bad credentials","documentation_url":"https://docs.github.com/rest","status":"401"}');
  t.is(bad.header('X-RateLimit-Limit'), '60', 'a failed login counts against the anonymous limit');
  valid(t, send);
});

test('anonymous reads of public repositories work; writes and /user need authentication', async (t) => {
  const send = sender(await exampleWorld(), null);
  t.is(send('GET', '/repos/acme/widgets').status, 200);
  t.is(send('GET', '/repos/acme/widgets/issues/1').json.title, 'Widget.render() ignores count of zero');
  const me = send('GET', '/user');
  t.is(me.status, 401);
  t.deepEqual(me.json, { message: 'Requires authentication', documentation_url: 'https://docs.github.com/rest/users/users#get-the-authenticated-user', status: '401' });
  const write = send('POST', '/repos/acme/widgets/issues', { title: 'x' });
  t.is(write.status, 401);
  t.is(write.json.message, 'Requires authentication');
  t.is(send('GET', '/repos/acme/widgets').json.permissions, undefined, 'no permissions for anonymous viewers');
  valid(t, send);
});

test('private repositories are 404 to anonymous users, outsiders and tokens without the repo scope', async (t) => {
  const world = await exampleWorld();
  const send = sender(world);
  t.is(send('GET', '/repos/acme/infra').status, 200);
  t.true(send('GET', '/repos/acme/infra').json.private);
  for (const token of [null, TOKENS.carol]) {
    const r = send('GET', '/repos/acme/infra', undefined, { token });
    t.is(r.status, 404);
    t.deepEqual(r.json, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest/repos/repos#get-a-repository', status: '404' });
    t.is(send('GET', '/repos/acme/infra/contents/README.md', undefined, { token }).status, 404);
  }
  t.false(send('GET', '/user/repos', undefined, { token: TOKENS.carol }).json.some((r: { private: boolean }) => r.private));
  t.deepEqual(send('GET', '/repos/acme/widgets').json.permissions, { admin: true, maintain: true, push: true, triage: true, pull: true });
  t.deepEqual(send('GET', '/repos/acme/widgets', undefined, { token: TOKENS.carol }).json.permissions,
    { admin: false, maintain: false, push: false, triage: false, pull: true });
  valid(t, send);
});

test('responses carry GitHub headers in a fixed order, with ids from the seed', async (t) => {
  const send = sender(await exampleWorld());
  const r = send('GET', '/repos/acme/widgets');
  t.deepEqual(r.headers.map(([name]) => name), [
    'Date', 'Content-Type', 'Cache-Control', 'Vary', 'ETag', 'X-OAuth-Scopes', 'X-GitHub-Media-Type',
    'X-GitHub-Api-Version-Selected', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'X-RateLimit-Used',
    'X-RateLimit-Resource', 'Access-Control-Expose-Headers', 'Access-Control-Allow-Origin', 'X-GitHub-Request-Id',
    'X-Toolbench-Seq', 'Content-Length',
  ]);
  t.is(r.header('Content-Type'), 'application/json; charset=utf-8');
  t.is(r.header('X-GitHub-Media-Type'), 'github.v3; format=json');
  t.regex(r.header('X-GitHub-Request-Id')!, /^[0-9A-F]{4}:[0-9A-F]{4}:[0-9A-F]{7}:[0-9A-F]{7}:[0-9A-F]{8}$/);
  t.regex(r.header('ETag')!, /^W\/"[0-9a-f]{64}"$/);
  t.is(r.header('Date'), 'Mon, 03 Mar 2025 09:00:01 GMT');
  const created = send('POST', '/repos/acme/widgets/issues', { title: 'Headers' });
  t.is(created.status, 201);
  t.is(created.header('Location'), 'https://api.github.com/repos/acme/widgets/issues/42');
  t.is(created.header('ETag'), undefined);
  valid(t, send);
});

test('pagination: per_page (default 30, at most 100), page, and Link in GitHub\'s format', async (t) => {
  const send = sender(await exampleWorld());
  const first = send('GET', '/repos/acme/widgets/issues');
  t.is(first.json.length, 30);
  t.is(first.header('Link'), '<https://api.github.com/repositories/700000101/issues?page=2>; rel="next", '
    + '<https://api.github.com/repositories/700000101/issues?page=2>; rel="last"');
  const second = send('GET', '/repositories/700000101/issues?page=2');
  t.is(second.json.length, 5, '32 open issues and 3 open pull requests');
  t.is(second.header('Link'), '<https://api.github.com/repositories/700000101/issues?page=1>; rel="prev", '
    + '<https://api.github.com/repositories/700000101/issues?page=1>; rel="first"');
  const middle = send('GET', '/repos/acme/widgets/issues?state=all&per_page=10&page=2');
  t.is(middle.header('Link'), [
    '<https://api.github.com/repositories/700000101/issues?state=all&per_page=10&page=1>; rel="prev"',
    '<https://api.github.com/repositories/700000101/issues?state=all&per_page=10&page=3>; rel="next"',
    '<https://api.github.com/repositories/700000101/issues?state=all&per_page=10&page=5>; rel="last"',
    '<https://api.github.com/repositories/700000101/issues?state=all&per_page=10&page=1>; rel="first"',
  ].join(', '));
  t.is(send('GET', '/repos/acme/widgets/issues?state=all&per_page=500').json.length, 41, 'per_page is capped at 100');
  t.is(send('GET', '/repos/acme/widgets/issues?per_page=0').json.length, 30, 'nonsense falls back to 30');
  t.deepEqual(send('GET', '/repos/acme/widgets/issues?page=9').json, []);
  const numbers = [...first.json, ...second.json].map((i: { number: number }) => i.number);
  t.is(new Set(numbers).size, 35, 'pages do not overlap');
  const plain = send('GET', '/repos/acme/widgets/issues', undefined, { headers: [['Host', '127.0.0.1:9999']] });
  t.true(plain.header('Link')!.startsWith('<http://127.0.0.1:9999/repositories/700000101/issues?page=2>'), 'links follow the plain port');
  valid(t, send);
});

test('rate limits count per user in logical time, and answer 403 when used up', async (t) => {
  const world = customWorld({
    users: [{ login: 'dana', tokens: ['ghp_dana'] }],
    repos: [{ owner: 'dana', name: 'r', commits: [{ branch: 'main', message: 'init', files: { 'a.txt': 'a' } }] }],
    rate_limits: { core: 3, search: 2, anonymous_core: 2 },
  }, { tickMs: 1000 });
  const send = sender(world, 'ghp_dana');
  const remaining = [1, 2, 3].map(() => send('GET', '/repos/dana/r').header('X-RateLimit-Remaining'));
  t.deepEqual(remaining, ['2', '1', '0']);
  const limited = send('GET', '/repos/dana/r');
  t.is(limited.status, 403);
  t.is(limited.json.message, 'API rate limit exceeded for user ID 1000001.');
  t.is(limited.header('X-RateLimit-Remaining'), '0');
  t.is(send('GET', '/rate_limit').json.resources.core.remaining, 0, '/rate_limit does not count');
  t.is(send('GET', '/search/repositories?q=r').header('X-RateLimit-Resource'), 'search', 'search has its own window');
  t.is(send('GET', '/repos/dana/r', undefined, { token: null }).header('X-RateLimit-Limit'), '2', 'anonymous requests share their own limit');
  const reset = Number(limited.header('X-RateLimit-Reset'));
  t.is(reset, Date.parse('2025-03-03T09:00:01Z') / 1000 + 3600);
  valid(t, send);
});

test('a core window resets after an hour of logical time', async (t) => {
  const world = customWorld({ users: [{ login: 'dana', tokens: ['ghp_dana'] }], rate_limits: { core: 2 } }, { tickMs: 30 * 60 * 1000 });
  const send = sender(world, 'ghp_dana');
  t.is(send('GET', '/user').header('X-RateLimit-Remaining'), '1');
  t.is(send('GET', '/user').header('X-RateLimit-Remaining'), '0');
  t.is(send('GET', '/user').header('X-RateLimit-Remaining'), '1', 'the third request, an hour after the first, opens a new window');
});

test('If-None-Match with the ETag answers 304 without counting', async (t) => {
  const send = sender(await exampleWorld());
  const first = send('GET', '/repos/acme/widgets/issues/1');
  const again = send('GET', '/repos/acme/widgets/issues/1', undefined, { headers: [['If-None-Match', first.header('ETag')!]] });
  t.is(again.status, 304);
  t.is(again.text, '');
  t.is(again.header('X-RateLimit-Used'), first.header('X-RateLimit-Used'));
  t.is(send('GET', '/repos/acme/widgets/issues/1', undefined, { headers: [['If-None-Match', 'W/"other"']] }).status, 200);
});

test('OPTIONS answers a CORS preflight; HEAD has headers and no body', async (t) => {
  const send = sender(await exampleWorld());
  const pre = send('OPTIONS', '/repos/acme/widgets/issues');
  t.is(pre.status, 204);
  t.is(pre.header('Access-Control-Allow-Origin'), '*');
  const head = send('HEAD', '/repos/acme/widgets');
  t.is(head.status, 200);
  t.is(head.text, '');
  t.not(head.header('Content-Length'), '0');
});

test('reject: 413 for an oversized body and 500 when a handler fails, in GitHub\'s shape', async (t) => {
  const world = await exampleWorld();
  const big = world.process({ host: 'api.github.com', method: 'POST', target: '/repos/acme/widgets/issues', headers: [], body: new Uint8Array(0), oversize: true });
  t.is(big.response.status, 413);
  t.deepEqual(JSON.parse(new TextDecoder().decode(big.response.body)), { message: 'Payload too large', documentation_url: 'https://docs.github.com/rest', status: '413' });
  const ctx = { service: 'github', store: new DocumentStore(), ids: new SeededIds(1, 'github'), epochMs: 0, seq: 1, nowMs: 0 };
  const failed = githubService.reject('internal_error', ctx);
  t.is(failed.status, 500);
  t.is(JSON.parse(new TextDecoder().decode(failed.body)).message, 'Server Error');
});

test('the root lists GitHub\'s URL templates', async (t) => {
  const send = sender(await exampleWorld(), null);
  const root = send('GET', '/');
  t.is(root.json.repository_url, 'https://api.github.com/repos/{owner}/{repo}');
  valid(t, send);
});
