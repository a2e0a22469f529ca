import { z } from 'zod';
import { jsonResponse, ServiceRequest } from '../core/http.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import type { AtlasCtx } from './context.js';

/**
 * MongoDB Assistant's knowledge base (knowledge.mongodb.com/api/v1), which the server's
 * `list-knowledge-sources` and `search-knowledge` tools call: the scenario's sources and
 * documents, searched by the words of the query (deterministic: more matching words first, then
 * dataset order). Requests to that host are routed under `/_knowledge`.
 */
export const KNOWLEDGE_HOST = 'knowledge.mongodb.com';

export function knowledgeRewrite(req: ServiceRequest): ServiceRequest {
  const host = (req.header('host') ?? '').split(':')[0];
  return host === KNOWLEDGE_HOST ? new ServiceRequest(req.method, `/_knowledge${req.target}`, req.headers, req.body) : req;
}

const SearchBody = z.object({
  query: z.string().min(1),
  limit: z.number().int().min(1).max(100).default(5),
  dataSources: z.array(z.object({ name: z.string(), versionLabel: z.string().optional() }).strict()).optional(),
}).strict();
type SearchBody = z.infer<typeof SearchBody>;

const words = (text: string) => new Set(text.toLowerCase().split(/[^a-z0-9$]+/).filter((w) => w.length > 2));

export const knowledgeOperations: Operation<AtlasCtx>[] = [
  operation<AtlasCtx, '/_knowledge/api/v1/content/sources'>('listKnowledgeSources', rest('GET', '/_knowledge/api/v1/content/sources'), (_call, c) =>
    jsonResponse(200, { dataSources: c.db.knowledgeSources.values() })),

  operation<AtlasCtx, '/_knowledge/api/v1/content/search', Record<string, string>, SearchBody>('searchKnowledge', rest('POST', '/_knowledge/api/v1/content/search'), (call, c) => {
    const wanted = words(call.body.query);
    const sources = call.body.dataSources;
    const current = (name: string) => c.db.knowledgeSources.get(name)?.versions.find((v) => v.isCurrent)?.label;
    const results = c.db.knowledgeDocuments.values()
      .filter((d) => sources === undefined || sources.some((s) => s.name === d.dataSource && (d.version === undefined || d.version === (s.versionLabel ?? current(s.name) ?? d.version))))
      .map((d, order) => ({ d, order, score: [...words(`${d.title} ${d.text} ${d.tags.join(' ')}`)].filter((w) => wanted.has(w)).length }))
      .filter((r) => r.score > 0)
      .sort((a, b) => b.score - a.score || a.order - b.order)
      .slice(0, call.body.limit)
      .map(({ d }) => ({ url: d.url, title: d.title, text: d.text, metadata: { sourceName: d.dataSource, ...(d.version ? { version: d.version } : {}), tags: d.tags } }));
    return jsonResponse(200, { results });
  }, { input: { body: SearchBody } }),
];
