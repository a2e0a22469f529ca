import { wildcardRegex } from './fields.js';

/**
 * `_source` filtering: `false`, a pattern or list of patterns to include, or
 * `{includes, excludes}`; patterns are dotted paths with `*`.
 */
export type SourceFilter = false | { includes: string[]; excludes: string[] };

const list = (value: unknown): string[] => (value === undefined || value === null ? [] : Array.isArray(value) ? value.map(String) : String(value).split(',').filter(Boolean));

export function sourceFilterOf(body: unknown, query: { includes?: string; excludes?: string; source?: string }): SourceFilter {
  if (query.source === 'false' || body === false) return false;
  let includes = list(query.source && query.source !== 'true' ? query.source : undefined);
  let excludes: string[] = [];
  if (typeof body === 'string' || Array.isArray(body)) includes = list(body);
  else if (typeof body === 'object' && body !== null) {
    const spec = body as Record<string, unknown>;
    includes = list(spec.includes ?? spec.include);
    excludes = list(spec.excludes ?? spec.exclude);
  }
  includes.push(...list(query.includes));
  excludes.push(...list(query.excludes));
  return { includes, excludes };
}

export function filterSource(source: Record<string, unknown>, filter: Exclude<SourceFilter, false>): Record<string, unknown> {
  if (filter.includes.length === 0 && filter.excludes.length === 0) return source;
  const includes = filter.includes.map((p) => wildcardRegex(p));
  const excludes = filter.excludes.map((p) => wildcardRegex(p));
  return pick(source, '', includes, excludes) as Record<string, unknown>;
}

function pick(node: Record<string, unknown>, prefix: string, includes: RegExp[], excludes: RegExp[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    const path = prefix + key;
    if (excludes.some((re) => re.test(path))) continue;
    const included = includes.length === 0 || includes.some((re) => re.test(path));
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const inner = pick(value as Record<string, unknown>, `${path}.`, included ? [] : includes, excludes);
      if (included || Object.keys(inner).length > 0) out[key] = inner;
      continue;
    }
    if (included) out[key] = value;
  }
  return out;
}
