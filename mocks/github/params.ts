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

/** A query parameter restricted to `allowed`; GitHub answers 422 "Validation Failed" otherwise. */
export function queryEnum<T extends string>(req: ServiceRequest, name: string, allowed: readonly T[], fallback: T, resource: string): T {
  const value = req.query.get(name);
  if (value === null || value === '') return fallback;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new GitHubError(422, 'Validation Failed', { errors: [{ value, resource, field: name, code: 'invalid' }] });
  }
  return value as T;
}

/** An ISO 8601 timestamp query parameter (`since`), or null. */
export function queryTime(req: ServiceRequest, name: string): string | null {
  const value = req.query.get(name);
  if (value === null || value === '') return null;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new GitHubError(422, 'Validation Failed', { errors: [{ value, resource: 'Search', field: name, code: 'invalid' }] });
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
