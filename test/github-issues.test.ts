import test from 'ava';
import { invalidEntries } from './helpers/github-openapi.js';
import { TOKENS, exampleWorld, sender } from './helpers/github-requests.js';

/** Issues, comments and labels: filters, sorting, permissions and GitHub's validation errors. */
const numbers = (list: { number: number }[]) => list.map((i) => i.number);

test('list filters: state, labels (all must match), assignee, creator, milestone, since', async (t) => {
  const send = sender(await exampleWorld());
  const open = send('GET', '/repos/acme/widgets/issues?per_page=100').json;
  t.is(open.length, 35);
  t.true(open.every((i: { state: string }) => i.state === 'open'));
  t.is(open.filter((i: { pull_request?: unknown }) => i.pull_request).length, 3, 'pull requests are issues too');
  t.is(send('GET', '/repos/acme/widgets/issues?state=closed').json.length, 6);
  const bugs = send('GET', '/repos/acme/widgets/issues?labels=bug,help%20wanted&state=all').json;
  t.deepEqual(numbers(bugs), [12]);
  t.deepEqual(numbers(send('GET', '/repos/acme/widgets/issues?labels=BUG&assignee=bob').json), [29, 12, 4, 1]);
  t.true(send('GET', '/repos/acme/widgets/issues?assignee=none').json.every((i: { assignees: unknown[] }) => i.assignees.length === 0));
  t.true(send('GET', '/repos/acme/widgets/issues?creator=carol&per_page=100').json.every((i: { user: { login: string } }) => i.user.login === 'carol'));
  t.deepEqual(numbers(send('GET', '/repos/acme/widgets/issues?milestone=1&state=all').json), [29, 16, 12, 7, 4, 3, 1]);
  t.is(send('GET', '/repos/acme/widgets/issues?milestone=none&per_page=100').json.length, 28);
  t.deepEqual(numbers(send('GET', '/repos/acme/widgets/issues?since=2025-03-03T05:00:00Z').json), [41], 'updated since');
  t.deepEqual(invalidEntries(send.entries), []);
});

test('list sorting: created (default, desc), updated, comments; asc and desc', async (t) => {
  const send = sender(await exampleWorld());
  const first = numbers(send('GET', '/repos/acme/widgets/issues?per_page=3').json);
  t.deepEqual(first, [41, 40, 39]);
  t.deepEqual(numbers(send('GET', '/repos/acme/widgets/issues?per_page=3&direction=asc').json), [1, 2, 3]);
  const byComments = send('GET', '/repos/acme/widgets/issues?sort=comments&per_page=5').json;
  t.is(byComments[0].comments, 3);
  t.true(byComments.every((i: { comments: number }, k: number, all: { comments: number }[]) => k === 0 || all[k - 1]!.comments >= i.comments));
  const invalid = send('GET', '/repos/acme/widgets/issues?sort=stars');
  t.is(invalid.status, 422);
  t.deepEqual(invalid.json.errors, [{ value: 'stars', resource: 'Issue', field: 'sort', code: 'invalid' }]);
  t.deepEqual(invalidEntries(send.entries), []);
});

test('create: 201 with the next number; labels created on the fly; invalid assignee and milestone are 422', async (t) => {
  const send = sender(await exampleWorld());
  const made = send('POST', '/repos/acme/widgets/issues', { title: 'Crash on start', body: 'Stack trace…', labels: ['bug', 'crash'], assignees: ['bob'], milestone: 1 });
  t.is(made.status, 201);
  t.is(made.json.number, 42);
  t.deepEqual(made.json.labels.map((l: { name: string }) => l.name), ['bug', 'crash']);
  t.is(made.json.assignee.login, 'bob');
  t.is(made.json.milestone.title, 'v1.1');
  t.is(made.json.user.login, 'alice');
  t.is(made.json.author_association, 'MEMBER');
  t.is(made.json.created_at, '2025-03-03T09:00:01Z');
  t.is(send('GET', '/repos/acme/widgets/labels/crash').json.color, 'ededed');
  const badAssignee = send('POST', '/repos/acme/widgets/issues', { title: 'x', assignees: ['carol'] });
  t.is(badAssignee.status, 422);
  t.deepEqual(badAssignee.json.errors, [{ value: 'carol', resource: 'Issue', field: 'assignees', code: 'invalid' }]);
  t.deepEqual(send('POST', '/repos/acme/widgets/issues', { title: 'x', milestone: 99 }).json.errors[0], { value: 99, resource: 'Issue', field: 'milestone', code: 'invalid' });
  const missing = send('POST', '/repos/acme/widgets/issues', { body: 'no title' });
  t.deepEqual(missing.json, {
    message: 'Validation Failed', errors: [{ resource: 'Issue', code: 'missing_field', field: 'title' }],
    documentation_url: 'https://docs.github.com/rest/issues/issues#create-an-issue', status: '422',
  });
  const outsider = send('POST', '/repos/acme/widgets/issues', { title: 'From outside', labels: ['bug'], assignees: ['bob'] }, { token: TOKENS.carol });
  t.is(outsider.status, 201, 'anyone can open an issue on a public repository');
  t.deepEqual(outsider.json.labels, [], 'labels and assignees are dropped without push access');
  t.deepEqual(outsider.json.assignees, []);
  t.is(outsider.json.number, 43, 'failed requests took no number');
  t.deepEqual(invalidEntries(send.entries), []);
});

