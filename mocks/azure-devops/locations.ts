import { jsonResponse, ServiceRequest } from '../core/http.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import type { AdoCtx } from './context.js';
import { list } from './model.js';

/**
 * Resource-location discovery. Before every typed call, azure-devops-node-api (VsoClient) asks
 * `OPTIONS /<org>/_apis/<area>` for the area's locations (`{count, value: [{id, area,
 * resourceName, routeTemplate, resourceVersion, minVersion, maxVersion, releasedVersion}]}`),
 * picks the one whose id the method names, negotiates the api-version from it and fills the
 * route template; WebApi first reads `/_apis/resourceAreas` (through the Location area) to learn
 * which host serves each area. The table below is what the mock serves: the areas and location
 * ids the SDK's methods name (azure-devops-node-api 15 and 17 agree), the route templates in the
 * form Azure DevOps publishes, and the versions the methods request.
 */
interface Location { area: string; resourceName: string; id: string; routeTemplate: string; resourceVersion: number; released?: string }

const L = (area: string, resourceName: string, id: string, routeTemplate: string, resourceVersion: number, released = '7.1'): Location =>
  ({ area, resourceName, id, routeTemplate, resourceVersion, released });

export const LOCATIONS: readonly Location[] = [
  L('Location', 'ResourceAreas', 'e81700f7-3be2-46de-8624-2eb35882fcaa', '_apis/{resource}/{areaId}', 1),
  L('core', 'projects', '603fe2ac-9723-48b9-88ad-09305aa6c6e1', '_apis/{resource}/{*projectId}', 4),
  L('core', 'teams', 'd30a3dd1-f8ba-442a-b86a-bd0c0c383e59', '_apis/projects/{projectId}/{resource}/{*teamId}', 3),
  L('build', 'builds', '0cd358e1-9217-4d94-8269-1c1ee6f93dcf', '{project}/_apis/build/{resource}/{buildId}', 7),
  L('build', 'artifacts', '1db06c96-014e-44e1-ac91-90b2d4b3e984', '{project}/_apis/build/builds/{buildId}/{resource}', 5),
  L('build', 'changes', '54572c7b-bbd3-45d4-80dc-28be08941620', '{project}/_apis/build/builds/{buildId}/{resource}', 2),
  L('build', 'logs', '35a80daf-7f30-45fc-86e8-6b813d9c90df', '{project}/_apis/build/builds/{buildId}/{resource}/{logId}', 2),
  L('build', 'report', '45bcaa88-67e1-4042-a035-56d3b4a7d44c', '{project}/_apis/build/builds/{buildId}/{resource}', 2),
  L('build', 'definitions', 'dbeaf647-6167-421a-bda9-c9327b25e2e6', '{project}/_apis/build/{resource}/{definitionId}', 7),
  L('build', 'revisions', '7c116775-52e5-453e-8c5d-914d9762d8c4', '{project}/_apis/build/definitions/{definitionId}/{resource}', 3),
  L('pipelines', 'pipelines', '28e1305e-2afe-47bf-abaf-cbb0e6a91988', '{project}/_apis/{resource}/{pipelineId}', 1),
  L('pipelines', 'runs', '7859261e-d2e9-4a68-b820-a5d84cc5bb3d', '{project}/_apis/pipelines/{pipelineId}/{resource}/{runId}', 1),
  L('git', 'repositories', '225f7195-f9c7-4d14-ab28-a83f7ff77e1f', '{project}/_apis/git/{resource}/{repositoryId}', 2),
  L('git', 'pullRequests', '9946fd70-0d40-406e-b686-b4744cbbcc37', '{project}/_apis/git/repositories/{repositoryId}/{resource}/{pullRequestId}', 2),
  L('git', 'pullRequests', 'a5d28130-9cd2-40fa-9f08-902e7daa9efb', '{project}/_apis/git/{resource}', 2),
  L('git', 'pullRequestQuery', 'b3a6eebe-9cf0-49ea-b6cb-1a4c5f5007b0', '{project}/_apis/git/repositories/{repositoryId}/{resource}', 1),
  L('git', 'pullRequestLabels', 'f22387e3-984e-4c52-9c6d-fbb8f14c812d', '{project}/_apis/git/repositories/{repositoryId}/pullRequests/{pullRequestId}/labels/{labelIdOrName}', 1),
  L('git', 'pullRequestReviewers', '4b6702c7-aa35-4b89-9c96-b9abf6d3e540', '{project}/_apis/git/repositories/{repositoryId}/pullRequests/{pullRequestId}/reviewers/{reviewerId}', 1),
  L('git', 'pullRequestThreads', 'ab6e2e5d-a0b7-4153-b64a-a4efe0d49449', '{project}/_apis/git/repositories/{repositoryId}/pullRequests/{pullRequestId}/threads/{threadId}', 1),
  L('git', 'pullRequestThreadComments', '965a3ec7-5ed8-455a-bdcb-835a5ea7fe7b', '{project}/_apis/git/repositories/{repositoryId}/pullRequests/{pullRequestId}/threads/{threadId}/comments/{commentId}', 1),
  L('git', 'pullRequestIterations', 'd43911ee-6958-46b0-a42b-8445b8a0d004', '{project}/_apis/git/repositories/{repositoryId}/pullRequests/{pullRequestId}/iterations/{iterationId}', 2),
  L('git', 'pullRequestIterationChanges', '4216bdcf-b6b1-4d59-8b82-c34cc183fc8b', '{project}/_apis/git/repositories/{repositoryId}/pullRequests/{pullRequestId}/iterations/{iterationId}/changes', 1),
  L('git', 'refs', '2d874a60-a811-4f62-9c9f-963a6ea0a55b', '{project}/_apis/git/repositories/{repositoryId}/{resource}', 2),
  L('git', 'items', 'fb93c0db-47ed-4a31-8c20-47552878fb44', '{project}/_apis/git/repositories/{repositoryId}/{resource}', 1),
  L('Test', 'Suites', 'a4a1ec1c-b03f-41ca-8857-704594ecf58e', '{project}/_apis/test/Plans/{planId}/Suites/{suiteId}/{action}/{testCaseIds}', 3),
  L('testplan', 'Plans', '0e292477-a0c2-47f3-a9b6-34f153d627f4', '{project}/_apis/testplan/{resource}/{planId}', 1),
  L('testplan', 'Suites', '1046d5d3-ab61-4ca7-a65a-36118a978256', '{project}/_apis/testplan/Plans/{planId}/{resource}/{suiteId}', 1),
  L('testresults', 'resultdetailsbybuild', 'a518c749-4524-45b2-a7ef-1ac009b312cd', '{project}/_apis/testresults/{resource}', 1),
  L('wiki', 'wikis', '288d122c-dbd4-451d-aa5f-7dbbba070728', '{project}/_apis/wiki/{resource}/{wikiIdentifier}', 2),
  L('wiki', 'pages', '25d3fbc7-fe3d-46cb-b5a5-0b6f79caf27b', '{project}/_apis/wiki/wikis/{wikiIdentifier}/{resource}', 1),
  L('wiki', 'pagesBatch', '71323c46-2592-4398-8771-ced73dd87207', '{project}/_apis/wiki/wikis/{wikiIdentifier}/{resource}', 1),
  L('work', 'workItems', '7c468d96-ab1d-4294-a360-92f07e9ccd98', '{project}/{team}/_apis/work/backlogs/{backlogId}/{resource}', 1),
  L('work', 'backlogs', 'a93726f9-7867-4e38-b4f2-0bfafc2f6a94', '{project}/{team}/_apis/work/{resource}/{id}', 1),
  L('work', 'workItems', '5b3ef1a6-d3ab-44cd-bafd-c7f45db850fa', '{project}/{team}/_apis/work/teamsettings/iterations/{iterationId}/{resource}', 1),
  L('work', 'predefinedQueries', '9cbba37c-6cc6-4f70-b903-709be86acbf0', '{project}/_apis/work/{resource}/{id}', 1),
  L('work', 'capacities', '74412d15-8c1a-4352-a48d-ef1ed5587d57', '{project}/{team}/_apis/work/teamsettings/iterations/{iterationId}/{resource}/{teamMemberId}', 3),
  L('work', 'teamfieldvalues', '07ced576-58ed-49e6-9c1e-5cb53ab8bf2a', '{project}/{team}/_apis/work/teamsettings/{resource}', 1),
  L('work', 'iterations', 'c9175577-28a1-4b06-9197-8636af9f64ad', '{project}/{team}/_apis/work/teamsettings/{resource}/{id}', 1),
  L('work', 'teamsettings', 'c3c1012b-bea7-49d7-b45e-1664e566f84c', '{project}/{team}/_apis/work/{resource}', 1),
  L('work', 'iterationcapacities', '1e385ce0-396b-4273-8171-d64562c18d37', '{project}/_apis/work/iterations/{iterationId}/{resource}', 1),
  L('wit', 'workItems', '72c7ddf8-2cdc-4f60-90cd-ab71c14a399b', '{project}/_apis/wit/{resource}/{id}', 3),
  L('wit', 'workItems', '62d3d110-0047-428c-ad3c-4fe872c91c74', '{project}/_apis/wit/{resource}/${type}', 3),
  L('wit', 'attachments', 'e07b5fa4-1499-494d-a496-64b860fd64ff', '{project}/_apis/wit/{resource}/{id}', 3),
  L('wit', 'comments', '608aac0a-32e1-4493-a863-b9cf4566d257', '{project}/_apis/wit/workItems/{workItemId}/{resource}/{commentId}', 4),
  L('wit', 'queries', 'a67d190c-c41f-424b-814d-0e906f659301', '{project}/_apis/wit/{resource}/{*query}', 2),
  L('wit', 'revisions', 'a00c85a5-80fa-4565-99c3-bcd2181434bb', '{project}/_apis/wit/workItems/{id}/{resource}/{revisionNumber}', 3),
  L('wit', 'workItemTypes', '7c8d7a76-4a09-43e8-b5df-bd792f4ac6aa', '{project}/_apis/wit/{resource}/{type}', 2),
  L('wit', 'workItemsBatch', '908509b6-4248-4475-a1cd-829139ba419f', '{project}/_apis/wit/{resource}', 1),
  L('wit', 'wiql', 'a02355f5-5f8a-4671-8e32-369d23aac83d', '{project}/{team}/_apis/wit/{resource}/{id}', 2),
  L('wit', 'wiql', '1a9c53f7-f243-4447-b110-35ef023636e4', '{project}/{team}/_apis/wit/{resource}', 2),
  L('wit', 'classificationNodes', '5a172953-1b41-49d3-840a-33f79c3ce89f', '{project}/_apis/wit/{resource}/{structureGroup}/{*path}', 2),
  L('wit', 'classificationNodes', 'a70579d1-f53a-48ee-a5be-7be8659023b9', '{project}/_apis/wit/{resource}', 2),
  L('Alert', 'Alerts', 'e21b4630-b7d2-4031-99e3-3ad328cc4a7f', '{project}/_apis/alert/repositories/{repository}/{resource}/{alertId}', 1),
];

