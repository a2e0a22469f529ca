import { z } from 'zod';
import { BodyParseError, type ServiceRequest } from '../core/http.js';
import { GitHubError, bodyNotObject, invalidType, invalidValue, notSupplied, problemsParsingJson } from './errors.js';

/**
 * Request bodies as GitHub reads them: empty means no parameters, malformed JSON is 400 "Problems
 * parsing JSON", anything but an object is 400 "Body should be a JSON object", and a parameter
 * of the wrong type is GitHub's JSON-schema 422.
 */
export type Body = Record<string, unknown>;

/** The request's JSON (undefined when empty); malformed JSON is GitHub's 400 "Problems parsing JSON". */
export function readJson(req: ServiceRequest): unknown {
  try {
    return req.json();
  } catch (error) {
    if (error instanceof BodyParseError) throw problemsParsingJson();
    throw error;
  }
}

export function readBody(req: ServiceRequest): Body {
  const value = readJson(req);
  if (value === undefined) return {};
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw bodyNotObject();
  return value as Body;
}

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

/** GitHub's 422 for the first failing parameter (zod reports them in the schema's key order). */
export function queryValidationFailed(issues: readonly z.ZodIssue[]): GitHubError | null {
  const issue = issues[0];
  const github = issue?.code === z.ZodIssueCode.custom ? (issue.params?.github as QueryProblem | undefined) : undefined;
  if (!issue || !github) return null;
  const field = String(issue.path[0]);
  return new GitHubError(422, 'Validation Failed', {
    errors: [github.kind === 'invalid' ? { value: github.value, resource: github.resource, field, code: 'invalid' } : { resource: github.resource, field, code: 'missing' }],
  });
}
