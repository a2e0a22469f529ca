import type { ServiceRequest } from '../core/http.js';
import type { ServiceContext } from '../core/service.js';
import type { Middleware } from '../kit/define.js';
import { adoError, dbOf, projectNotFound, type Db, type OrgDoc, type ProjectDoc, type TeamDoc, type UserDoc } from './model.js';

/** What an Azure DevOps handler gets: the store, the organization, the token's user, seeded IDs and the logical time. */
export interface AdoCtx {
  readonly ctx: ServiceContext;
  readonly db: Db;
  readonly org: OrgDoc;
  readonly me: UserDoc | null;
  /** `https://dev.azure.com/<org>`: the base of every URL the mock writes. */
  readonly base: string;
}

/** `Authorization: Bearer <token>` (envvar auth) or Basic with the token as password (a PAT). */
export function adoContext(req: ServiceRequest, ctx: ServiceContext): AdoCtx {
  const db = dbOf(ctx.store);
  const org = db.org.values()[0] ?? { name: 'contoso', id: '00000000-0000-0000-0000-000000000000', tenantId: '00000000-0000-0000-0000-000000000000' };
  const auth = req.header('authorization') ?? '';
  let token = /^Bearer\s+(\S+)$/i.exec(auth)?.[1];
  const basic = /^Basic\s+(\S+)$/i.exec(auth)?.[1];
  if (token === undefined && basic !== undefined) token = Buffer.from(basic, 'base64').toString('utf8').split(':').slice(1).join(':');
  const found = token === undefined ? undefined : db.tokens.get(token);
  const me = found ? db.users.values().find((u) => u.uniqueName === found.user) ?? null : null;
  return { ctx, db, org, me, base: `https://dev.azure.com/${org.name}` };
}

/** 401 before anything else, except what a real organization answers anonymously (the tenant probe). */
export const adoAuth: Middleware<AdoCtx> = (_req, c, next, matched) => {
  if (c.me === null && matched?.operation?.auth !== false) {
    throw adoError(401, 'UnauthorizedRequestException', "TF400813: The user '' is not authorized to access this resource.");
  }
  return next();
};

/** The caller, for handlers behind adoAuth. */
export function meOf(c: AdoCtx): UserDoc {
  return c.me!;
}

/** A project by name or id (case-insensitive, as ADO), or ADO's TF200016. */
export function projectOf(c: AdoCtx, nameOrId: string | undefined): ProjectDoc {
  if (nameOrId === undefined || nameOrId === '-') throw adoError(400, 'ArgumentNullException', 'Value cannot be null.\r\nParameter name: project', { namespace: 'System' });
  const key = decodeURIComponent(nameOrId).toLowerCase();
  const found = c.db.projects.values().find((p) => p.id === key || p.name.toLowerCase() === key);
  if (!found) throw projectNotFound(decodeURIComponent(nameOrId));
  return found;
}

/** The project when the route names one; null for organization-wide routes. */
export function optionalProject(c: AdoCtx, nameOrId: string | undefined): ProjectDoc | null {
  return nameOrId === undefined || nameOrId === '-' ? null : projectOf(c, nameOrId);
}

/** A team of a project by name or id; default the project's default team. */
export function teamOf(c: AdoCtx, project: ProjectDoc, nameOrId: string | undefined): TeamDoc {
  const teams = c.db.teams.values().filter((t) => t.project === project.id);
  if (nameOrId === undefined || nameOrId === '-') return teams.find((t) => t.id === project.defaultTeam) ?? teams[0]!;
  const key = decodeURIComponent(nameOrId).toLowerCase();
  const found = teams.find((t) => t.id === key || t.name.toLowerCase() === key);
  if (!found) {
    throw adoError(404, 'TeamNotFoundException', `The team with id '${decodeURIComponent(nameOrId)}' does not exist.`, { namespace: 'Microsoft.TeamFoundation.Core.WebApi' });
  }
  return found;
}

/** A user by id, uniqueName or display name. */
export function userOf(c: AdoCtx, key: string): UserDoc | undefined {
  const lower = key.toLowerCase();
  return c.db.users.values().find((u) => u.id === lower || u.uniqueName.toLowerCase() === lower || u.displayName.toLowerCase() === lower);
}

/** An IdentityRef as ADO embeds it (createdBy, assignedTo, reviewers). */
export function identityRef(c: AdoCtx, uniqueName: string | null | undefined) {
  if (!uniqueName) return null;
  const u = userOf(c, uniqueName);
  const id = u?.id ?? '00000000-0000-0000-0000-000000000000';
  return {
    displayName: u?.displayName ?? uniqueName, url: `https://spsprodeus27.vssps.visualstudio.com/A${c.org.id}/_apis/Identities/${id}`,
    _links: { avatar: { href: `${c.base}/_apis/GraphProfile/MemberAvatars/aad.${Buffer.from(id).toString('base64url').slice(0, 24)}` } },
    id, uniqueName: u?.uniqueName ?? uniqueName, imageUrl: `${c.base}/_apis/GraphProfile/MemberAvatars/aad.${Buffer.from(id).toString('base64url').slice(0, 24)}`,
    descriptor: `aad.${Buffer.from(id).toString('base64url').slice(0, 24)}`,
  };
}

/** A TeamProjectReference. */
export function projectRef(c: AdoCtx, p: ProjectDoc) {
  return { id: p.id, name: p.name, description: p.description, url: `${c.base}/_apis/projects/${p.id}`, state: 'wellFormed', revision: p.revision, visibility: p.visibility, lastUpdateTime: p.lastUpdateTime };
}

/** Query values are case-insensitive in ADO (`$top`, `searchCriteria.status`). */
export function q(req: Pick<ServiceRequest, 'query'>, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const [key, value] of req.query) if (key.toLowerCase() === lower) return value;
  return undefined;
}

export function qInt(req: Pick<ServiceRequest, 'query'>, name: string): number | undefined {
  const v = q(req, name);
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  if (!Number.isInteger(n)) throw adoError(400, 'InvalidQueryParameterException', `The value '${v}' of query parameter ${name} is not valid.`, { namespace: 'Microsoft.VisualStudio.Services.WebApi' });
  return n;
}
