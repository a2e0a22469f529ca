import { isoSeconds } from '../core/clock.js';
import type { LoadContext } from '../core/service.js';
import type { Gh } from './context.js';
import type { GitHubDataset, OrgData, RepoData, UserData } from './dataset.js';
import { loadHistory } from './load-history.js';
import { loadIssuesAndPulls } from './load-issues.js';
import { at, datasetError, takeId } from './load-util.js';
import { accountKey, db, labelKey, milestoneKey, repoKey, type AccountDoc, type RepoDoc } from './model.js';
import { repoRefs, resolveCommitish, setRef } from './repo-git.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export const DEFAULT_SCOPES = ['repo', 'read:org', 'user'];

/** Loads a parsed dataset into the store; semantic mistakes are TB_ERR_DATASET with a path. */
export function loadDataset(data: GitHubDataset, ctx: LoadContext): void {
  const gh: Gh = {
    ctx: { ...ctx, seq: 0, nowMs: ctx.epochMs },
    db: db(ctx.store),
    now: isoSeconds(ctx.epochMs),
    viewer: null,
    token: null,
    linkOrigin: 'https://api.github.com',
    badCredentials: false,
  };
  gh.db.settings.put('github', { rate_limits: data.rate_limits });
  data.users.forEach((user, i) => loadUser(gh, user, `users[${i}]`));
  data.orgs.forEach((org, i) => loadOrg(gh, org, `orgs[${i}]`));
  // Git data first for every repository, so a pull request may come from a fork listed later.
  const repos = data.repos.map((repo, i) => loadRepo(gh, repo, `repos[${i}]`));
  data.repos.forEach((repo, i) => loadConversations(gh, gh.db.repos.get(repos[i]!)!, repo, `repos[${i}]`));
}

function checkNew(gh: Gh, login: string, where: string): void {
  if (gh.db.accounts.has(accountKey(login))) throw datasetError(where, `login ${login} is defined twice`);
}

function loadUser(gh: Gh, user: UserData, where: string): void {
  checkNew(gh, user.login, where);
  const created = at(user.created_at, gh.ctx.epochMs - 365 * DAY);
  const account: AccountDoc = {
    id: takeId(gh, 'account', user.id), login: user.login, type: 'User', name: user.name ?? null,
    email: user.email ?? null, company: user.company ?? null, blog: user.blog ?? '', location: user.location ?? null,
    bio: user.bio ?? null, twitter_username: user.twitter_username ?? null, hireable: user.hireable ?? null,
    site_admin: user.site_admin ?? false, followers: user.followers ?? 0, following: user.following ?? 0,
    created_at: created, updated_at: created,
  };
  gh.db.accounts.put(accountKey(user.login), account);
  user.tokens.forEach((token, j) => {
    const secret = typeof token === 'string' ? token : token.token;
    if (gh.db.tokens.has(secret)) throw datasetError(`${where}.tokens[${j}]`, 'token is used twice');
    gh.db.tokens.put(secret, { token: secret, login: user.login, scopes: typeof token === 'string' ? DEFAULT_SCOPES : token.scopes ?? DEFAULT_SCOPES });
  });
}

function loadOrg(gh: Gh, org: OrgData, where: string): void {
  checkNew(gh, org.login, where);
  const members = org.members.map((m, j) => {
    const member = typeof m === 'string' ? { login: m, role: 'member' as const } : m;
    const user = gh.db.accounts.get(accountKey(member.login));
    if (user?.type !== 'User') throw datasetError(`${where}.members[${j}]`, `no user ${member.login}`);
    return { login: user.login, role: member.role };
  });
  const created = at(org.created_at, gh.ctx.epochMs - 730 * DAY);
  gh.db.accounts.put(accountKey(org.login), {
    id: takeId(gh, 'account', org.id), login: org.login, type: 'Organization', name: org.name ?? null,
    email: org.email ?? null, company: null, blog: org.blog ?? '', location: org.location ?? null, bio: null,
    twitter_username: null, hireable: null, site_admin: false, followers: 0, following: 0,
    created_at: created, updated_at: created, description: org.description ?? null, members,
    default_repository_permission: org.default_repository_permission,
    members_can_create_repositories: org.members_can_create_repositories,
  });
}