test('update: close with a reason, reopen, edit fields; outsiders may not edit others\' issues', async (t) => {
  const send = sender(await exampleWorld());
  const closed = send('PATCH', '/repos/acme/widgets/issues/2', { state: 'closed', state_reason: 'not_planned' });
  t.is(closed.status, 200);
  t.is(closed.json.state, 'closed');
  t.is(closed.json.state_reason, 'not_planned');
  t.is(closed.json.closed_by.login, 'alice');
  t.is(closed.json.closed_at, '2025-03-03T09:00:01Z');
  const reopened = send('PATCH', '/repos/acme/widgets/issues/2', { state: 'open' });
  t.is(reopened.json.state_reason, 'reopened');
  t.is(reopened.json.closed_at, null);
  const edited = send('PATCH', '/repos/acme/widgets/issues/2', { title: 'RTL labels', labels: ['enhancement', 'help wanted'], assignees: [], milestone: 1 });
  t.is(edited.json.title, 'RTL labels');
  t.deepEqual(edited.json.labels.map((l: { name: string }) => l.name), ['enhancement', 'help wanted']);
  t.is(edited.json.milestone.number, 1);
  t.is(send('PATCH', '/repos/acme/widgets/issues/2', { milestone: null }).json.milestone, null);
  t.is(send('PATCH', '/repos/acme/widgets/issues/2', { title: 'mine now' }, { token: TOKENS.carol }).status, 403);
  t.is(send('PATCH', '/repos/acme/widgets/issues/3', { title: 'Mine' }, { token: TOKENS.carol }).status, 200, 'authors edit their own issues');
  t.is(send('PATCH', '/repos/acme/widgets/issues/999', { title: 'x' }).status, 404);
  t.is(send('PATCH', '/repos/acme/widgets/issues/2', { state: 'shut' }).status, 422);
  t.deepEqual(invalidEntries(send.entries), []);
});

test('comments: create (count and updated_at follow), list with since, edit, delete; repository-wide list', async (t) => {
  const send = sender(await exampleWorld());
  const made = send('POST', '/repos/acme/widgets/issues/2/comments', { body: 'Working on it.' });
  t.is(made.status, 201);
  t.is(made.json.body, 'Working on it.');
  t.is(made.json.html_url, `https://github.com/acme/widgets/issues/2#issuecomment-${made.json.id}`);
  const issue = send('GET', '/repos/acme/widgets/issues/2').json;
  t.is(issue.comments, 1);
  t.is(issue.updated_at, '2025-03-03T09:00:01Z');
  t.is(send('GET', '/repos/acme/widgets/issues/1/comments').json.length, 3);
  t.is(send('GET', '/repos/acme/widgets/issues/2/comments?since=2025-03-03T09:00:00Z').json.length, 1);
  const missing = send('POST', '/repos/acme/widgets/issues/2/comments', {});
  t.is(missing.status, 422);
  t.is(missing.json.message, 'Invalid request.\n\n"body" wasn\'t supplied.');
  t.is(send('PATCH', `/repos/acme/widgets/issues/comments/${made.json.id}`, { body: 'Done.' }).json.body, 'Done.');
  t.is(send('PATCH', `/repos/acme/widgets/issues/comments/${made.json.id}`, { body: 'x' }, { token: TOKENS.carol }).status, 403);
  t.is(send('DELETE', `/repos/acme/widgets/issues/comments/${made.json.id}`).status, 204);
  t.is(send('GET', '/repos/acme/widgets/issues/2').json.comments, 0);
  t.is(send('GET', `/repos/acme/widgets/issues/comments/${made.json.id}`).status, 404);
  const all = send('GET', '/repos/acme/widgets/issues/comments?per_page=100').json;
  t.true(all.length > 10);
  t.deepEqual(invalidEntries(send.entries), []);
});

test('labels: list, create (422 when it exists), add to an issue', async (t) => {
  const send = sender(await exampleWorld());
  t.is(send('GET', '/repos/acme/widgets/labels').json.length, 7);
  const made = send('POST', '/repos/acme/widgets/labels', { name: 'needs triage', color: '#FBCA04', description: 'New' });
  t.is(made.status, 201);
  t.is(made.json.color, 'fbca04');
  t.deepEqual(send('POST', '/repos/acme/widgets/labels', { name: 'Needs Triage' }).json.errors, [{ resource: 'Label', code: 'already_exists', field: 'name' }]);
  const added = send('POST', '/repos/acme/widgets/issues/3/labels', { labels: ['needs triage'] });
  t.deepEqual(added.json.map((l: { name: string }) => l.name), ['documentation', 'good first issue', 'needs triage']);
  t.deepEqual(send('POST', '/repos/acme/widgets/issues/3/labels', ['question']).json.length, 4, 'a bare array body works too');
  t.is(send('GET', '/repos/acme/widgets/issues/3/labels').json.length, 4);
  t.deepEqual(invalidEntries(send.entries), []);
});

test('issues of a private repository are visible only to those with access', async (t) => {
  const send = sender(await exampleWorld());
  t.is(send('GET', '/repos/acme/infra/issues').json.length, 2);
  t.is(send('GET', '/repos/acme/infra/issues', undefined, { token: TOKENS.carol }).status, 404);
  t.is(send('POST', '/repos/acme/infra/issues', { title: 'x' }, { token: TOKENS.carol }).status, 404);
  t.is(send('POST', '/repos/acme/infra/issues', { title: 'Rotate again' }, { token: TOKENS.bob }).json.number, 4);
  t.deepEqual(invalidEntries(send.entries), []);
});
