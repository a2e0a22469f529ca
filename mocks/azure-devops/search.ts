import { jsonResponse } from '../core/http.js';
import { operation, type Operation } from '../kit/operation.js';
import { identityRef, userOf, type AdoCtx } from './context.js';
import { ado } from './locations.js';
import { badRequest } from './model.js';

/**
 * Search (almsearch.dev.azure.com `_apis/search/*searchresults`): code, wiki, work items and
 * commits. A document matches when every term of `searchText` occurs in it (case-insensitive,
 * `"quoted phrases"` as one term); results come newest first, with `$skip`/`$top`, the filters
 * the MCP server sends, and highlights of the matched terms.
 */

interface SearchBody { searchText?: unknown; $skip?: number; $top?: number; filters?: Record<string, unknown>; includeFacets?: boolean }

function termsOf(text: unknown): string[] {
  if (typeof text !== 'string' || text.trim() === '') throw badRequest('The searchText is required.');
  const out: string[] = [];
  for (const m of text.matchAll(/"([^"]+)"|(\S+)/g)) {
    const t = (m[1] ?? m[2]!).toLowerCase();
    if (!['and', 'or'].includes(t)) out.push(t.replace(/\*$/, ''));
  }
  return out;
}

const matchesAll = (terms: string[], ...texts: unknown[]) => {
  const hay = texts.map((t) => String(t ?? '')).join('\n').toLowerCase();
  return terms.every((t) => hay.includes(t));
};

const filterOf = (body: SearchBody, key: string): string[] | undefined => {
  const v = body.filters?.[key];
  return Array.isArray(v) ? v.map((x) => String(x).toLowerCase()) : undefined;
};

const highlight = (terms: string[], text: string) => {
  const lower = text.toLowerCase();
  return terms.filter((t) => lower.includes(t)).map((t) => {
    const at = lower.indexOf(t);
    return `${text.slice(Math.max(0, at - 40), at)}<highlighthit>${text.slice(at, at + t.length)}</highlighthit>${text.slice(at + t.length, at + t.length + 40)}`;
  });
};

function page<T>(all: T[], body: SearchBody): T[] {
  const skip = Number(body.$skip ?? 0);
  const top = Number(body.$top ?? 10);
  return all.slice(skip, skip + top);
}

