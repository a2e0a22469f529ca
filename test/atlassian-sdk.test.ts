import test from 'ava';
import { readFileSync } from 'node:fs';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { AgileClient, HttpException, Version3Client } from 'jira.js';
import { startStack, type Stack } from '../catalog/stack.js';
import { ServiceRequest } from '../mocks/core/http.js';
import { jiraTail } from '../mocks/atlassian/jira/fallback.js';
import { loadSpec } from '../mocks/kit/openapi.js';
import { journalEntries } from './helpers/mcp-stack.js';
import { testCaDir } from './helpers/proxy.js';
import { specValidator } from './helpers/spec-validate.js';

// jira.js 5 (Version3Client and AgileClient, unmodified, over axios) against the Atlassian mock
// over HTTPS through the proxy to https://larkspur.atlassian.net; every JSON success answer of a
// path Jira's OpenAPI describes is then validated against it with ajv.

class TrustingProxyAgent extends HttpsProxyAgent<string> {
  constructor(proxy: string, private readonly caPem: Buffer) {
    super(proxy);
  }
  override connect(req: Parameters<HttpsProxyAgent<string>['connect']>[0], opts: Parameters<HttpsProxyAgent<string>['connect']>[1]) {
    return super.connect(req, { ...opts, ca: this.caPem } as typeof opts);
  }
}

const SITE = 'https://larkspur.atlassian.net';
const EMAIL = 'priya.raman@larkspur.example';
const TOKEN = 'ATATT3x9ewrejf7GrkHYjzBKVSRJPic';
const adf = (text: string) => ({ type: 'doc' as const, version: 1 as const, content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] });
let stack: Stack;
let jira: Version3Client;
let agile: AgileClient;
let config: { host: string; baseRequestConfig: { httpsAgent: TrustingProxyAgent; proxy: false } };

test.before(async () => {
  stack = await startStack({ scenarioDir: 'mocks/atlassian/conformance', ports: 'ephemeral', caDir: testCaDir(), endpoints: false });
  const { proxy, ca } = stack.addresses();
  config = { host: SITE, baseRequestConfig: { httpsAgent: new TrustingProxyAgent(proxy!, readFileSync(ca!)), proxy: false } };
  jira = new Version3Client({ ...config, authentication: { basic: { email: EMAIL, apiToken: TOKEN } } });
  agile = new AgileClient({ ...config, authentication: { basic: { email: EMAIL, apiToken: TOKEN } } });
});
test.after.always(() => stack?.close());

test.serial('myself, projects and users', async (t) => {
  const me = await jira.myself.getCurrentUser();
  t.like(me, { accountId: '5b10ac8d82e05b22cc7d4e10', displayName: 'Priya Raman', emailAddress: EMAIL, active: true });
  const projects = await jira.projects.searchProjects({ maxResults: 2 });
  t.like(projects, { total: 4, isLast: false, startAt: 0, maxResults: 2 });
  t.deepEqual(projects.values!.map((p) => p.key), ['ENG', 'MOB']);
  const eng = await jira.projects.getProject({ projectIdOrKey: 'ENG' });
  t.is(eng.lead?.displayName, 'Priya Raman');
  t.deepEqual(eng.components!.map((c) => c.name), ['api', 'billing', 'auth', 'infra']);
  const users = await jira.userSearch.findUsers({ query: 'hana' });
  t.deepEqual(users.map((u) => u.emailAddress), ['hana.kobayashi@larkspur.example']);
});

