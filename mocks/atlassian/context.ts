import type { ServiceRequest } from '../core/http.js';
import type { ServiceContext } from '../core/service.js';
import { authenticate, basic, type Authenticated } from '../kit/auth.js';
import type { Middleware } from '../kit/define.js';
import { jiraError } from './errors.js';
import { jiraDb, type JiraDb } from './jira/model.js';
import type { View } from './jira/render.js';
import { siteOf, tenantDb, type SiteDoc, type TenantDb, type UserDoc } from './model.js';

/** What an Atlassian handler gets: the tenant, each product's collections, the caller. */
export interface AtlassianCtx {
  ctx: ServiceContext;
  site: SiteDoc;
  tenant: TenantDb;
  jira: JiraDb;
  /** For Jira's renderers. */
  view: View;
  auth: Authenticated<UserDoc>;
  /** The request's path: errors under `/wiki` are Confluence's. */
  path: string;
}

/** The caller's account; handlers run only after the auth middleware let the request through. */
export function me(c: AtlassianCtx): UserDoc {
  if (c.auth.kind !== 'ok') throw jiraError(401, ['You are not authenticated. Authentication required to perform this operation.']);
  return c.auth.principal;
}

/** API tokens are basic auth: the account's email as the user, the token as the password. */
const STYLES = [basic('password')];

export function atlassianContext(req: ServiceRequest, ctx: ServiceContext): AtlassianCtx {
  const tenant = tenantDb(ctx.store);
  const jira = jiraDb(ctx.store);
  const site = siteOf(tenant);
  const auth = authenticate<UserDoc>(req, STYLES, (secret, presented) => {
    const token = tenant.tokens.get(`${(presented.user ?? '').toLowerCase()}:${secret}`);
    return token ? tenant.users.get(token.accountId) : undefined;
  });
  return { ctx, site, tenant, jira, view: { site, tenant, db: jira }, auth, path: req.path };
}

/**
 * Every API call needs a valid token: a bad one is Jira's 401 (what Atlassian answers for a wrong
 * email or token), none at all the same (this site grants anonymous access to nothing).
 */
export const atlassianAuth: Middleware<AtlassianCtx> = (_req, c, next) => {
  if (c.auth.kind === 'bad') throw jiraError(401, ['Client must be authenticated to access this resource.'], {}, [['WWW-Authenticate', 'Basic realm="protected-area"']]);
  if (c.auth.kind === 'anonymous') throw jiraError(401, ['You are not authenticated. Authentication required to perform this operation.'], {}, [['WWW-Authenticate', 'Basic realm="protected-area"']]);
  if (!c.auth.principal.active) throw jiraError(401, ['Client must be authenticated to access this resource.']);
  return next();
};
