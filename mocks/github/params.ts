import { z } from 'zod';
import { GitHubError, bodyNotObject, invalidType, invalidValue, notSupplied } from './errors.js';

/**
 * Request bodies as GitHub reads them: JSON whatever the Content-Type (index.ts `decode`), empty
 * means no parameters, malformed JSON is 400 "Problems parsing JSON" (the kit's refusal), anything
 * but an object is 400 "Body should be a JSON object" (`githubBody`), and a parameter of the wrong
 * type is GitHub's JSON-schema 422 (`bodyParam`, and the helpers below for what handlers check
 * later, between their own checks).
 */
export type Body = Record<string, unknown>;

export function has(body: Body, field: string): boolean {
  return Object.prototype.hasOwnProperty.call(body, field) && body[field] !== undefined;
}

export function optString(body: Body, field: string): string | undefined {
  if (!has(body, field) || body[field] === null) return undefined;
  const value = body[field];
  if (typeof value !== 'string') throw invalidType(field, value, 'string');
  return value;
}

/** A required string; `missing` builds the endpoint's own error (default: "x wasn't supplied"). */
export function reqString(body: Body, field: string, missing: () => GitHubError = () => notSupplied(field)): string {
  const value = optString(body, field);
  if (value === undefined) throw missing();
  return value;
}

export function optBool(body: Body, field: string): boolean | undefined {
  if (!has(body, field) || body[field] === null) return undefined;
  const value = body[field];
  if (typeof value !== 'boolean') throw invalidType(field, value, 'boolean');
  return value;
}

export function optInt(body: Body, field: string): number | undefined {
  if (!has(body, field) || body[field] === null) return undefined;
  const value = body[field];
  if (typeof value !== 'number' || !Number.isInteger(value)) throw invalidType(field, value, 'integer');
  return value;
}

export function optStringArray(body: Body, field: string): string[] | undefined {
  if (!has(body, field) || body[field] === null) return undefined;
  const value = body[field];
  if (!Array.isArray(value)) throw invalidType(field, value, 'array');
  for (const item of value) if (typeof item !== 'string') throw invalidType(`${field}/items`, item, 'string');
  return value as string[];
}

export function optEnum<T extends string>(body: Body, field: string, allowed: readonly T[]): T | undefined {
  const value = optString(body, field);
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw invalidValue(field, value, allowed);
  return value as T;
}

/**
 * Query parameters as zod schemas (an operation's `query` input), read when the handler first
 * reads `call.query`. A failure carries GitHub's `errors` item in the issue's params; index.ts
 * renders it as 422 "Validation Failed". As GitHub reads them: a repeated parameter counts once
 * (the first), an empty one is absent.
 */
export type QueryProblem = { kind: 'invalid'; value: string; resource: string } | { kind: 'missing'; resource: string };

const firstValue = (value: unknown) => {
  const one = Array.isArray(value) ? value[0] : value;
  return one === '' ? undefined : one;
};

function problem(ctx: z.RefinementCtx, github: QueryProblem): void {
  ctx.addIssue({ code: z.ZodIssueCode.custom, params: { github } });
}

/** One of `allowed`, or undefined (the handler's default); 422 `invalid` otherwise. */
export function queryEnum<T extends string>(allowed: readonly T[], resource: string): z.ZodType<T | undefined, z.ZodTypeDef, unknown> {
  return z.preprocess(firstValue, z.string().optional().superRefine((value, ctx) => {
    if (value !== undefined && !(allowed as readonly string[]).includes(value)) problem(ctx, { kind: 'invalid', value, resource });
  })) as z.ZodType<T | undefined, z.ZodTypeDef, unknown>;
}