test.serial('an issue\'s life: create with ADF, read, edit labels, comment, log work, transition to Done with a resolution', async (t) => {
  const created = await jira.issues.createIssue({ fields: { project: { key: 'ENG' }, issuetype: { name: 'Bug' }, summary: 'Export drops the last row', description: adf('Seen on the September export.'), labels: ['customer'], priority: { name: 'High' }, components: [{ name: 'billing' }] } });
  t.regex(created.key, /^ENG-\d+$/);
  const issue = await jira.issues.getIssue({ issueIdOrKey: created.key });
  t.like(issue.fields, { summary: 'Export drops the last row', labels: ['customer'] });
  t.is(issue.fields.status.name, 'To Do');
  t.is(issue.fields.priority.name, 'High');
  t.deepEqual(issue.fields.description, adf('Seen on the September export.'));
  t.is(issue.fields.reporter?.accountId, '5b10ac8d82e05b22cc7d4e10');
  await jira.issues.editIssue({ issueIdOrKey: created.key, update: { labels: [{ add: 'regression' }, { remove: 'customer' }] }, fields: { assignee: { accountId: '5b10ac8d82e05b22cc7d4e11' } } });
  const comment = await jira.issueComments.addComment({ issueIdOrKey: created.key, comment: adf('Reproduced with 2.13.0.') });
  t.regex(comment.id!, /^\d+$/);
  const worklog = await jira.issueWorklogs.addWorklog({ issueIdOrKey: created.key, timeSpent: '1h 30m', started: '2025-09-22T08:00:00.000+0000' });
  t.like(worklog, { timeSpent: '1h 30m', timeSpentSeconds: 5400 });
  const { transitions } = await jira.issues.getTransitions({ issueIdOrKey: created.key });
  const done = transitions!.find((x) => x.name === 'Done')!;
  await jira.issues.doTransition({ issueIdOrKey: created.key, transition: { id: done.id! }, fields: { resolution: { name: 'Duplicate' } } });
  const after = await jira.issues.getIssue({ issueIdOrKey: created.key, fields: ['status', 'resolution', 'labels', 'assignee', 'comment', 'worklog'], expand: 'changelog' });
  t.is(after.fields.status.name, 'Done');
  t.is(after.fields.resolution?.name, 'Duplicate');
  t.deepEqual(after.fields.labels, ['regression']);
  t.is(after.fields.assignee?.displayName, 'Marcus Oyelaran');
  t.is(after.fields.comment?.total, 1);
  t.is(after.fields.worklog?.total, 1);
  t.deepEqual(after.changelog!.histories!.flatMap((h) => h.items!.map((i) => i.field)).sort(), ['assignee', 'labels', 'resolution', 'status']);
  t.is(Object.keys(after.fields).filter((f) => f !== 'comment' && f !== 'worklog').sort().join(','), 'assignee,labels,resolution,status');
});

test.serial('search: the enhanced search pages with nextPageToken, the classic one with startAt and total, in JQL order', async (t) => {
  const jql = 'project = ENG AND statusCategory != Done ORDER BY key ASC';
  const keys: string[] = [];
  let nextPageToken: string | undefined;
  do {
    const page = await jira.issueSearch.searchForIssuesUsingJqlEnhancedSearch({ jql, maxResults: 7, fields: ['summary', 'status'], nextPageToken });
    keys.push(...page.issues!.map((i) => i.key!));
    t.true(page.issues!.every((i) => i.fields.status.statusCategory?.key !== 'done'));
    nextPageToken = page.nextPageToken;
  } while (nextPageToken);
  const classic = await jira.issueSearch.searchForIssuesUsingJql({ jql, startAt: 0, maxResults: 100 });
  t.is(classic.total, keys.length);
  t.deepEqual(classic.issues!.map((i) => i.key), keys);
  const numbers = keys.map((k) => Number(k.split('-')[1]));
  t.deepEqual(numbers, [...numbers].sort((a, b) => a - b));
  const text = await jira.issueSearch.searchForIssuesUsingJqlEnhancedSearchPost({ jql: 'text ~ "sync" AND project = MOB', fields: ['summary'] });
  t.true(text.issues!.length >= 2);
  t.true(text.issues!.every((i) => /sync/i.test(i.fields.summary)));
  const mine = await jira.issueSearch.searchForIssuesUsingJqlEnhancedSearch({ jql: 'assignee = currentUser() OR reporter = currentUser()', fields: ['assignee', 'reporter'] });
  t.true(mine.issues!.every((i) => i.fields.assignee?.accountId === '5b10ac8d82e05b22cc7d4e10' || i.fields.reporter?.accountId === '5b10ac8d82e05b22cc7d4e10'));
  const bad = await t.throwsAsync(jira.issueSearch.searchForIssuesUsingJqlEnhancedSearch({ jql: 'project = NOPE' }));
  t.true(bad instanceof HttpException);
  t.is((bad as HttpException).status, 400);
  t.deepEqual(((bad as HttpException).response as { data: { errorMessages: string[] } }).data.errorMessages, ["The value 'NOPE' does not exist for the field 'project'."]);
  const unbounded = await t.throwsAsync(jira.issueSearch.searchForIssuesUsingJqlEnhancedSearch({ jql: 'ORDER BY created DESC' }));
  t.is((unbounded as HttpException).status, 400);
});

