import type { ServiceResponse } from '../core/http.js';
import type { Call } from '../kit/operation.js';
import { operation, rest } from '../kit/operation.js';
import type { EsCtx } from './context.js';
import { docsOf, resolveIndices } from './indices.js';
import { esJson, parsingError } from './model.js';
import { runSearch } from './search.js';

/** `_search` and `_count` over an index expression (GET with a body, as Elasticsearch allows, or POST). */

function run(call: Call<Record<string, string>>, c: EsCtx, expression: string | undefined, countOnly: boolean): ServiceResponse {
  const decoded = call.decoded;
  if (decoded.kind !== 'empty' && decoded.kind !== 'json') throw parsingError('request body is required to be a JSON object');
  const body = decoded.kind === 'json' ? decoded.value : {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw parsingError('Expected [START_OBJECT] but found [' + (Array.isArray(body) ? 'START_ARRAY' : 'VALUE_STRING') + ']');
  const params = Object.fromEntries(call.req.query);
  const indices = resolveIndices(c, expression, { ignoreUnavailable: params.ignore_unavailable === 'true' });
  const result = runSearch({ indices, docsOf: (index) => docsOf(c, index), body: body as Record<string, unknown>, params, nowMs: c.ctx.nowMs, countOnly });
  return esJson(200, result, c.accept);
}

export const searchOperations = (['GET', 'POST'] as const).flatMap((method) => [
  operation<EsCtx, '/_search'>('search', rest(method, '/_search'), (call, c) => run(call, c, undefined, false), { lazy: true }),
  operation<EsCtx, '/:index/_search'>('search', rest(method, '/:index/_search'), (call, c) => run(call, c, call.params.index, false), { lazy: true }),
  operation<EsCtx, '/_count'>('count', rest(method, '/_count'), (call, c) => run(call, c, undefined, true), { lazy: true }),
  operation<EsCtx, '/:index/_count'>('count', rest(method, '/:index/_count'), (call, c) => run(call, c, call.params.index, true), { lazy: true }),
]);
