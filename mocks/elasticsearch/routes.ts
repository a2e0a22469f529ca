import type { Operation } from '../kit/operation.js';

/**
 * Elasticsearch names an API once for all its routes (`search` is `GET|POST /_search` and
 * `GET|POST /{index}/_search`); the kit wants one operation per route and unique names. The
 * first route keeps the API's name, the others are `name#2`, `name#3`…, and every one reports
 * the API's name to the journal, fault rules and grading.
 */
export function sameApi<C>(operations: readonly Operation<C>[]): Operation<C>[] {
  const seen = new Map<string, number>();
  return operations.map((op) => {
    const n = (seen.get(op.name) ?? 0) + 1;
    seen.set(op.name, n);
    if (n === 1) return op;
    const api = op.name;
    return { ...op, name: `${api}#${n}`, nameOf: () => api };
  });
}

/** The API names of a service's operations (`search`, not `search#2`). */
export function apiNames<C>(operations: readonly Operation<C>[]): string[] {
  return [...new Set(operations.map((op) => op.name.replace(/#\d+$/, '')))];
}
