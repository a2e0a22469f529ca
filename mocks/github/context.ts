import { isoSeconds } from '../core/clock.js';
import type { ServiceRequest } from '../core/http.js';
import type { ServiceContext } from '../core/service.js';
import { authenticate as authenticateWith, basic, bearer } from '../kit/auth.js';
import { GitHubError, notFound, requiresAuthentication } from './errors.js';
import { ID_START, accountKey, db, repoKey, type AccountDoc, type Db, type IdKind, type Permission, type RepoDoc, type TokenDoc } from './model.js';

/** What every GitHub handler gets: the request's world context, the store, and who is asking. */
export interface Gh {
  readonly ctx: ServiceContext;
  readonly db: Db;
  /** The request's logical time, ISO seconds. */
  readonly now: string;
  readonly viewer: AccountDoc | null;
  readonly token: TokenDoc | null;
  /** Scheme and host for Link headers: `https://api.github.com`, or the plain port the client used. */
  readonly linkOrigin: string;
  /** The request presented a token GitHub does not know (or a malformed Authorization). */
  readonly badCredentials: boolean;
}

export type Auth =
  | { kind: 'anonymous' }
  | { kind: 'bad' }
  | { kind: 'token'; token: TokenDoc; viewer: AccountDoc };

/** How GitHub reads a token: `Authorization: token X`, `Bearer X`, or `Basic base64(user:X)`. */
export const AUTH_STYLES = [bearer('token', 'Bearer'), basic('password')];

export function authenticate(req: ServiceRequest, store: Db): Auth {
  const auth = authenticateWith(req, AUTH_STYLES, (secret) => {
    const token = store.tokens.get(secret);
    const viewer = token ? store.accounts.get(accountKey(token.login)) : undefined;
    return token && viewer ? { token, viewer } : undefined;
  });
  if (auth.kind === 'ok') return { kind: 'token', ...auth.principal };
  return { kind: auth.kind };
}

export function makeGh(ctx: ServiceContext, req: ServiceRequest, auth: Auth): Gh {
  const host = req.header('host') ?? 'api.github.com';
  return {
    ctx,
    db: db(ctx.store),
    now: isoSeconds(ctx.nowMs),
    viewer: auth.kind === 'token' ? auth.viewer : null,
    token: auth.kind === 'token' ? auth.token : null,
    badCredentials: auth.kind === 'bad',
    linkOrigin: host.toLowerCase() === 'api.github.com' ? 'https://api.github.com' : `http://${host}`,
  };
}

export function newId(gh: Pick<Gh, 'ctx'>, kind: IdKind): number {
  return gh.ctx.ids.next(kind, ID_START[kind]);
}

export function requireViewer(gh: Gh): AccountDoc {
  if (!gh.viewer) throw requiresAuthentication();
  return gh.viewer;
}

const RANK: Record<Permission, number> = { none: 0, read: 1, triage: 2, write: 3, maintain: 4, admin: 5 };

export function atLeast(have: Permission, want: Permission): boolean {
  return RANK[have] >= RANK[want];
}

function max(a: Permission, b: Permission): Permission {
  return RANK[a] >= RANK[b] ? a : b;
}

/** The viewer's permission on a repository, capped by the token's classic scopes. */
export function permission(gh: Gh, repo: RepoDoc): Permission {
  const viewer = gh.viewer;
  let level: Permission = repo.private ? 'none' : 'read';
  if (viewer) {
    const login = viewer.login.toLowerCase();
    if (repo.owner.toLowerCase() === login) level = 'admin';
    for (const c of repo.collaborators) if (c.login.toLowerCase() === login) level = max(level, c.permission);
    const org = gh.db.accounts.get(accountKey(repo.owner));
    const membership = org?.members?.find((m) => m.login.toLowerCase() === login);
    if (org && membership) level = max(level, membership.role === 'admin' ? 'admin' : org.default_repository_permission ?? 'read');
  }
  const scopes = gh.token?.scopes;
  if (scopes && !scopes.includes('repo')) {
    if (repo.private) return 'none';
    if (!scopes.includes('public_repo')) level = RANK[level] > RANK.read ? 'read' : level;
  }
  return level;
}

export function findRepo(gh: Gh, owner: string, name: string): RepoDoc | undefined {
  return gh.db.repos.get(repoKey(owner, name));
}

/** A repository the viewer can see, else GitHub's 404 (private repositories are never confirmed). */
export function readableRepo(gh: Gh, owner: string, name: string): RepoDoc {
  const repo = findRepo(gh, owner, name);
  if (!repo || !atLeast(permission(gh, repo), 'read')) throw notFound();
  return repo;
}

/** A repository the viewer may push to; without push access GitHub answers 404 as well. */
export function writableRepo(gh: Gh, owner: string, name: string, level: Permission = 'write'): RepoDoc {
  requireViewer(gh);
  const repo = readableRepo(gh, owner, name);
  if (!atLeast(permission(gh, repo), level)) throw notFound();
  if (repo.archived) throw new GitHubError(403, 'Repository was archived so is read-only.');
  return repo;
}

export function canPush(gh: Gh, repo: RepoDoc): boolean {
  return atLeast(permission(gh, repo), 'write');
}

export function account(gh: Gh, login: string): AccountDoc | undefined {
  return gh.db.accounts.get(accountKey(login));
}

/** Users who may be assigned in a repository: those with push access, and the owner. */
export function assignable(gh: Gh, repo: RepoDoc, login: string): boolean {
  const user = account(gh, login);
  if (!user || user.type !== 'User') return false;
  const asViewer: Gh = { ...gh, viewer: user, token: null };
  return atLeast(permission(asViewer, repo), 'write');
}