/** Resource areas and the host that serves each, as `GET /_apis/resourceAreas` lists them. */
const AREAS: readonly [string, string, string][] = [
  ['79134c72-4a58-4b42-976c-04e7115f32bf', 'core', 'dev.azure.com'],
  ['965220d5-5bb9-42cf-8d67-9b146df2a5a4', 'build', 'dev.azure.com'],
  ['4e080c62-fa21-4fbc-8fef-2a10a2b38049', 'git', 'dev.azure.com'],
  ['5264459e-e5e0-4bd8-b118-0985e68a4ec5', 'wit', 'dev.azure.com'],
  ['1d4f49f9-02b9-4e26-b826-2cdb6195f2a9', 'work', 'dev.azure.com'],
  ['bf7d82a0-8aa5-4613-94ef-6172a5ea01f3', 'wiki', 'dev.azure.com'],
  ['e4c27205-9d23-4c98-b958-d798bc3f9cd4', 'testplan', 'dev.azure.com'],
  ['c2aa639c-3ccc-4740-b3b6-ce2a1e1d984e', 'Test', 'dev.azure.com'],
  ['c83eaf52-edf3-4034-ae11-17d38f25404c', 'testresults', 'vstmr.dev.azure.com'],
  ['0f2ca920-f269-4545-b1f4-5b4173aa784e', 'Alert', 'advsec.dev.azure.com'],
  ['8ccfef3d-2b87-4e99-8ccb-66e343d2daa8', 'Profile', 'app.vssps.visualstudio.com'],
];

