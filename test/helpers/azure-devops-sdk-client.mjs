// The official azure-devops-node-api (unmodified; typed-rest-client underneath) against the
// Azure DevOps mock through the preload and the TLS proxy (test/azure-devops-sdk.test.ts).
// Every typed call first discovers its area's resource locations with OPTIONS.
import * as azdev from 'azure-devops-node-api';

const connection = new azdev.WebApi('https://dev.azure.com/contoso', azdev.getBearerHandler(process.env.ADO_TOKEN));
const out = {};

const core = await connection.getCoreApi();
out.projects = (await core.getProjects()).map((p) => p.name);
const storefront = (await core.getProjects()).find((p) => p.name === 'Storefront');
out.teams = (await core.getTeams(storefront.id)).map((t) => t.name);

const wit = await connection.getWorkItemTrackingApi();
const q = await wit.queryByWiql({ query: "SELECT [System.Id] FROM WorkItems WHERE [System.TeamProject] = 'Storefront' AND [System.WorkItemType] = 'Bug' AND [System.State] <> 'Closed' ORDER BY [System.Id]" });
out.bugs = q.workItems.map((w) => w.id);
const created = await wit.createWorkItem(null, [
  { op: 'add', path: '/fields/System.Title', value: 'Checkout: card vault timeouts' },
  { op: 'add', path: '/fields/System.AreaPath', value: 'Storefront\\Checkout\\Payments' },
  { op: 'add', path: '/fields/System.Tags', value: 'incident; payments-api' },
  { op: 'add', path: '/relations/-', value: { rel: 'System.LinkTypes.Related', url: 'https://dev.azure.com/contoso/_apis/wit/workItems/105' } },
], 'Storefront', 'Bug');
out.created = [created.id, created.fields['System.State'], created.fields['System.AreaPath'], created.fields['System.Tags'], created.relations.length];
const updated = await wit.updateWorkItem(null, [{ op: 'replace', path: '/fields/System.State', value: 'Active' }, { op: 'add', path: '/fields/System.AssignedTo', value: 'priya.raman@contoso.com' }], created.id);
out.updated = [updated.rev, updated.fields['System.State'], updated.fields['System.AssignedTo'].displayName];
const linked = await wit.getWorkItem(105, undefined, undefined, 1 /* Relations */);
out.reverseLink = linked.relations.map((r) => r.rel);
const batch = await wit.getWorkItemsBatch({ ids: [103, 107], fields: ['System.Title', 'System.State'] });
out.batch = batch.map((w) => [w.id, w.fields['System.State']]);
// typed-rest-client answers a 404 with a null result, not an error.
out.missing = await wit.getWorkItem(99999);
try { await wit.createWorkItem(null, [{ op: 'add', path: '/fields/System.Title', value: 'x' }, { op: 'add', path: '/fields/System.State', value: 'Shipped' }], 'Storefront', 'Bug'); } catch (e) { out.rule = [e.statusCode, e.message]; }

const git = await connection.getGitApi();
out.repos = (await git.getRepositories('Storefront')).map((r) => r.name);
const prs = await git.getPullRequests('storefront-web', { status: 1 }, 'Storefront');
out.prs = prs.map((p) => [p.pullRequestId, p.status, p.sourceRefName]);
const thread = await git.createThread({ comments: [{ content: 'Looks good once the test passes.', commentType: 1 }], status: 1 }, 'storefront-web', 57, 'Storefront');
out.thread = [thread.id, thread.status, thread.comments[0].content];
const text = await (await git.getItemText('storefront-web', '/src/checkout/coupon.ts', 'Storefront', undefined, undefined, undefined, undefined, false, { version: 'fix/coupon-whitespace', versionType: 0 }, true));
out.file = await new Promise((resolve) => { let s = ''; text.on('data', (d) => { s += d; }); text.on('end', () => resolve(s)); });

const build = await connection.getBuildApi();
const builds = await build.getBuilds('Storefront', [11]);
out.builds = builds.map((b) => [b.id, b.result]);
out.log = await build.getBuildLogLines('Storefront', 884, 1);

// Application Insights ingestion (what Microsoft's servers send telemetry to) is answered as noise.
const telemetry = await fetch('https://westeurope-5.in.applicationinsights.azure.com/v2.1/track', { method: 'POST', headers: { 'Content-Type': 'application/x-json-stream' }, body: '{}' });
out.telemetry = [telemetry.status, await telemetry.json()];

console.log(JSON.stringify(out));
