import test from 'ava';
import { githubService } from '../mocks/github/index.js';
import { invalidEntries } from './helpers/github-openapi.js';
import { customWorld, exampleData, exampleWorld, sender } from './helpers/github-requests.js';

/** Malformed bodies, unknown routes, unsupported methods, missing fields and fuzzing: never a crash. */
const WRITES: [string, string][] = [
  ['POST', '/repos/acme/widgets/issues'],
  ['PATCH', '/repos/acme/widgets/issues/1'],
  ['POST', '/repos/acme/widgets/issues/1/comments'],
  ['POST', '/repos/acme/widgets/git/refs'],
  ['PATCH', '/repos/acme/widgets/git/refs/heads/main'],
  ['POST', '/repos/acme/widgets/git/trees'],
  ['POST', '/repos/acme/widgets/git/commits'],
  ['PUT', '/repos/acme/widgets/contents/README.md'],
  ['POST', '/repos/acme/widgets/pulls'],
  ['PUT', '/repos/acme/widgets/pulls/39/merge'],
  ['POST', '/repos/acme/widgets/pulls/39/reviews'],
  ['POST', '/user/repos'],
  ['POST', '/repos/acme/widgets/forks'],
];

test('malformed JSON is 400 "Problems parsing JSON"; a non-object body is 400 too', async (t) => {
  const send = sender(await exampleWorld());
  for (const [method, target] of WRITES) {
    const r = send(method, target, undefined, { raw: '{"title": "unterminated' });
    t.is(r.status, 400, `${method} ${target}`);
    t.is(r.json.message, 'Problems parsing JSON');
    t.regex(r.json.documentation_url, /^https:\/\/docs\.github\.com\/rest\//);
    t.is(send(method, target, undefined, { raw: '"a string"' }).json.message, 'Body should be a JSON object', `${method} ${target}`);
  }
  t.deepEqual(invalidEntries(send.entries), []);
});

test('unknown routes and unsupported methods are GitHub\'s 404 (it never answers 405)', async (t) => {
  const send = sender(await exampleWorld());
  for (const [method, target] of [
    ['GET', '/nope'], ['GET', '/repos/acme'], ['GET', '/repos/acme/widgets/nope'], ['GET', '/repos/acme/widgets/issues/1/nope'],
    ['DELETE', '/repos/acme/widgets/issues'], ['PUT', '/users/alice'], ['PATCH', '/'], ['POST', '/repos/acme/widgets/pulls/39/files'],
    ['GET', '/repos/acme/widgets/issues/abc'], ['GET', '/repos/acme/widgets/pulls/-1'], ['GET', '/repos/%zz/widgets'],
  ] as const) {
    const r = send(method, target);
    t.is(r.status, 404, `${method} ${target}`);
    t.is(r.json.message, 'Not Found');
  }
  t.deepEqual(send('PUT', '/users/alice').json, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' });
  t.deepEqual(invalidEntries(send.entries), []);
});

test('missing required fields are 422 with GitHub\'s messages', async (t) => {
  const send = sender(await exampleWorld());
  const cases: [string, string, unknown, string][] = [
    ['POST', '/repos/acme/widgets/issues', {}, 'Validation Failed'],
    ['POST', '/repos/acme/widgets/issues/1/comments', {}, 'Invalid request.\n\n"body" wasn\'t supplied.'],
    ['POST', '/repos/acme/widgets/git/refs', { sha: 'a'.repeat(40) }, 'Invalid request.\n\n"ref" wasn\'t supplied.'],
    ['PATCH', '/repos/acme/widgets/git/refs/heads/main', {}, 'Invalid request.\n\n"sha" wasn\'t supplied.'],
    ['POST', '/repos/acme/widgets/git/trees', {}, 'Invalid request.\n\n"tree" wasn\'t supplied.'],
    ['POST', '/repos/acme/widgets/git/commits', { tree: 'a'.repeat(40) }, 'Invalid request.\n\n"message" wasn\'t supplied.'],
    ['PUT', '/repos/acme/widgets/contents/new.md', { message: 'x' }, 'Invalid request.\n\n"content" wasn\'t supplied.'],
    ['POST', '/repos/acme/widgets/pulls', { head: 'fix/format-negative', base: 'main' }, 'Validation Failed'],
    ['POST', '/user/repos', { private: true }, 'Repository creation failed.'],
    ['POST', '/repos/acme/widgets/labels', { color: 'ffffff' }, 'Validation Failed'],
    ['POST', '/repos/acme/widgets/issues', { title: 'x', labels: 'bug' }, 'Invalid request.\n\nFor \'properties/labels\', "bug" is not an array.'],
    ['PATCH', '/repos/acme/widgets/issues/1', { state: 'done' }, 'Invalid request.\n\nFor \'properties/state\', "done" is not a member of enum ["open","closed"].'],
  ];
  for (const [method, target, body, message] of cases) {
    const r = send(method, target, body);
    t.is(r.status, 422, `${method} ${target}`);
    t.is(r.json.message, message, `${method} ${target}`);
  }
  t.deepEqual(invalidEntries(send.entries), []);
});

test('fuzz: every route with odd parameters and bodies answers below 500 and matches its schema', async (t) => {
  const errors: unknown[] = [];
  const world = customWorld(exampleData(), { onHandlerError: (error) => errors.push(error) });
  const send = sender(world);
  let state = 12345;
  const random = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const values = [null, 0, -1, 1.5, 'x', '', 'main', '../etc', 'a'.repeat(40), [], [1], ['bug'], [{}], {}, { name: 1 }, true, 'refs/heads/x', 'SGVsbG8='];
  const fields = ['title', 'body', 'labels', 'assignees', 'assignee', 'milestone', 'state', 'state_reason', 'head', 'base', 'sha', 'ref',
    'content', 'message', 'tree', 'parents', 'base_tree', 'comments', 'event', 'merge_method', 'name', 'color', 'branch', 'force',
    'organization', 'draft', 'commit_id', 'author', 'committer', 'expected_head_sha', 'private', 'auto_init', 'encoding'];
  const params: Record<string, string[]> = {
    owner: ['acme', 'alice', 'nobody', 'ACME'], repo: ['widgets', 'infra', 'dotfiles', 'none'],
    issue_number: ['1', '39', '999', 'x'], pull_number: ['39', '40', '1', '0'], comment_id: ['1900000001', '1', 'x'],
    username: ['alice', 'acme', 'zz'], org: ['acme', 'alice'], name: ['bug', 'nope'], tree_sha: ['main', 'x'],
    commit_sha: ['a'.repeat(40), 'main'], file_sha: ['a'.repeat(40)], sha: ['a'.repeat(40), 'x'],
    ref: ['heads/main', 'heads/nope', '', 'tags'], path: ['README.md', 'src', '', 'a/b/c'], branch: ['main', 'feature/color-support', 'x'],
    rest: ['main', 'main/status', 'x/statuses', 'a'.repeat(40)],
  };
  let requests = 0;
  for (const route of githubService.routes!) {
    for (let i = 0; i < 12; i++) {
      const path = route.pattern.replace(/[:*]([a-z_]+)/g, (_m, name: string) => pick(params[name] ?? ['x']));
      const query = pick(['', '?per_page=abc&page=-2', '?state=all&sort=comments&direction=asc', '?q=is:issue+label:bug', '?ref=nope', '?since=yesterday', '?q=']);
      const body: Record<string, unknown> = {};
      for (let k = Math.floor(random() * 4); k > 0; k--) body[pick(fields)] = pick(values);
      const r = send(route.method, path + query, route.method === 'GET' ? undefined : body, { token: pick([undefined, null, 'ghp_carolCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC']) });
      requests++;
      t.true(r.status < 500, `${route.method} ${path}${query} ${JSON.stringify(body)} → ${r.status}`);
    }
  }
  t.deepEqual(errors, [], 'no handler threw');
  t.true(requests > 500);
  t.deepEqual(invalidEntries(send.entries), []);
});

test('query parameters GitHub validates (zod inputs): 422 naming the first bad one, after the repository\'s 404 and the token\'s 401', async (t) => {
  const send = sender(await exampleWorld());
  const docs = 'https://docs.github.com/rest/issues/issues#list-repository-issues';
  t.deepEqual(send('GET', '/repos/acme/widgets/issues?sort=x&state=bogus').json, {
    message: 'Validation Failed', errors: [{ value: 'bogus', resource: 'Issue', field: 'state', code: 'invalid' }], documentation_url: docs, status: '422',
  }, 'state is read before sort');
  t.deepEqual(send('GET', '/repos/acme/widgets/issues?since=yesterday').json.errors, [{ value: 'yesterday', resource: 'Search', field: 'since', code: 'invalid' }]);
  t.is(send('GET', '/repos/acme/nope/issues?state=bogus').status, 404, 'the repository first');
  t.is(send('GET', '/repos/acme/widgets/issues?state=bogus', undefined, { token: 'ghp_unknown' }).status, 401, 'bad credentials first');
  t.is(send('GET', '/repos/acme/widgets/issues?state=closed&state=bogus').status, 200, 'a repeated parameter counts once, the first');
  t.is(send('GET', '/repos/acme/widgets/issues?state=').status, 200, 'an empty one is absent');
  t.deepEqual(send('GET', '/search/issues?order=up').json.errors, [{ resource: 'Search', field: 'q', code: 'missing' }], 'q before order');
  t.deepEqual(send('GET', '/search/issues?q=bug&order=up').json.errors, [{ value: 'up', resource: 'Search', field: 'order', code: 'invalid' }]);
  t.deepEqual(send('GET', '/orgs/acme/repos?type=all&direction=sideways').json.errors, [{ value: 'sideways', resource: 'Repository', field: 'direction', code: 'invalid' }]);
  t.deepEqual(invalidEntries(send.entries), []);
});

test('the /repositories/:id alias answers as its repository, named by its operation; an unknown ID is the generic 404', async (t) => {
  const world = await exampleWorld();
  const send = sender(world);
  const widgets = send('GET', '/repos/acme/widgets').json;
  const viaId = send('GET', `/repositories/${widgets.id}/issues?per_page=2&page=2`);
  const viaName = send('GET', '/repos/acme/widgets/issues?per_page=2&page=2');
  t.is(viaId.text, viaName.text);
  t.is(viaId.header('link'), viaName.header('link'));
  t.deepEqual(viaId.entry.operation, { name: 'issues.listForRepo', via: 'handler' });
  t.is(send('GET', `/repositories/${widgets.id}`).json.full_name, 'acme/widgets');
  const unknown = send('POST', '/repositories/999/issues', { title: 'x' }, { token: null });
  t.deepEqual(unknown.json, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' }, 'before the token is asked for');
  t.is(send('GET', `/repositories/${widgets.id}/nope`).status, 404);
});

test('body parameters GitHub validates (zod inputs): its JSON-schema messages, any Content-Type read as JSON, after the repository\'s 404', async (t) => {
  const send = sender(await exampleWorld());
  const refs = '/repos/acme/widgets/git/refs';
  t.is(send('POST', refs, { ref: 5, sha: 'main' }).json.message, 'Invalid request.\n\nFor \'properties/ref\', 5 is not a string.');
  t.is(send('POST', refs, { sha: 'main' }).json.message, 'Invalid request.\n\n"ref" wasn\'t supplied.');
  t.is(send('POST', refs, { ref: 'refs/heads/x', sha: null }).json.message, 'Invalid request.\n\n"sha" wasn\'t supplied.', 'null is not supplied');
  t.is(send('POST', refs, { ref: {}, sha: 5 }).json.message, 'Invalid request.\n\nFor \'properties/ref\', {} is not a string.', 'the first field in the order GitHub checks');
  t.is(send('PATCH', `${refs}/heads/main`, { sha: 'a'.repeat(40), force: 'yes' }).json.message, 'Invalid request.\n\nFor \'properties/force\', "yes" is not a boolean.');
  t.is(send('POST', '/repos/acme/widgets/git/blobs', { content: 'x', encoding: 'latin1' }).json.message,
    'Invalid request.\n\nFor \'properties/encoding\', "latin1" is not a member of enum ["utf-8","utf8","base64"].');
  t.deepEqual(send('POST', '/repos/acme/widgets/labels', { color: 'ff0000' }).json.errors, [{ resource: 'Label', code: 'missing_field', field: 'name' }],
    'an operation\'s own error for a missing field');
  for (const raw of ['null', '[]', '"s"', '5']) t.is(send('POST', refs, undefined, { raw }).json.message, 'Body should be a JSON object', raw);
  t.is(send('POST', '/repos/acme/nope/git/refs', undefined, { raw: '{"ref":5}' }).status, 404, 'the repository first');
  const plain = send('POST', refs, undefined, { raw: JSON.stringify({ ref: 'refs/heads/plain', sha: 'a'.repeat(40) }), headers: [['Content-Type', 'text/plain']] });
  t.is(plain.json.message, 'Object does not exist', 'a JSON body sent as text/plain is read as JSON, as GitHub does');
  t.is(send('POST', refs, undefined, { raw: 'ref=refs/heads/x', headers: [['Content-Type', 'application/x-www-form-urlencoded']] }).json.message,
    'Problems parsing JSON', 'a form is not JSON');
});
