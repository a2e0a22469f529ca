import { z } from 'zod';
import { jsonResponse } from '../core/http.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import type { StripeCtx } from './context.js';

/**
 * The documentation search the MCP server's `search_stripe_documentation` tool posts to
 * (`https://ai.stripe.com/search`, JSON `{question, language}` → `{sources: [...]}`), answered
 * from the dataset's `docs`: pages ranked by how many of the question's words they contain.
 */
const SearchBody = z.object({ question: z.string().min(1), language: z.string().optional() }).passthrough();

export const docsOperations: Operation<StripeCtx>[] = [
  operation('docs.search', rest('POST', '/search'), (call, c: StripeCtx) => {
    const body = call.body as z.infer<typeof SearchBody>;
    const words = [...new Set(body.question.toLowerCase().match(/[a-z0-9_]{3,}/g) ?? [])];
    const scored = c.db.docs.values().map((doc, i) => {
      const text = `${doc.title} ${doc.content}`.toLowerCase();
      return { doc, i, score: words.filter((w) => text.includes(w)).length };
    }).filter((s) => s.score > 0).sort((a, b) => b.score - a.score || a.i - b.i).slice(0, 5);
    return jsonResponse(200, { question: body.question, sources: scored.map(({ doc }) => ({ title: doc.title, url: doc.url, content: doc.content })) });
  }, { input: { body: SearchBody } }),
];
