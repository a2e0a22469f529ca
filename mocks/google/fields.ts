import { googleError } from './errors.js';

/**
 * Google's partial responses (`fields=nextPageToken,files(id,name,owners(displayName))`): a mask
 * of the fields to keep, `a/b` and `a(b,c)` for nested ones, `*` for all. Arrays are masked item
 * by item. An unbalanced mask is Google's 400 `invalidParameter`.
 */
export type FieldMask = Map<string, FieldMask | true>;

export function parseFields(text: string): FieldMask {
  let i = 0;
  const fail = (): never => {
    throw googleError(400, 'invalidParameter', `Invalid field selection ${text}`, { location: 'fields', locationType: 'parameter' });
  };
  const list = (depth: number): FieldMask => {
    const mask: FieldMask = new Map();
    for (;;) {
      while (text[i] === ' ') i++;
      const start = i;
      while (i < text.length && !',()/ '.includes(text[i]!)) i++;
      const name = text.slice(start, i);
      if (name === '') fail();
      while (text[i] === ' ') i++;
      let sub: FieldMask | true = true;
      if (text[i] === '/') {
        i++;
        sub = path();
      } else if (text[i] === '(') {
        i++;
        sub = list(depth + 1);
        if (text[i] !== ')') fail();
        i++;
      }
      merge(mask, name, sub);
      while (text[i] === ' ') i++;
      if (text[i] === ',') { i++; continue; }
      if (i >= text.length) { if (depth > 0) fail(); return mask; }
      if (text[i] === ')') { if (depth === 0) fail(); return mask; }
      fail();
    }
  };
  // `a/b/c(d)`: one nested path, ended by `,` `)` or the end.
  const path = (): FieldMask => {
    const start = i;
    while (i < text.length && !',()/ '.includes(text[i]!)) i++;
    const name = text.slice(start, i);
    if (name === '') fail();
    let sub: FieldMask | true = true;
    if (text[i] === '/') { i++; sub = path(); } else if (text[i] === '(') {
      i++;
      sub = list(1);
      if (text[i] !== ')') fail();
      i++;
    }
    return new Map([[name, sub]]);
  };
  return list(0);
}

function merge(mask: FieldMask, name: string, sub: FieldMask | true): void {
  const old = mask.get(name);
  if (old === undefined || sub === true) mask.set(name, old === true ? true : sub === true ? true : sub);
  else if (old !== true) for (const [k, v] of sub) merge(old, k, v);
}

/** `value` with only the fields `mask` names. */
export function applyFields(value: unknown, mask: FieldMask | true): unknown {
  if (mask === true || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => applyFields(v, mask));
  if (mask.has('*')) return value;
  const out: Record<string, unknown> = {};
  for (const [name, sub] of mask) {
    const field = (value as Record<string, unknown>)[name];
    if (field !== undefined) out[name] = applyFields(field, sub);
  }
  return out;
}

/** The request's `fields` applied to `value`; no `fields` keeps `value` as it is. */
export function masked(value: unknown, fields: string | undefined): unknown {
  return fields === undefined || fields === '' ? value : applyFields(value, parseFields(fields));
}