/** An ISO 8601 timestamp (`since`) normalised to seconds, or null; 422 `invalid` (resource `Search`, as GitHub says) otherwise. */
export function queryTime(): z.ZodType<string | null, z.ZodTypeDef, unknown> {
  return z.preprocess(firstValue, z.string().optional().transform((value, ctx) => {
    if (value === undefined) return null;
    const ms = Date.parse(value);
    if (Number.isNaN(ms)) {
      problem(ctx, { kind: 'invalid', value, resource: 'Search' });
      return z.NEVER;
    }
    return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
  }));
}

/** A required parameter (search's `q`): present and not blank; 422 `missing` otherwise. */
export function queryRequired(resource: string): z.ZodType<string, z.ZodTypeDef, unknown> {
  return z.preprocess(firstValue, z.string().optional().transform((value, ctx) => {
    if (value === undefined || value.trim() === '') {
      problem(ctx, { kind: 'missing', resource });
      return z.NEVER;
    }
    return value;
  }));
}

/** An operation's query schema: the parameters GitHub validates; the others pass through. */
export function githubQuery<S extends z.ZodRawShape>(shape: S) {
  return z.object(shape).passthrough();
}

/**
 * Body parameters as zod schemas (an operation's `body` input), read where the handler reads
 * `call.body`: the body must be a JSON object, and each declared field has its type (and enum)
 * checked with the same errors as the helpers above. The schemas check and never change a
 * value (`null` stays null: for some fields it means "clear"). Declare only the fields a handler
 * checks before anything else can fail, in the order it checks them.
 */
function failWith(ctx: z.RefinementCtx, error: GitHubError): void {
  ctx.addIssue({ code: z.ZodIssueCode.custom, params: { github: error } });
}

const fieldOf = (ctx: z.RefinementCtx) => String(ctx.path.at(-1));

export const bodyParam = {
  /** A string; `required`: present and not null (else `missing()`, default "x wasn't supplied"). */
  string: (options: { required?: boolean; missing?: () => GitHubError } = {}) => z.unknown().superRefine((value, ctx) => {
    if (value === undefined || value === null) {
      if (options.required) failWith(ctx, options.missing ? options.missing() : notSupplied(fieldOf(ctx)));
    } else if (typeof value !== 'string') {
      failWith(ctx, invalidType(fieldOf(ctx), value, 'string'));
    }
  }),
  boolean: () => z.unknown().superRefine((value, ctx) => {
    if (value !== undefined && value !== null && typeof value !== 'boolean') failWith(ctx, invalidType(fieldOf(ctx), value, 'boolean'));
  }),
  /** One of `allowed` when present (a string first). */
  enum: (allowed: readonly string[]) => z.unknown().superRefine((value, ctx) => {
    if (value === undefined || value === null) return;
    if (typeof value !== 'string') failWith(ctx, invalidType(fieldOf(ctx), value, 'string'));
    else if (!allowed.includes(value)) failWith(ctx, invalidValue(fieldOf(ctx), value, allowed));
  }),
};

/** An operation's body schema: a JSON object (else 400 "Body should be a JSON object") with `shape`'s fields checked. */
export function githubBody(shape: z.ZodRawShape): z.ZodType<Body, z.ZodTypeDef, unknown> {
  return z.unknown().superRefine((value, ctx) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) failWith(ctx, bodyNotObject());
  }).pipe(z.object(shape).passthrough()) as z.ZodType<Body, z.ZodTypeDef, unknown>;
}

/** GitHub's error for the first failing parameter (zod reports them in the schema's key order). */
export function inputError(issues: readonly z.ZodIssue[]): GitHubError | null {
  const issue = issues[0];
  const github = issue?.code === z.ZodIssueCode.custom ? (issue.params?.github as QueryProblem | GitHubError | undefined) : undefined;
  if (!issue || !github) return null;
  if (github instanceof GitHubError) return github;
  const field = String(issue.path[0]);
  return new GitHubError(422, 'Validation Failed', {
    errors: [github.kind === 'invalid' ? { value: github.value, resource: github.resource, field, code: 'invalid' } : { resource: github.resource, field, code: 'missing' }],
  });
}
