import { JsonFragment } from '../../core/json-fragment.js';
import type { SeededIds } from '../../core/ids.js';
import type { Gh } from '../context.js';
import { accountKey, type AccountDoc } from '../model.js';
import { API, WEB, nodeId, userApi } from '../urls.js';

/** GitHub's `simple-user`, for users and organizations alike. */
export function simpleUser(gh: Gh, account: AccountDoc) {
  const url = userApi(account.login);
  return {
    login: account.login,
    id: account.id,
    node_id: nodeId(gh.ctx.ids, account.type === 'User' ? 'user' : 'org', account.id),
    avatar_url: `https://avatars.githubusercontent.com/u/${account.id}?v=4`,
    gravatar_id: '',
    url,
    html_url: `${WEB}/${account.login}`,
    followers_url: `${url}/followers`,
    following_url: `${url}/following{/other_user}`,
    gists_url: `${url}/gists{/gist_id}`,
    starred_url: `${url}/starred{/owner}{/repo}`,
    subscriptions_url: `${url}/subscriptions`,
    organizations_url: `${url}/orgs`,
    repos_url: `${url}/repos`,
    events_url: `${url}/events{/privacy}`,
    received_events_url: `${url}/received_events`,
    type: account.type,
    user_view_type: 'public',
    site_admin: account.site_admin,
  };
}

export type EmbeddedUser = JsonFragment<ReturnType<typeof simpleUser>>;

/** Per world (its ids), per stored account document: the account's embedded render. */
const embedded = new WeakMap<SeededIds, WeakMap<AccountDoc, EmbeddedUser>>();

/**
 * `simple-user` as other renders embed it (an issue's author and assignees, a repository's
 * owner, a commit's author): rendered and serialised once per stored document and world. It is a
 * function of the document (frozen; a change stores a new one) and the world's seeded ids alone;
 * users were 40 to 60 % of the bytes of issue, comment and search answers.
 */
export function embeddedUser(gh: Gh, account: AccountDoc): EmbeddedUser {
  let byDoc = embedded.get(gh.ctx.ids);
  if (!byDoc) embedded.set(gh.ctx.ids, (byDoc = new WeakMap()));
  let found = byDoc.get(account);
  if (!found) byDoc.set(account, (found = new JsonFragment(Object.freeze(simpleUser(gh, account)))));
  return found;
}

/** A login that may no longer exist renders as GitHub's `ghost`. */
export function userByLogin(gh: Gh, login: string): EmbeddedUser {
  return embeddedUser(gh, gh.db.accounts.get(accountKey(login)) ?? GHOST);
}

/** GitHub's `ghost`, for accounts that no longer exist: one frozen document, so its embedded render is kept too. */
export const GHOST: AccountDoc = Object.freeze({
  id: 10137, login: 'ghost', type: 'User', name: 'Deleted user', email: null, company: null, blog: '',
  location: null, bio: null, twitter_username: null, hireable: null, site_admin: false, followers: 0,
  following: 0, created_at: '2013-01-01T00:00:00Z', updated_at: '2013-01-01T00:00:00Z',
});

function publicRepoCount(gh: Gh, account: AccountDoc): number {
  return gh.db.repos.filter((r) => r.owner.toLowerCase() === account.login.toLowerCase() && !r.private).length;
}

/** `public-user` (`GET /users/:username` of a user). */
export function publicUser(gh: Gh, account: AccountDoc) {
  // Object.assign on the fresh render, not `{ ...simpleUser(), … }`: see render/repos.ts.
  return Object.assign(simpleUser(gh, account), {
    name: account.name,
    company: account.company,
    blog: account.blog,
    location: account.location,
    email: account.email,
    hireable: account.hireable,
    bio: account.bio,
    twitter_username: account.twitter_username,
    public_repos: publicRepoCount(gh, account),
    public_gists: 0,
    followers: account.followers,
    following: account.following,
    created_at: account.created_at,
    updated_at: account.updated_at,
  });
}

/** `private-user` (`GET /user`). */
export function privateUser(gh: Gh, account: AccountDoc) {
  const owned = gh.db.repos.filter((r) => r.owner.toLowerCase() === account.login.toLowerCase() && r.private).length;
  return Object.assign(publicUser(gh, account), {
    private_gists: 0,
    total_private_repos: owned,
    owned_private_repos: owned,
    disk_usage: 0,
    collaborators: 0,
    two_factor_authentication: true,
    plan: { name: 'free', space: 976562499, collaborators: 0, private_repos: 10000 },
  });
}

/** `organization-full` (`GET /orgs/:org`); `GET /users/:org` answers a public-user shape. */
export function organizationFull(gh: Gh, org: AccountDoc) {
  const url = `${API}/orgs/${org.login}`;
  return {
    login: org.login,
    id: org.id,
    node_id: nodeId(gh.ctx.ids, 'org', org.id),
    url,
    repos_url: `${url}/repos`,
    events_url: `${url}/events`,
    hooks_url: `${url}/hooks`,
    issues_url: `${url}/issues`,
    members_url: `${url}/members{/member}`,
    public_members_url: `${url}/public_members{/member}`,
    avatar_url: `https://avatars.githubusercontent.com/u/${org.id}?v=4`,
    description: org.description ?? null,
    ...present({ name: org.name, company: org.company, blog: org.blog, location: org.location, email: org.email, twitter_username: org.twitter_username }),
    is_verified: false,
    has_organization_projects: true,
    has_repository_projects: true,
    public_repos: publicRepoCount(gh, org),
    public_gists: 0,
    followers: org.followers,
    following: org.following,
    html_url: `${WEB}/${org.login}`,
    created_at: org.created_at,
    updated_at: org.updated_at,
    archived_at: null,
    type: 'Organization',
  };
}

/** The fields that have a value (organization-full types them as strings, never null). */
function present(fields: Record<string, string | null>): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).filter((e): e is [string, string] => e[1] !== null));
}
