import { STATUS_CODES } from 'node:http';
import { bytes, type ServiceResponse } from '../../core/http.js';
import type { ServiceError } from '../errors.js';

/**
 * RFC 9457 problem details (`application/problem+json`): `type` (a URI; `about:blank` when the
 * problem is just the status), `title`, `status`, `detail`, optional `instance`, and extension
 * members. A ServiceError maps as: `details.type` → type (default `typeBase + code`, or
 * about:blank without a base), `details.title` → title (default the status phrase), message →
 * detail, `details.instance` → instance, `code` and other details → extension members.
 */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  [extension: string]: unknown;
}

export interface ProblemOptions {
  /** Prefix of problem type URIs (`https://api.example.com/problems/`), joined with the error's code. */
  typeBase?: string;
}

export function problemDetails(error: ServiceError, options: ProblemOptions = {}): ProblemDetails {
  const { type, title, instance, ...extensions } = error.details as Record<string, unknown>;
  const problemType = typeof type === 'string' ? type : options.typeBase && error.code ? `${options.typeBase}${error.code}` : 'about:blank';
  return {
    type: problemType,
    // With about:blank the title must be the status phrase (RFC 9457 §4.2.1).
    title: problemType !== 'about:blank' && typeof title === 'string' ? title : STATUS_CODES[error.status] ?? 'Error',
    status: error.status,
    detail: error.message,
    ...(typeof instance === 'string' ? { instance } : {}),
    ...(error.code ? { code: error.code } : {}),
    ...extensions,
  };
}

/** The kit's ErrorStyle for problem+json services. */
export function problemJsonErrors(options: ProblemOptions = {}): (error: ServiceError) => ServiceResponse {
  return (error) => ({
    status: error.status,
    headers: [['Content-Type', 'application/problem+json'], ...error.headers],
    body: bytes(JSON.stringify(problemDetails(error, options))),
  });
}
