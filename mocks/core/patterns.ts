/**
 * The one pattern language of toolbench, for paths and operation names, used by fault rules,
 * grading's required and forbidden calls, and audit. (Routes of a service are matched by the
 * router, whose `:name` and `*rest` are the same segments, plus the names they bind.)
 *
 * Paths: `:name` and `*` match one non-empty segment, `**` any number of segments (none
 * included), `*` inside a segment any characters but `/`. Query strings are never part of a path.
 * Names: `*` matches any characters (`issues.*`, `Mutation.*`, `*.create`); everything else is literal.
 */
export function compilePathPattern(pattern: string): (path: string) => boolean {
  const segments = pattern.split('/').slice(1).map((segment): ((s: string) => boolean) | '**' => {
    if (segment === '**') return '**';
    if (segment.startsWith(':') || segment === '*') return (s) => s !== '';
    if (!segment.includes('*')) return (s) => s === segment;
    const regex = new RegExp(`^${segment.split('*').map(escapeRegex).join('[^/]*')}$`);
    return (s) => regex.test(s);
  });
  const match = (i: number, parts: string[], j: number): boolean => {
    if (i === segments.length) return j === parts.length;
    const want = segments[i]!;
    if (want === '**') {
      for (let k = j; k <= parts.length; k++) if (match(i + 1, parts, k)) return true;
      return false;
    }
    return j < parts.length && want(parts[j]!) && match(i + 1, parts, j + 1);
  };
  return (path) => match(0, path.split('/').slice(1), 0);
}

export function compileNameGlob(pattern: string): (name: string | null | undefined) => boolean {
  if (!pattern.includes('*')) return (name) => name === pattern;
  const regex = new RegExp(`^${pattern.split('*').map(escapeRegex).join('.*')}$`);
  return (name) => typeof name === 'string' && regex.test(name);
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
