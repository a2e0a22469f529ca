import { account, requireViewer } from './context.js';
import { notFound } from './errors.js';
import { op } from './operation.js';
import { rateLimitOverview } from './ratelimit.js';
import { organizationFull, privateUser, publicUser } from './render/users.js';
import { ok } from './respond.js';
import { API, WEB } from './urls.js';

/** `/`, the authenticated user, users, organizations and the rate-limit overview. */
const ROOT = {
  current_user_url: `${API}/user`,
  current_user_authorizations_html_url: `${WEB}/settings/connections/applications{/client_id}`,
  authorizations_url: `${API}/authorizations`,
  code_search_url: `${API}/search/code?q={query}{&page,per_page,sort,order}`,
  commit_search_url: `${API}/search/commits?q={query}{&page,per_page,sort,order}`,
  emails_url: `${API}/user/emails`,
  emojis_url: `${API}/emojis`,
  events_url: `${API}/events`,
  feeds_url: `${API}/feeds`,
  followers_url: `${API}/user/followers`,
  following_url: `${API}/user/following{/target}`,
  gists_url: `${API}/gists{/gist_id}`,
  issue_search_url: `${API}/search/issues?q={query}{&page,per_page,sort,order}`,
  issues_url: `${API}/issues`,
  keys_url: `${API}/user/keys`,
  label_search_url: `${API}/search/labels?q={query}&repository_id={repository_id}{&page,per_page}`,
  notifications_url: `${API}/notifications`,
  organization_url: `${API}/orgs/{org}`,
  organization_repositories_url: `${API}/orgs/{org}/repos{?type,page,per_page,sort}`,
  organization_teams_url: `${API}/orgs/{org}/teams`,
  public_gists_url: `${API}/gists/public`,
  rate_limit_url: `${API}/rate_limit`,
  repository_url: `${API}/repos/{owner}/{repo}`,
  repository_search_url: `${API}/search/repositories?q={query}{&page,per_page,sort,order}`,
  current_user_repositories_url: `${API}/user/repos{?type,page,per_page,sort}`,
  starred_url: `${API}/user/starred{/owner}{/repo}`,
  starred_gists_url: `${API}/gists/starred`,
  topic_search_url: `${API}/search/topics?q={query}{&page,per_page}`,
  user_url: `${API}/users/{user}`,
  user_organizations_url: `${API}/user/orgs`,
  user_repositories_url: `${API}/users/{user}/repos{?type,page,per_page,sort}`,
  user_search_url: `${API}/search/users?q={query}{&page,per_page,sort,order}`,
};

export const userRoutes = [
  op('meta.root', 'GET', '/', 'meta/meta#github-api-root', () => ok(ROOT)),

  op('rateLimit.get', 'GET', '/rate_limit', 'rate-limit/rate-limit#get-rate-limit-status-for-the-authenticated-user', (_req, _p, gh) =>
    ok(rateLimitOverview(gh))),

  op('users.getAuthenticated', 'GET', '/user', 'users/users#get-the-authenticated-user', (_req, _p, gh) =>
    ok(privateUser(gh, requireViewer(gh))), { auth: true }),

  op('users.getByUsername', 'GET', '/users/:username', 'users/users#get-a-user', (_req, { username }, gh) => {
    const found = account(gh, username);
    if (!found) throw notFound();
    return ok(publicUser(gh, found));
  }),

  op('orgs.get', 'GET', '/orgs/:org', 'orgs/orgs#get-an-organization', (_req, { org }, gh) => {
    const found = account(gh, org);
    if (found?.type !== 'Organization') throw notFound();
    return ok(organizationFull(gh, found));
  }),
];
