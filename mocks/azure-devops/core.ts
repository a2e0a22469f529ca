import { jsonResponse } from '../core/http.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import { identityRef, projectOf, projectRef, q, qInt, type AdoCtx } from './context.js';
import { ado } from './locations.js';
import { adoError, list, type TeamDoc } from './model.js';

/**
 * Core (`_apis/projects`, teams), identities on vssps.dev.azure.com, and the tenant probe the
 * MCP server makes at startup (`HEAD https://vssps.dev.azure.com/<org>`: a 404 whose
 * `X-VSS-ResourceTenant` header names the organization's tenant).
 */

function renderTeam(c: AdoCtx, t: TeamDoc) {
  const p = c.db.projects.get(t.project)!;
  return {
    id: t.id, name: t.name, url: `${c.base}/_apis/projects/${p.id}/teams/${t.id}`, description: t.description,
    identityUrl: `https://spsprodeus27.vssps.visualstudio.com/A${c.org.id}/_apis/Identities/${t.id}`, projectName: p.name, projectId: p.id,
  };
}

export const coreOperations: Operation<AdoCtx>[] = [
  operation<AdoCtx, '/:org'>('vssps.tenantProbe', rest('GET', '/:org'), (call, c) => {
    const found = call.params.org.toLowerCase() === c.org.name.toLowerCase();
    // A 404 with the tenant header either way: the probe is not an API (HEAD drops the body).
    throw adoError(404, 'ApiResourceNotFoundException', `VS402371: The resource cannot be found. API resource location was not found for the route '${call.params.org}'.`,
      { namespace: 'Microsoft.VisualStudio.Services.WebApi', headers: found ? [['X-VSS-ResourceTenant', c.org.tenantId]] : [] });
  }, { auth: false }),
  operation<AdoCtx, '/:org/:project/:team/_apis/projects'>('core.getProjects', ado('GET', '/projects'), (call, c) => {
    const state = (q(call.req, 'stateFilter') ?? 'wellFormed').toLowerCase();
    const top = qInt(call.req, '$top') ?? 100;
    const skip = qInt(call.req, '$skip') ?? Number(q(call.req, 'continuationToken') ?? 0);
    const all = state === 'deleted' || state === 'createpending' ? [] : c.db.projects.values().sort((a, b) => a.name.localeCompare(b.name));
    const page = all.slice(skip, skip + top);
    const more = skip + top < all.length;
    return list(page.map((p) => projectRef(c, p)), more ? [['x-ms-continuationtoken', String(skip + top)]] : []);
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/projects/:projectId'>('core.getProject', ado('GET', '/projects/:projectId'), (call, c) => {
    const p = projectOf(c, call.params.projectId);
    const team = c.db.teams.get(p.defaultTeam)!;
    // Object.assign on the fresh render, not `{ ...projectRef(), … }`: Node 20's V8 adds each field after a leading spread through a slow path (docs/benchmarks.md, issue 14's eighth pass).
    return jsonResponse(200, Object.assign(projectRef(c, p), { _links: { self: { href: `${c.base}/_apis/projects/${p.id}` }, web: { href: `${c.base}/${encodeURIComponent(p.name)}` } }, defaultTeam: { id: team.id, name: team.name, url: `${c.base}/_apis/projects/${p.id}/teams/${team.id}` } }));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/projects/:projectId/teams'>('core.getTeams', ado('GET', '/projects/:projectId/teams'), (call, c) => {
    const p = projectOf(c, call.params.projectId);
    const mine = q(call.req, '$mine') === 'true';
    const top = qInt(call.req, '$top') ?? 100;
    const skip = qInt(call.req, '$skip') ?? 0;
    const teams = c.db.teams.values().filter((t) => t.project === p.id && (!mine || t.members.includes(c.me!.uniqueName))).sort((a, b) => a.name.localeCompare(b.name));
    return list(teams.slice(skip, skip + top).map((t) => renderTeam(c, t)));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/projects/:projectId/teams/:teamId/members'>('core.getTeamMembers', ado('GET', '/projects/:projectId/teams/:teamId/members'), (call, c) => {
    const p = projectOf(c, call.params.projectId);
    const key = decodeURIComponent(call.params.teamId).toLowerCase();
    const team = c.db.teams.values().find((t) => t.project === p.id && (t.id === key || t.name.toLowerCase() === key));
    if (!team) throw adoError(404, 'TeamNotFoundException', `The team with id '${decodeURIComponent(call.params.teamId)}' does not exist.`, { namespace: 'Microsoft.TeamFoundation.Core.WebApi' });
    return list(team.members.map((m) => ({ identity: identityRef(c, m) })));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/identities'>('vssps.readIdentities', ado('GET', '/identities'), (call, c) => {
    const filter = (q(call.req, 'searchFilter') ?? '').toLowerCase();
    const value = (q(call.req, 'filterValue') ?? '').toLowerCase();
    if (filter === '' || value === '') throw adoError(400, 'ArgumentException', 'Either searchFilter and filterValue, or descriptors, identityIds or subjectDescriptors must be given.', { namespace: 'System' });
    const hits = c.db.users.values().filter((u) => {
      if (filter === 'accountname' || filter === 'mailaddress') return u.uniqueName.toLowerCase() === value;
      if (filter === 'displayname') return u.displayName.toLowerCase().includes(value);
      return u.uniqueName.toLowerCase() === value || u.displayName.toLowerCase().includes(value) || u.uniqueName.toLowerCase().startsWith(value);
    });
    return list(hits.map((u) => ({
      id: u.id, descriptor: `Microsoft.IdentityModel.Claims.ClaimsIdentity;${c.org.tenantId}\\${u.uniqueName}`, subjectDescriptor: `aad.${Buffer.from(u.id).toString('base64url').slice(0, 24)}`,
      providerDisplayName: u.displayName, isActive: true, isContainer: false, members: [], memberOf: [], memberIds: [],
      properties: { SchemaClassName: { $type: 'System.String', $value: 'User' }, Mail: { $type: 'System.String', $value: u.uniqueName }, Account: { $type: 'System.String', $value: u.uniqueName } },
      resourceVersion: 2, metaTypeId: 0,
    })));
  }),
];
