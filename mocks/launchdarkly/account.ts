import { z } from 'zod';
import { jsonResponse } from '../core/http.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import { projectOf, type LdCtx } from './context.js';
import { API, projectEnvironments, renderAudit, renderEnvironment } from './model.js';

/** Environments of a project, the audit log and code-reference repositories. */

const EnvQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).optional(),
  offset: z.coerce.number().int().min(0).optional(),
  filter: z.string().optional(),
  sort: z.string().optional(),
}).passthrough();

const AuditQuery = z.object({
  before: z.coerce.number().int().optional(),
  after: z.coerce.number().int().optional(),
  q: z.string().optional(),
  limit: z.coerce.number().int().min(1).max(20).optional(),
  spec: z.string().optional(),
}).passthrough();

const self = (href: string) => ({ self: { href, type: 'application/json' } });

export const accountOperations: Operation<LdCtx>[] = [
  operation<LdCtx, '/api/v2/projects/:projectKey/environments', z.infer<typeof EnvQuery>>('getEnvironmentsByProject', rest('GET', '/api/v2/projects/:projectKey/environments'), (call, c) => {
    const project = projectOf(c, call.params.projectKey);
    let envs = projectEnvironments(c.db, project);
    // `filter=query:prod,tags:critical` (LaunchDarkly's documented fields: query and tags).
    for (const part of (call.query.filter ?? '').split(',').filter(Boolean)) {
      const [field, value = ''] = part.split(':');
      if (field === 'query') envs = envs.filter((e) => e.key.includes(value.toLowerCase()) || e.name.toLowerCase().includes(value.toLowerCase()));
      if (field === 'tags') envs = envs.filter((e) => value.split('+').every((t) => e.tags.includes(t)));
    }
    if (call.query.sort === 'name' || call.query.sort === '-name') {
      envs = [...envs].sort((a, b) => a.name.localeCompare(b.name) * (call.query.sort === '-name' ? -1 : 1));
    }
    const offset = call.query.offset ?? 0;
    const items = envs.slice(offset, offset + (call.query.limit ?? 20));
    return jsonResponse(200, { _links: self(`${API}/projects/${project.key}/environments`), totalCount: envs.length, items: items.map(renderEnvironment) });
  }, { input: { query: EnvQuery } }),

  operation<LdCtx, '/api/v2/auditlog', z.infer<typeof AuditQuery>>('getAuditLogEntries', rest('GET', '/api/v2/auditlog'), (call, c) => {
    const q = call.query;
    const text = q.q?.toLowerCase();
    const entries = c.db.audit_log.values()
      .filter((e) => (q.before === undefined || e.date < q.before) && (q.after === undefined || e.date > q.after))
      .filter((e) => !text || `${e.name} ${e.description} ${e.kind}`.toLowerCase().includes(text))
      .filter((e) => !q.spec || specMatches(q.spec, e.resource))
      .sort((a, b) => b.date - a.date || b.seq - a.seq)
      .slice(0, q.limit ?? 10);
    return jsonResponse(200, { items: entries.map(renderAudit), _links: self(`${API}/auditlog`) });
  }, { input: { query: AuditQuery } }),

  operation<LdCtx, '/api/v2/code-refs/repositories'>('getRepositories', rest('GET', '/api/v2/code-refs/repositories'), (_call, c) => {
    const items = c.db.repositories.values().map((r) => ({
      name: r.name, type: r.type, defaultBranch: r.defaultBranch, enabled: r.enabled, version: r.version,
      ...(r.sourceLink ? { sourceLink: r.sourceLink } : {}),
      _links: self(`${API}/code-refs/repositories/${r.name}`),
    }));
    return jsonResponse(200, { _links: self(`${API}/code-refs/repositories`), items });
  }),
];

/** A resource specifier such as `proj/default:env/production:flag/*`: `*` matches any one name. */
function specMatches(spec: string, resource: string): boolean {
  const want = spec.split(':');
  const have = resource.split(':');
  return want.every((part) => {
    const [kind, name = '*'] = part.split('/');
    const found = have.find((h) => h.startsWith(`${kind}/`));
    if (!found) return false;
    const value = found.slice(kind!.length + 1);
    return name === '*' || value === '*' || value.split(', ').includes(name);
  });
}
