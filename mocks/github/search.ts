import type { z } from 'zod';
import type { ServiceRequest } from '../core/http.js';
import type { Call } from '../kit/operation.js';
import { atLeast, permission, type Gh } from './context.js';
import { GitHubError } from './errors.js';
import { blobBytes, flattenTree, getBlob, getCommit } from './git/objects.js';
import { commentsOf, forksOf, issueKey, type AccountDoc, type IssueDoc, type RepoDoc } from './model.js';
import { op } from './operation.js';
import { githubQuery, queryEnum, queryRequired } from './params.js';
import { issue } from './render/issues.js';
import { minimalRepo, repository } from './render/repos.js';
import { simpleUser } from './render/users.js';
import { branchSha } from './repo-git.js';
import { ok, paginate } from './respond.js';
import { allHold, haystack, inRange, parseQuery, termHits, termHitsIn, values, type SearchQuery } from './search-query.js';
import { WEB, encodePath, repoApi } from './urls.js';

/** Search: repositories, code (default branches), issues and pull requests, users. */
/** Every search takes `q` (required) and `order`; `sort` is each search's own, read raw as GitHub ignores a bad one. */
const searchQuery = githubQuery({ q: queryRequired('Search'), order: queryEnum(['asc', 'desc'] as const, 'Search') });
type SearchParams = z.infer<typeof searchQuery>;
type SearchCall = Call<Record<string, never>, SearchParams>;

function query(call: SearchCall): SearchQuery {
  return parseQuery(call.query.q);
}

interface Hit<T> { item: T; score: number; sortKey: number | string }

function respond<T>(gh: Gh, req: ServiceRequest, query: SearchParams, hits: Hit<T>[], sorted: boolean, render: (item: T, score: number) => unknown, extra: Record<string, unknown> = {}) {
  const order = query.order ?? 'desc';
  hits.sort((a, b) => {
    const x = sorted ? a.sortKey : a.score;
    const y = sorted ? b.sortKey : b.score;
    const c = x < y ? -1 : x > y ? 1 : 0;
    return sorted && order === 'asc' ? c : -c;
  });
  const page = paginate(gh, req, hits, { cap: 1000 });
  return ok({ total_count: hits.length, incomplete_results: false, items: page.items.map((h) => render(h.item, h.score)), ...extra }, page.headers);
}

function visibleRepos(gh: Gh): RepoDoc[] {
  return gh.db.repos.filter((r) => atLeast(permission(gh, r), 'read'));
}

/** `user:`, `org:`, `owner:` and `repo:` qualifiers against a repository. */
function repoScope(q: SearchQuery, repo: RepoDoc): boolean {
  return allHold(q, ['user', 'org', 'owner', 'repo'], (key, value) =>
    key === 'repo' ? repo.full_name.toLowerCase() === value.toLowerCase() : repo.owner.toLowerCase() === value.toLowerCase());
}

const LANGUAGES: Record<string, string[]> = {
  typescript: ['ts', 'tsx'], javascript: ['js', 'mjs', 'cjs', 'jsx'], python: ['py'], go: ['go'], rust: ['rs'],
  markdown: ['md'], json: ['json'], yaml: ['yml', 'yaml'], java: ['java'], ruby: ['rb'], shell: ['sh'],
};

function searchRepositories(gh: Gh, req: ServiceRequest, call: SearchCall) {
  const q = query(call);
  const sort = req.query.get('sort');
  const where = (values(q, 'in')[0] ?? 'name,description,topics').toLowerCase().split(',');
  const forks = values(q, 'fork')[0];
  const hits: Hit<RepoDoc>[] = [];
  for (const repo of visibleRepos(gh)) {
    if (!repoScope(q, repo)) continue;
    if (repo.parent !== null && forks !== 'true' && forks !== 'only') continue;
    if (repo.parent === null && forks === 'only') continue;
    const ok_ = allHold(q, ['language', 'is', 'topic', 'archived', 'stars'], (key, value) => {
      const v = value.toLowerCase();
      if (key === 'language') return (repo.language ?? '').toLowerCase() === v;
      if (key === 'is') return v === 'public' ? !repo.private : v === 'private' ? repo.private : v === 'fork' ? repo.parent !== null : true;
      if (key === 'topic') return repo.topics.some((t) => t.toLowerCase() === v);
      if (key === 'archived') return String(repo.archived) === v;
      return inRange(repo.stargazers_count, value);
    });
    if (!ok_) continue;
    const hitsCount = termHits(q.terms, where.includes('name') ? repo.full_name : null,
      where.includes('description') ? repo.description : null, where.includes('topics') ? repo.topics.join(' ') : null);
    if (hitsCount === null) continue;
    const exact = q.terms.includes(repo.name.toLowerCase()) ? 10 : 0;
    const sortKey = sort === 'stars' ? repo.stargazers_count : sort === 'forks' ? forksOf(gh.db).count(repo.full_name.toLowerCase())
      : sort === 'updated' ? repo.updated_at : 0;
    hits.push({ item: repo, score: 1 + hitsCount + exact, sortKey });
  }
  return respond(gh, req, call.query, hits, sort === 'stars' || sort === 'forks' || sort === 'updated', (repo, score) => Object.assign(repository(gh, repo), { score }));
}

