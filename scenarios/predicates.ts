import { z } from 'zod';

/**
 * Predicates on JSON values, used by expected state, call matchers and answer checks.
 * A predicate is a JSON value (equal, or for objects: a deep subset), or an object of operators:
 * `{"$contains": "x"}`, `{"$regex": "^fix"}`, `{"$exists": false}`, `{"$in": [1, 2]}`,
 * `{"$iregex": "^fix"}` (case-insensitive), `{"$ne": v}`, `{"$gte": n}`, `{"$lte": n}`, `{"$len": n}`,
 * `{"$not": p}`, `{"$any": p}` (some array element matches p), `{"$all": [p, q]}` (every one matches). Keys of an object predicate may be dotted paths (`user.login`).
 */
export type Predicate = unknown;

const OPERATORS = new Set(['$eq', '$ne', '$contains', '$regex', '$iregex', '$exists', '$in', '$gte', '$lte', '$len', '$not', '$any', '$all']);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const isOperatorObject = (value: unknown): value is Record<string, unknown> =>
  isPlainObject(value) && Object.keys(value).length > 0 && Object.keys(value).every((key) => key.startsWith('$'));

/** Problems in a predicate (unknown operators, bad regexes), as `path: message`. */
export function predicateProblems(pred: unknown, path = ''): string[] {
  if (isOperatorObject(pred)) {
    return Object.entries(pred).flatMap(([op, arg]) => {
      const at = path ? `${path}.${op}` : op;
      if (!OPERATORS.has(op)) return [`${at}: unknown operator (known: ${[...OPERATORS].join(', ')})`];
      if (op === '$regex' || op === '$iregex') {
        if (typeof arg !== 'string') return [`${at}: must be a string`];
        try { new RegExp(arg); } catch (error) { return [`${at}: ${(error as Error).message}`]; }
      }
      if (op === '$in' && !Array.isArray(arg)) return [`${at}: must be an array`];
      if (op === '$exists' && typeof arg !== 'boolean') return [`${at}: must be true or false`];
      if ((op === '$gte' || op === '$lte' || op === '$len') && typeof arg !== 'number') return [`${at}: must be a number`];
      if (op === '$not' || op === '$any') return predicateProblems(arg, at);
      if (op === '$all') return Array.isArray(arg) ? arg.flatMap((inner, i) => predicateProblems(inner, `${at}[${i}]`)) : [`${at}: must be an array`];
      return [];
    });
  }
  if (isPlainObject(pred)) return Object.entries(pred).flatMap(([key, inner]) => predicateProblems(inner, path ? `${path}.${key}` : key));
  if (Array.isArray(pred)) return pred.flatMap((inner, i) => predicateProblems(inner, `${path}[${i}]`));
  return [];
}

/** A zod schema for a predicate (any JSON, checked for unknown operators). */
export const PredicateSchema = z.unknown().superRefine((value, ctx) => {
  for (const problem of predicateProblems(value)) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
});

/** A table of dotted path → predicate. */
export const FieldPredicatesSchema = z.record(PredicateSchema);

export function getPath(value: unknown, path: string): unknown {
  let current = value;
  for (const part of path.split('.')) {
    if (!isPlainObject(current) && !Array.isArray(current)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

export function matches(value: unknown, pred: unknown): boolean {
  if (isOperatorObject(pred)) return Object.entries(pred).every(([op, arg]) => applyOperator(op, value, arg));
  if (isPlainObject(pred)) {
    if (!isPlainObject(value)) return false;
    return Object.entries(pred).every(([key, inner]) => matches(key.includes('.') ? getPath(value, key) : value[key], inner));
  }
  if (Array.isArray(pred)) {
    return Array.isArray(value) && value.length === pred.length && pred.every((inner, i) => matches(value[i], inner));
  }
  return value === pred;
}

function applyOperator(op: string, value: unknown, arg: unknown): boolean {
  switch (op) {
    case '$eq': return matches(value, arg);
    case '$ne': return !matches(value, arg);
    case '$not': return !matches(value, arg);
    case '$exists': return (value !== undefined) === arg;
    case '$in': return (arg as unknown[]).some((option) => matches(value, option));
    case '$gte': return typeof value === 'number' && value >= (arg as number);
    case '$lte': return typeof value === 'number' && value <= (arg as number);
    case '$len': return (typeof value === 'string' || Array.isArray(value)) && value.length === arg;
    case '$regex': return typeof value === 'string' && new RegExp(arg as string).test(value);
    case '$iregex': return typeof value === 'string' && new RegExp(arg as string, 'i').test(value);
    case '$all': return (arg as unknown[]).every((inner) => matches(value, inner));
    case '$any': return Array.isArray(value) && value.some((item) => matches(item, arg));
    case '$contains':
      if (typeof value === 'string') return typeof arg === 'string' && value.includes(arg);
      if (Array.isArray(value)) return value.some((item) => matches(item, arg));
      return false;
    default: return false;
  }
}
