import { isText, matchFields, valuesAt } from './fields.js';
import type { DocDoc } from './model.js';
import type { HighlightTerms } from './query.js';
import type { IndexScope } from './scope.js';

/**
 * The unified highlighter's answer, simplified: for each requested text field the query looked
 * in, the sentences of each value that hold a query term, terms wrapped in the tags, at most
 * `number_of_fragments` (default 5) per field, in text order; with `number_of_fragments: 0` the
 * whole value. A fragment longer than `fragment_size` (default 100) is cut around its first term.
 */

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

export function highlightDoc(spec: unknown, scope: IndexScope, doc: DocDoc, terms: HighlightTerms): Json | null {
  if (!isObject(spec) || !isObject(spec.fields)) return null;
  const pre = Array.isArray(spec.pre_tags) ? String(spec.pre_tags[0]) : '<em>';
  const post = Array.isArray(spec.post_tags) ? String(spec.post_tags[0]) : '</em>';
  const out: Json = {};
  for (const [pattern, raw] of Object.entries(spec.fields)) {
    const options = isObject(raw) ? raw : {};
    const fragments = typeof options.number_of_fragments === 'number' ? options.number_of_fragments : typeof spec.number_of_fragments === 'number' ? spec.number_of_fragments : 5;
    const size = typeof options.fragment_size === 'number' ? options.fragment_size : typeof spec.fragment_size === 'number' ? spec.fragment_size : 100;
    for (const field of matchFields(scope.properties, pattern)) {
      if (!isText(field.type)) continue;
      const wanted = terms.get(field.path);
      if (!wanted || wanted.size === 0) continue;
      const found: string[] = [];
      for (const value of valuesAt(doc.source, field.sourcePath)) {
        found.push(...highlightText(String(value), wanted, scope, pre, post, fragments, size));
      }
      const limited = fragments === 0 ? found : found.slice(0, fragments);
      if (limited.length > 0) out[field.path] = limited;
    }
  }
  return Object.keys(out).length === 0 ? null : out;
}

function highlightText(text: string, wanted: Set<string>, scope: IndexScope, pre: string, post: string, fragments: number, size: number): string[] {
  const hits = scope.offsets(text).filter((t) => wanted.has(t.token));
  if (hits.length === 0) return [];
  const mark = (from: number, to: number): string => {
    let out = '';
    let at = from;
    for (const hit of hits) {
      if (hit.start < from || hit.end > to) continue;
      out += text.slice(at, hit.start) + pre + text.slice(hit.start, hit.end) + post;
      at = hit.end;
    }
    return out + text.slice(at, to);
  };
  if (fragments === 0) return [mark(0, text.length)];
  const out: string[] = [];
  for (const [start, end] of sentences(text)) {
    const inside = hits.filter((h) => h.start >= start && h.end <= end);
    if (inside.length === 0) continue;
    let from = start;
    let to = end;
    if (to - from > size) {
      from = Math.max(start, inside[0]!.start - Math.floor(size / 4));
      to = Math.min(end, from + size);
      from = wordStart(text, from, start);
      to = wordEnd(text, to, end);
    }
    out.push(mark(from, to).trim());
  }
  return out;
}

/** Sentence spans: split after `.`, `!` or `?` followed by space, and at line breaks. */
function sentences(text: string): [number, number][] {
  const spans: [number, number][] = [];
  let start = 0;
  const re = /[.!?]+\s+|\n+/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    spans.push([start, m.index + m[0].trimEnd().length]);
    start = m.index + m[0].length;
  }
  if (start < text.length) spans.push([start, text.length]);
  return spans;
}

function wordStart(text: string, at: number, min: number): number {
  let i = at;
  while (i > min && /\S/.test(text[i - 1]!)) i--;
  return i;
}

function wordEnd(text: string, at: number, max: number): number {
  let i = at;
  while (i < max && /\S/.test(text[i]!)) i++;
  return i;
}
