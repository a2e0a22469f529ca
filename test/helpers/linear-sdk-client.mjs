// @linear/sdk (the devDependency, v98, unmodified) against api.linear.app through whatever the
// preload set up: reads, a filtered page, a create with labels, an update, a comment, pagination
// across pages, and the SDK's own error classes. Prints one JSON object.
import { LinearClient, AuthenticationLinearError, InvalidInputLinearError } from '@linear/sdk';

const client = new LinearClient({ apiKey: process.env.LINEAR_API_KEY });
const out = {};
const viewer = await client.viewer;
out.viewer = { name: viewer.name, email: viewer.email };
const teams = await client.teams();
out.teams = teams.nodes.map((t) => t.key).sort();
const eng = teams.nodes.find((t) => t.key === 'ENG');
const states = await eng.states();
out.states = states.nodes.map((s) => s.name).sort();
const labels = await client.issueLabels({ filter: { name: { in: ['Bug', 'Backend'] }, team: { key: { eq: 'ENG' } } } });
const started = await client.issues({ first: 5, filter: { team: { key: { eq: 'ENG' } }, state: { type: { eq: 'started' } } } });
out.started = started.nodes.map((i) => i.identifier).sort();
const first = await client.issues({ first: 10, filter: { team: { key: { eq: 'ENG' } } } });
const firstPage = { count: first.nodes.length, hasNext: first.pageInfo.hasNextPage };
// fetchNext appends the next page to the same connection.
const all = await first.fetchNext();
out.paged = { first: firstPage, all: all.nodes.length, hasNext: all.pageInfo.hasNextPage };
const created = await client.createIssue({ teamId: eng.id, title: 'Filed with @linear/sdk', description: 'From the SDK test', priority: 2, labelIds: labels.nodes.map((l) => l.id) });
const issue = await created.issue;
const state = await issue.state;
const issueLabels = await issue.labels();
out.created = { success: created.success, identifier: issue.identifier, state: state.name, labels: issueLabels.nodes.map((l) => l.name).sort(), priorityLabel: issue.priorityLabel };
const done = states.nodes.find((s) => s.name === 'Done');
await issue.update({ stateId: done.id, assigneeId: viewer.id });
const reread = await client.issue(issue.identifier);
out.updated = { state: (await reread.state).name, assignee: (await reread.assignee).email, completed: reread.completedAt instanceof Date };
const comment = await client.createComment({ issueId: issue.id, body: 'Done via the SDK' });
out.comment = { success: comment.success, body: (await comment.comment).body, comments: (await reread.comments()).nodes.length };
try {
  await client.issue('00000000-0000-4000-8000-000000000000');
  out.missing = 'no error';
} catch (error) {
  out.missing = { type: error.type, invalidInput: error instanceof InvalidInputLinearError, message: error.message };
}
try {
  await new LinearClient({ apiKey: 'lin_api_wrong' }).viewer;
  out.unauthenticated = 'no error';
} catch (error) {
  out.unauthenticated = { type: error.type, authentication: error instanceof AuthenticationLinearError };
}
process.stdout.write(JSON.stringify(out) + '\n');