test.serial('agile: boards, the active sprint, a new sprint with issues moved in, the backlog, epics', async (t) => {
  const boards = await agile.board.getAllBoards({ projectKeyOrId: 'ENG' });
  t.deepEqual(boards.values!.map((b) => b.name), ['ENG board']);
  const sprints = await agile.board.getAllSprints({ boardId: 1, state: 'active' });
  t.deepEqual(sprints.values!.map((s) => s.name), ['ENG Sprint 42']);
  const sprint = await agile.sprint.createSprint({ name: 'ENG Sprint 44', originBoardId: 1, goal: 'Exports' });
  t.like(sprint, { state: 'future', originBoardId: 1, name: 'ENG Sprint 44' });
  const backlog = await agile.board.getIssuesForBacklog({ boardId: 1, maxResults: 100 });
  const moving = backlog.issues!.slice(0, 2).map((i) => i.key!);
  t.is(moving.length, 2);
  await agile.sprint.moveIssuesToSprintAndRank({ sprintId: sprint.id, issues: moving });
  const inSprint = await agile.sprint.getIssuesForSprint({ sprintId: sprint.id });
  t.deepEqual(inSprint.issues!.map((i) => i.key).sort(), [...moving].sort());
  const epics = await agile.board.getEpics({ boardId: 1 });
  t.deepEqual(epics.values!.map((e) => e.name), ['API v2', 'SSO and security', 'Billing accuracy']);
  const started = await t.throwsAsync(agile.sprint.partiallyUpdateSprint({ sprintId: sprint.id, state: 'active', startDate: '2025-09-22T09:00:00.000Z', endDate: '2025-10-06T09:00:00.000Z' }));
  t.is((started as HttpException).status, 400, 'the board already has an active sprint');
});

test.serial('errors: a wrong token is 401, an unknown issue Jira\'s 404 envelope', async (t) => {
  const wrong = new Version3Client({ ...config, authentication: { basic: { email: EMAIL, apiToken: 'not-the-token' } } });
  const auth = await t.throwsAsync(wrong.myself.getCurrentUser());
  t.is((auth as HttpException).status, 401);
  const missing = await t.throwsAsync(jira.issues.getIssue({ issueIdOrKey: 'ENG-9999' }));
  t.is((missing as HttpException).status, 404);
  t.deepEqual(((missing as HttpException).response as { data: unknown }).data, { errorMessages: ['Issue does not exist or you do not have permission to see it.'], errors: {} });
});

test.serial('every JSON success answer above validates against Jira\'s OpenAPI description', async (t) => {
  // More of the platform API, read the way jira.js reads it.
  await jira.projectComponents.getProjectComponents({ projectIdOrKey: 'ENG' });
  await jira.projectVersions.getProjectVersions({ projectIdOrKey: 'ENG' });
  await jira.projects.getAllStatuses({ projectIdOrKey: 'ENG' });
  await jira.issuePriorities.getPriorities();
  await jira.issueTypes.getIssueAllTypes();
  await jira.issueFields.getFields();
  await jira.labels.getAllLabels();
  await jira.issueLinkTypes.getIssueLinkTypes();
  await jira.filters.getMyFilters();
  await jira.issueComments.getComments({ issueIdOrKey: 'ENG-5' });
  await jira.issueWorklogs.getIssueWorklog({ issueIdOrKey: 'ENG-12' });
  await jira.issueWatchers.getIssueWatchers({ issueIdOrKey: 'ENG-5' });
  await jira.issueVotes.getVotes({ issueIdOrKey: 'ENG-5' });
  await jira.issues.getChangeLogs({ issueIdOrKey: 'ENG-5' });
  await jira.userSearch.findAssignableUsers({ project: 'ENG', query: 'a' });
  await jira.jql.parseJqlQueries({ queries: ['project = ENG AND labels = customer ORDER BY created DESC'] });
  await jira.dashboards.getAllDashboards();
  // Two defects of Jira's own description, loosened here only: JqlQueryClause puts
  // `additionalProperties: false` beside its `anyOf`, which rejects every clause; ChangeDetails
  // lacks the `toString` Jira sends and declares `from`/`fromString`/`to` non-nullable, though
  // Jira sends null for a field that was empty.
  const spec = structuredClone(loadSpec(import.meta.url, '../mocks/atlassian/jira/spec/jira.openapi.json')) as { components: { schemas: Record<string, Record<string, unknown>> } };
  delete spec.components.schemas.JqlQueryClause!.additionalProperties;
  const change = spec.components.schemas.ChangeDetails as { properties: Record<string, Record<string, unknown>> };
  for (const field of ['from', 'fromString', 'to']) change.properties[field] = { ...change.properties[field], nullable: true };
  Object.defineProperty(change.properties, 'toString', { value: { type: 'string', nullable: true }, enumerable: true });
  const validate = specValidator(spec as never);
  const problems: string[] = [];
  let checked = 0;
  for (const entry of await journalEntries(stack.world.journal)) {
    if (entry.service !== 'atlassian' || entry.response.status >= 300 || entry.response.body.length === 0) continue;
    const operationId = jiraTail.operation(new ServiceRequest(entry.method, entry.target, [], new Uint8Array()));
    if (operationId === null) continue;
    const verdict = validate(operationId, JSON.parse(new TextDecoder().decode(entry.response.body)));
    if (verdict?.startsWith('no success schema')) continue;
    checked++;
    if (verdict) problems.push(`${entry.method} ${entry.target} (${operationId}): ${verdict.slice(0, 400)}`);
  }
  t.true(checked >= 15, `${checked} answers checked`);
  t.deepEqual(problems, []);
});