function renderLocation(l: Location) {
  return {
    id: l.id, area: l.area, resourceName: l.resourceName, routeTemplate: l.routeTemplate,
    resourceVersion: l.resourceVersion, minVersion: '1.0', maxVersion: '7.2', releasedVersion: l.released ?? '7.1',
  };
}

/** The discovery operations; `ado()` builds the patterns every other operation uses. */
export const locationOperations: Operation<AdoCtx>[] = [
  operation<AdoCtx, '/:org/:project/:team/_apis/:area'>('Location.options', rest('OPTIONS', '/:org/:project/:team/_apis/:area'), (call) => {
    const area = call.params.area.toLowerCase();
    return list(LOCATIONS.filter((l) => l.area.toLowerCase() === area).map(renderLocation));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/resourceAreas'>('Location.getResourceAreas', rest('GET', '/:org/:project/:team/_apis/resourceAreas'), (_call, c) =>
    list(AREAS.map(([id, name, host]) => ({ id, name, locationUrl: `https://${host}/${c.org.name}/` })))),
  operation<AdoCtx, '/:org/:project/:team/_apis/connectionData'>('Location.getConnectionData', rest('GET', '/:org/:project/:team/_apis/connectionData'), (_call, c) => {
    const me = c.me!;
    const user = { id: me.id, descriptor: `Microsoft.IdentityModel.Claims.ClaimsIdentity;${c.org.tenantId}\\${me.uniqueName}`, subjectDescriptor: `aad.${Buffer.from(me.id).toString('base64url').slice(0, 24)}`,
      providerDisplayName: me.displayName, isActive: true, properties: { Account: { $type: 'System.String', $value: me.uniqueName } }, resourceVersion: 2, metaTypeId: 0 };
    return jsonResponse(200, { authenticatedUser: user, authorizedUser: user, instanceId: c.org.id, deploymentId: c.org.id, deploymentType: 'hosted',
      locationServiceData: { serviceOwner: '00025394-6065-48ca-87d9-7f5672854ef7', defaultAccessMappingMoniker: 'PublicAccessMapping', lastChangeId: 1, lastChangeId64: 1 } });
  }),
];

/** A kit pattern for an ADO route: every request is normalised to `/<org>/<project|->/<team|->/_apis/…` first (rewrite below). */
export function ado<P extends string>(method: string, suffix: P) {
  return rest(method, `/:org/:project/:team/_apis${suffix}` as `/:org/:project/:team/_apis${P}`);
}

/**
 * Normalises a request before matching: the segments before `_apis` become exactly
 * organization, project and team (`-` where the URL has none), and the literal segments after it
 * take the mock's casing (Azure DevOps routes are case-insensitive: the server asks for
 * `wit/workItems`, `testplan/Plans`, the SDK for what the route templates say).
 */
export function adoRewrite(literals: ReadonlySet<string>): (req: ServiceRequest) => ServiceRequest {
  const canonical = new Map([...literals].map((l) => [l.toLowerCase(), l]));
  return (req) => {
    const segments = req.path.split('/');
    const at = segments.findIndex((s) => s.toLowerCase() === '_apis');
    if (at < 2) return req;
    const before = segments.slice(1, at);
    while (before.length < 3) before.push('-');
    if (before.length > 3) return req;
    const after = segments.slice(at + 1).map((s) => canonical.get(s.toLowerCase()) ?? s);
    const path = ['', ...before, '_apis', ...after].join('/');
    if (path === req.path) return req;
    const q = req.target.indexOf('?');
    return new ServiceRequest(req.method, q === -1 ? path : path + req.target.slice(q), req.headers, req.body);
  };
}

/** The literal segments after `_apis` in the operations' patterns. */
export function literalsOf(operations: readonly Operation<unknown>[]): Set<string> {
  const out = new Set<string>();
  for (const op of operations) {
    if (op.matcher.kind !== 'rest') continue;
    const after = op.matcher.pattern.split('/_apis/')[1];
    for (const s of after?.split('/') ?? []) if (s !== '' && !s.startsWith(':') && !s.startsWith('*')) out.add(s);
  }
  // One casing per segment, or the rewrite would send requests to the wrong spelling.
  const seen = new Map<string, string>();
  for (const l of out) {
    const other = seen.get(l.toLowerCase());
    if (other !== undefined && other !== l) throw new Error(`azure-devops: route segments ${other} and ${l} differ only in case`);
    seen.set(l.toLowerCase(), l);
  }
  return out;
}
