import { GraphQLError } from 'graphql';
import { jsonResponse, type ServiceResponse } from '../core/http.js';
import { ServiceError } from '../kit/errors.js';

/**
 * Linear's errors: always `{errors: [{message, path?, locations?, extensions: {type, code,
 * statusCode, userError, userPresentableMessage}}]}` (the SDK reads `extensions.type` to pick its
 * error class), with `data` beside them when execution began.
 */
export interface LinearErrorShape {
  type: string;
  code: string;
  statusCode: number;
  userError: boolean;
  userPresentableMessage: string;
}

/** Thrown by resolvers and middleware; rendered in Linear's shape (inside or outside execution). */
export class LinearError extends ServiceError {
  constructor(status: number, readonly shape: LinearErrorShape, message: string, headers: readonly [string, string][] = []) {
    super(status, shape.code, message, { ...shape }, headers);
  }
}

export const notFound = (type: string) => new LinearError(200, { type: 'invalid input', code: 'INPUT_ERROR', statusCode: 400, userError: true, userPresentableMessage: `Could not find referenced ${type}.` }, `Entity not found: ${type}`);

export const invalidInput = (message: string) => new LinearError(200, { type: 'invalid input', code: 'INPUT_ERROR', statusCode: 400, userError: true, userPresentableMessage: message }, `Argument Validation Error - ${message}`);

export const unauthenticated = () => new LinearError(400, { type: 'authentication error', code: 'AUTHENTICATION_ERROR', statusCode: 401, userError: true, userPresentableMessage: 'You need to authenticate to access this operation.' }, 'Authentication required, not authenticated');

export const ratelimited = (retryAfter: number) => new LinearError(429, { type: 'ratelimited', code: 'RATELIMITED', statusCode: 429, userError: true, userPresentableMessage: 'You have exceeded the rate limit. Please try again later.' }, 'Rate limit exceeded', [['Retry-After', String(retryAfter)]]);

/** A GraphQL error of the request itself (syntax, validation): Linear answers 400. */
export function graphqlErrorJson(error: GraphQLError, code: string): Record<string, unknown> {
  return {
    message: error.message,
    ...(error.locations ? { locations: error.locations } : {}),
    extensions: { type: 'graphql error', code, statusCode: 400, userError: false, userPresentableMessage: error.message },
  };
}

/** An error raised while executing (a resolver's LinearError, or graphql-js's own, e.g. a null in a non-null field). */
export function executionErrorJson(error: GraphQLError): Record<string, unknown> {
  const original = error.originalError;
  const shape = original instanceof LinearError
    ? original.shape
    : { type: 'internal error', code: 'INTERNAL_SERVER_ERROR', statusCode: 500, userError: false, userPresentableMessage: 'An unexpected error occurred.' };
  return {
    message: error.message,
    ...(error.path ? { path: error.path } : {}),
    ...(error.locations ? { locations: error.locations } : {}),
    extensions: shape,
  };
}

/** A LinearError outside execution (auth, rate limit, a malformed body): `{errors: [...]}`, no data. */
export function renderLinearError(error: ServiceError): ServiceResponse {
  const shape = error instanceof LinearError
    ? error.shape
    : { type: 'invalid input', code: error.code.toUpperCase(), statusCode: error.status, userError: true, userPresentableMessage: error.message };
  return jsonResponse(error.status === 200 ? 400 : error.status, { errors: [{ message: error.message, extensions: shape }] }, [...error.headers]);
}