function loadRepo(gh: Gh, data: RepoData, where: string): string {
  const owner = gh.db.accounts.get(accountKey(data.owner));
  if (!owner) throw datasetError(`${where}.owner`, `no user or org ${data.owner}`);
  const key = repoKey(owner.login, data.name);
  if (gh.db.repos.has(key)) throw datasetError(where, `repository ${key} is defined twice`);
  let parent: RepoDoc | undefined;
  if (data.fork_of !== undefined) {
    parent = gh.db.repos.get(data.fork_of.toLowerCase());
    if (!parent) throw datasetError(`${where}.fork_of`, `no repository ${data.fork_of} earlier in the list`);
  }
  const created = at(data.created_at, gh.ctx.epochMs - 180 * DAY);
  const collaborators = data.collaborators.map((c, j) => {
    const entry = typeof c === 'string' ? { login: c, permission: 'write' as const } : c;
    const user = gh.db.accounts.get(accountKey(entry.login));
    if (user?.type !== 'User') throw datasetError(`${where}.collaborators[${j}]`, `no user ${entry.login}`);
    return { login: user.login, permission: entry.permission };
  });
  const repo: RepoDoc = {
    id: takeId(gh, 'repo', data.id), owner: owner.login, name: data.name, full_name: `${owner.login}/${data.name}`,
    description: data.description, homepage: data.homepage, private: data.private, default_branch: data.default_branch,
    topics: data.topics, language: data.language, license: data.license,
    parent: parent ? parent.full_name.toLowerCase() : null, source: parent ? parent.source ?? parent.full_name.toLowerCase() : null,
    has_issues: data.has_issues, has_wiki: data.has_wiki, has_projects: data.has_projects, archived: data.archived,
    allow_forking: data.allow_forking, stargazers_count: data.stargazers_count, collaborators,
    created_at: created, updated_at: created, pushed_at: created, last_number: 0,
  };
  gh.db.repos.put(key, repo);
  if (parent) for (const ref of repoRefs(gh, parent)) setRef(gh, repo, ref.ref, ref.sha);
  loadHistory(gh, repo, data, where);
  data.labels.forEach((label) => {
    gh.db.labels.put(labelKey(key, label.name), { id: takeId(gh, 'label', undefined), repo: key, ...label, color: label.color.toLowerCase() });
  });
  let milestoneNumber = 0;
  data.milestones.forEach((m, j) => {
    const number = m.number ?? milestoneNumber + 1;
    milestoneNumber = Math.max(milestoneNumber, number);
    const creator = m.creator ?? owner.login;
    if (!gh.db.accounts.has(accountKey(creator))) throw datasetError(`${where}.milestones[${j}].creator`, `no user ${creator}`);
    const createdAt = at(m.created_at, gh.ctx.epochMs - 30 * DAY);
    gh.db.milestones.put(milestoneKey(key, number), {
      id: takeId(gh, 'milestone', undefined), repo: key, number, title: m.title, description: m.description, state: m.state,
      due_on: m.due_on === null ? null : at(m.due_on, 0), creator, created_at: createdAt, updated_at: createdAt,
      closed_at: m.state === 'closed' ? createdAt : null,
    });
  });
  return key;
}

function loadConversations(gh: Gh, repo: RepoDoc, data: RepoData, where: string): void {
  const key = repo.full_name.toLowerCase();
  loadIssuesAndPulls(gh, repo, data, where);
  data.statuses.forEach((s, j) => {
    const sha = resolveCommitish(gh, repo, s.ref);
    if (!sha) throw datasetError(`${where}.statuses[${j}].ref`, `no branch or commit ${s.ref}`);
    const createdAt = at(s.created_at, gh.ctx.epochMs - HOUR);
    const id = takeId(gh, 'status', undefined);
    gh.db.statuses.put(id, {
      id, repo: key, sha, state: s.state, context: s.context, description: s.description,
      target_url: s.target_url, creator: s.creator ?? repo.owner, created_at: createdAt, updated_at: createdAt,
    });
  });
}