export const searchOperations: Operation<AdoCtx>[] = [
  operation<AdoCtx, '/:org/:project/:team/_apis/search/workitemsearchresults'>('search.fetchWorkItemSearchResults', ado('POST', '/search/workitemsearchresults'), (call, c) => {
    const body = (call.req.json() ?? {}) as SearchBody;
    const terms = termsOf(body.searchText);
    const projects = filterOf(body, 'System.TeamProject');
    const types = filterOf(body, 'System.WorkItemType');
    const states = filterOf(body, 'System.State');
    const areas = filterOf(body, 'System.AreaPath');
    const assigned = filterOf(body, 'System.AssignedTo');
    const hits = c.db.work_items.values().filter((w) => {
      const f = w.fields;
      const assignee = f['System.AssignedTo'] ? `${userOf(c, String(f['System.AssignedTo']))?.displayName ?? ''} <${f['System.AssignedTo']}>`.toLowerCase() : '';
      return matchesAll(terms, f['System.Title'], f['System.Description'], f['Microsoft.VSTS.TCM.ReproSteps'], f['System.Tags'], w.id)
        && (projects === undefined || projects.includes(String(f['System.TeamProject']).toLowerCase()))
        && (types === undefined || types.includes(String(f['System.WorkItemType']).toLowerCase()))
        && (states === undefined || states.includes(String(f['System.State']).toLowerCase()))
        && (areas === undefined || areas.some((a) => String(f['System.AreaPath']).toLowerCase().startsWith(a)))
        && (assigned === undefined || assigned.some((a) => assignee.includes(a)));
    }).sort((a, b) => String(b.fields['System.ChangedDate']).localeCompare(String(a.fields['System.ChangedDate'])) || b.id - a.id);
    return jsonResponse(200, {
      count: hits.length,
      results: page(hits, body).map((w) => {
        const f = w.fields;
        const p = c.db.projects.get(w.project)!;
        return {
          project: { id: p.id, name: p.name },
          fields: { 'system.id': String(w.id), 'system.workitemtype': f['System.WorkItemType'], 'system.title': f['System.Title'],
            'system.assignedto': f['System.AssignedTo'] ? `${identityRef(c, String(f['System.AssignedTo']))!.displayName} <${f['System.AssignedTo']}>` : '',
            'system.state': f['System.State'], 'system.tags': f['System.Tags'] ?? '', 'system.rev': String(w.rev), 'system.createddate': f['System.CreatedDate'], 'system.changeddate': f['System.ChangedDate'] },
          hits: [{ fieldReferenceName: 'system.title', highlights: highlight(terms, String(f['System.Title'])) }].filter((h) => h.highlights.length > 0),
          url: `${c.base}/_apis/wit/workItems/${w.id}`,
        };
      }),
      infoCode: 0, facets: body.includeFacets ? { 'System.TeamProject': [], 'System.WorkItemType': [], 'System.State': [] } : {},
    });
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/search/codesearchresults'>('search.fetchCodeSearchResults', ado('POST', '/search/codesearchresults'), (call, c) => {
    const body = (call.req.json() ?? {}) as SearchBody;
    const terms = termsOf(body.searchText);
    const projects = filterOf(body, 'Project');
    const repos = filterOf(body, 'Repository');
    const paths = filterOf(body, 'Path');
    const branches = filterOf(body, 'Branch');
    const hits: { repo: string; branch: string; commit: string; path: string; content: string }[] = [];
    for (const ref of c.db.refs.values().filter((r) => r.name.startsWith('refs/heads/')).sort((a, b) => a.repo.localeCompare(b.repo) || a.name.localeCompare(b.name))) {
      const repo = c.db.repositories.get(ref.repo)!;
      const branch = ref.name.slice('refs/heads/'.length);
      if (branches === undefined ? branch !== repo.defaultBranch : !branches.includes(branch.toLowerCase())) continue;
      if (repos !== undefined && !repos.includes(repo.name.toLowerCase())) continue;
      if (projects !== undefined && !projects.includes(c.db.projects.get(repo.project)!.name.toLowerCase())) continue;
      const commit = c.db.commits.get(`${repo.id}:${ref.objectId}`);
      for (const [path, content] of Object.entries(commit?.files ?? {}).sort()) {
        if (paths !== undefined && !paths.some((p) => `/${path}`.toLowerCase().startsWith(p.startsWith('/') ? p : `/${p}`))) continue;
        if (matchesAll(terms, content, path)) hits.push({ repo: repo.id, branch, commit: ref.objectId, path, content });
      }
    }
    return jsonResponse(200, {
      count: hits.length,
      results: page(hits, body).map((h) => {
        const repo = c.db.repositories.get(h.repo)!;
        const p = c.db.projects.get(repo.project)!;
        const lower = h.content.toLowerCase();
        return {
          fileName: h.path.split('/').pop(), path: `/${h.path}`,
          matches: { content: terms.filter((t) => lower.includes(t)).map((t) => ({ charOffset: lower.indexOf(t), length: t.length, line: 0, column: 0, codeSnippet: null, type: 'content' })), fileName: [] },
          collection: { name: c.org.name }, project: { name: p.name, id: p.id }, repository: { name: repo.name, id: repo.id, type: 'git' },
          versions: [{ branchName: h.branch, changeId: h.commit }], contentId: c.ctx.ids.opaque(`content:${h.content}`, 0, 40),
        };
      }),
      infoCode: 0, facets: {},
    });
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/search/wikisearchresults'>('search.fetchWikiSearchResults', ado('POST', '/search/wikisearchresults'), (call, c) => {
    const body = (call.req.json() ?? {}) as SearchBody;
    const terms = termsOf(body.searchText);
    const projects = filterOf(body, 'Project');
    const wikis = filterOf(body, 'Wiki');
    const hits = c.db.pages.values().filter((pg) => {
      const w = c.db.wikis.get(pg.wiki)!;
      const p = c.db.projects.get(w.project)!;
      return matchesAll(terms, pg.content, pg.path) && (projects === undefined || projects.includes(p.name.toLowerCase())) && (wikis === undefined || wikis.includes(w.name.toLowerCase()));
    }).sort((a, b) => a.path.localeCompare(b.path));
    return jsonResponse(200, {
      count: hits.length,
      results: page(hits, body).map((pg) => {
        const w = c.db.wikis.get(pg.wiki)!;
        const p = c.db.projects.get(w.project)!;
        return {
          fileName: `${pg.path.split('/').pop()!.replace(/ /g, '-')}.md`, path: `${pg.path.replace(/ /g, '-')}.md`, collection: { name: c.org.name },
          project: { id: p.id, name: p.name, visibility: null }, wiki: { id: w.id, mappingPath: '/', name: w.name, version: 'wikiMaster' },
          contentId: c.ctx.ids.opaque(`content:${pg.content}`, 0, 40), hits: [{ fieldReferenceName: 'content', highlights: highlight(terms, pg.content) }],
        };
      }),
      infoCode: 0, facets: {},
    });
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/search/commitSearchResults'>('search.fetchCommitSearchResults', ado('POST', '/search/commitSearchResults'), (call, c) => {
    const body = (call.req.json() ?? {}) as SearchBody & { $orderBy?: { field: string; sortOrder: string }[] };
    const terms = termsOf(body.searchText);
    const projects = filterOf(body, 'projectName');
    const repos = filterOf(body, 'repositoryName');
    const branches = filterOf(body, 'branchName');
    const authors = filterOf(body, 'authorName');
    const from = (body.filters?.commitStartDate as string[] | undefined)?.[0];
    const to = (body.filters?.commitEndDate as string[] | undefined)?.[0];
    const hits = c.db.commits.values().filter((x) => {
      const repo = c.db.repositories.get(x.repo)!;
      const p = c.db.projects.get(repo.project)!;
      const author = userOf(c, x.author)?.displayName ?? x.author;
      return matchesAll(terms, x.message) && (projects === undefined || projects.includes(p.name.toLowerCase())) && (repos === undefined || repos.includes(repo.name.toLowerCase()))
        && (branches === undefined || branches.includes(x.branch.toLowerCase())) && (authors === undefined || authors.includes(author.toLowerCase()))
        && (from === undefined || x.date >= new Date(from).toISOString()) && (to === undefined || x.date.slice(0, 10) <= to.slice(0, 10));
    }).sort((a, b) => b.date.localeCompare(a.date));
    if (body.$orderBy?.[0]?.sortOrder?.toUpperCase() === 'ASC') hits.reverse();
    return jsonResponse(200, {
      count: hits.length,
      results: page(hits, body).map((x) => {
        const repo = c.db.repositories.get(x.repo)!;
        const p = c.db.projects.get(repo.project)!;
        const u = userOf(c, x.author);
        return { commitId: x.commitId, comment: x.message, author: { name: u?.displayName ?? x.author, email: u?.uniqueName ?? x.author, date: x.date }, committer: { name: u?.displayName ?? x.author, email: u?.uniqueName ?? x.author, date: x.date },
          branchName: x.branch, repository: { id: repo.id, name: repo.name }, project: { id: p.id, name: p.name }, hits: [{ fieldReferenceName: 'comment', highlights: highlight(terms, x.message) }] };
      }),
      infoCode: 0, facets: {},
    });
  }),
];