function searchCode(gh: Gh, req: ServiceRequest, call: SearchCall) {
  if (!gh.viewer) {
    throw new GitHubError(401, 'Requires authentication', {
      errors: [{ message: 'Must be authenticated to access the code search API', resource: 'Search', field: 'q', code: 'invalid' }],
    });
  }
  const q = query(call);
  const inPath = (values(q, 'in')[0] ?? 'file').toLowerCase().split(',');
  const hits: Hit<{ repo: RepoDoc; commit: string; path: string; sha: string }>[] = [];
  for (const repo of visibleRepos(gh)) {
    if (!repoScope(q, repo) || (repo.parent !== null && values(q, 'fork')[0] !== 'true')) continue;
    const commit = branchSha(gh, repo, repo.default_branch);
    if (!commit) continue;
    for (const [path, entry] of flattenTree(gh.db.objects, getCommit(gh.db.objects, commit)!.tree)) {
      if (entry.type !== 'blob') continue;
      const name = path.slice(path.lastIndexOf('/') + 1);
      const ext = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1).toLowerCase() : '';
      const scoped = allHold(q, ['path', 'filename', 'extension', 'language'], (key, value) => {
        const v = value.toLowerCase();
        if (key === 'path') return path.toLowerCase().startsWith(v.replace(/^\//, '')) || path.toLowerCase().includes(v);
        if (key === 'filename') return name.toLowerCase() === v;
        if (key === 'extension') return ext === v.replace(/^\./, '');
        return (LANGUAGES[v] ?? [v]).includes(ext);
      });
      if (!scoped) continue;
      const blob = getBlob(gh.db.objects, entry.sha);
      const text = blob && !blobBytes(blob).includes(0) ? blobBytes(blob).toString('utf8') : '';
      const hitsCount = termHits(q.terms, inPath.includes('file') ? text : null, inPath.includes('path') ? path : null);
      if (hitsCount === null) continue;
      hits.push({ item: { repo, commit, path, sha: entry.sha }, score: 1 + hitsCount, sortKey: 0 });
    }
  }
  return respond(gh, req, call.query, hits, false, ({ repo, commit, path, sha }, score) => ({
    name: path.slice(path.lastIndexOf('/') + 1),
    path,
    sha,
    url: `${repoApi(repo.full_name)}/contents/${encodePath(path)}?ref=${commit}`,
    git_url: `${repoApi(repo.full_name)}/git/blobs/${sha}`,
    html_url: `${WEB}/${repo.full_name}/blob/${commit}/${encodePath(path)}`,
    repository: minimalRepo(gh, repo),
    score,
  }));
}

function issueMatches(gh: Gh, q: SearchQuery, doc: IssueDoc): boolean {
  const merged = doc.pull ? gh.db.pulls.get(issueKey(doc.repo, doc.number))?.merged ?? false : false;
  return allHold(q, ['is', 'type', 'state', 'author', 'assignee', 'label', 'no', 'mentions', 'milestone', 'created', 'updated', 'closed', 'comments'], (key, value) => {
    const v = value.toLowerCase();
    switch (key) {
      case 'is':
      case 'type':
      case 'state':
        if (v === 'issue') return !doc.pull;
        if (v === 'pr' || v === 'pull-request') return doc.pull;
        if (v === 'merged') return merged;
        if (v === 'unmerged') return doc.pull && !merged;
        if (v === 'locked') return doc.locked;
        return v === 'open' || v === 'closed' ? doc.state === v : true;
      case 'author': return doc.user.toLowerCase() === v;
      case 'assignee': return doc.assignees.some((a) => a.toLowerCase() === v);
      case 'label': return v.split(',').some((l) => doc.labels.some((name) => name.toLowerCase() === l.trim()));
      case 'no': return v === 'label' ? doc.labels.length === 0 : v === 'assignee' ? doc.assignees.length === 0 : v === 'milestone' ? doc.milestone === null : true;
      case 'mentions': return (doc.body ?? '').toLowerCase().includes(`@${v}`);
      case 'milestone': {
        const m = doc.milestone === null ? undefined : gh.db.milestones.get(`${doc.repo}:${doc.milestone}`);
        return m?.title.toLowerCase() === v;
      }
      case 'created': return inRange(doc.created_at, value);
      case 'updated': return inRange(doc.updated_at, value);
      case 'closed': return doc.closed_at !== null && inRange(doc.closed_at, value);
      default: return inRange(doc.comments, value);
    }
  });
}

/**
 * An issue's searchable text (the `in:` fields, its comments in store order), lowercased. Kept per
 * issue document (a new one on every write) while its comments are unchanged: a search reads
 * every issue's text, and building it anew each time was most of a search's cost in a long trial.
 */
const haystacks = new WeakMap<IssueDoc, { key: string; where: string; comments: number; text: string }>();

function issueText(gh: Gh, doc: IssueDoc, where: readonly string[], fields: string): string {
  const comments = commentsOf(gh.db);
  const kept = haystacks.get(doc);
  const key = kept?.key ?? issueKey(doc.repo, doc.number);
  const version = comments.version(key);
  if (kept && kept.where === fields && kept.comments === version) return kept.text;
  const texts = [where.includes('title') ? doc.title : null, where.includes('body') ? doc.body : null,
    ...(where.includes('comments') ? comments.docs(key).map((c) => c.body) : [])];
  const text = haystack(texts);
  haystacks.set(doc, { key, where: fields, comments: version, text });
  return text;
}

function searchIssues(gh: Gh, req: ServiceRequest, call: SearchCall) {
  const q = query(call);
  const sort = req.query.get('sort');
  const where = (values(q, 'in')[0] ?? 'title,body,comments').toLowerCase().split(',');
  const fields = where.join(',');
  const repos = new Map(visibleRepos(gh).filter((r) => repoScope(q, r)).map((r) => [r.full_name.toLowerCase(), r]));
  const hits: Hit<{ repo: RepoDoc; doc: IssueDoc }>[] = [];
  for (const doc of gh.db.issues.values()) {
    const repo = repos.get(doc.repo);
    if (!repo || !issueMatches(gh, q, doc)) continue;
    const hitsCount = q.terms.length === 0 ? 0 : termHitsIn(q.terms, issueText(gh, doc, where, fields));
    if (hitsCount === null) continue;
    const sortKey = sort === 'comments' ? doc.comments : sort === 'created' ? doc.created_at : sort === 'updated' ? doc.updated_at : 0;
    hits.push({ item: { repo, doc }, score: 1 + hitsCount + doc.number / 1e6, sortKey });
  }
  return respond(gh, req, call.query, hits, sort === 'comments' || sort === 'created' || sort === 'updated', ({ repo, doc }, score) => Object.assign(issue(gh, repo, doc), { score: Math.floor(score) }), { search_type: 'lexical' });
}

function searchUsers(gh: Gh, req: ServiceRequest, call: SearchCall) {
  const q = query(call);
  const sort = req.query.get('sort');
  const where = (values(q, 'in')[0] ?? 'login,name,email').toLowerCase().split(',');
  const hits: Hit<AccountDoc>[] = [];
  for (const account of gh.db.accounts.values()) {
    const repos = gh.db.repos.filter((r) => r.owner === account.login && !r.private).length;
    const matches = allHold(q, ['type', 'repos', 'followers', 'location', 'created'], (key, value) => {
      const v = value.toLowerCase();
      if (key === 'type') return v === 'org' ? account.type === 'Organization' : account.type === 'User';
      if (key === 'repos') return inRange(repos, value);
      if (key === 'followers') return inRange(account.followers, value);
      if (key === 'location') return (account.location ?? '').toLowerCase().includes(v);
      return inRange(account.created_at, value);
    });
    if (!matches) continue;
    const hitsCount = termHits(q.terms, where.includes('login') ? account.login : null, where.includes('name') ? account.name : null,
      where.includes('email') ? account.email : null);
    if (hitsCount === null) continue;
    const sortKey = sort === 'followers' ? account.followers : sort === 'repositories' ? repos : sort === 'joined' ? account.created_at : 0;
    hits.push({ item: account, score: 1 + hitsCount, sortKey });
  }
  return respond(gh, req, call.query, hits, sort === 'followers' || sort === 'repositories' || sort === 'joined', (account, score) => Object.assign(simpleUser(gh, account), { score }));
}

export const searchRoutes = [
  op('search.repos', 'GET', '/search/repositories', 'search/search#search-repositories', (req, _p, gh, call) => searchRepositories(gh, req, call), { query: searchQuery }),
  op('search.code', 'GET', '/search/code', 'search/search#search-code', (req, _p, gh, call) => searchCode(gh, req, call), { query: searchQuery }),
  op('search.issuesAndPullRequests', 'GET', '/search/issues', 'search/search#search-issues-and-pull-requests', (req, _p, gh, call) => searchIssues(gh, req, call), { query: searchQuery }),
  op('search.users', 'GET', '/search/users', 'search/search#search-users', (req, _p, gh, call) => searchUsers(gh, req, call), { query: searchQuery }),
];
