import type { z } from 'zod';
import { jsonResponse, type ServiceResponse } from '../../core/http.js';
import type { RefusalDetail } from '../define.js';
import { ServiceError, type KitRefusal } from '../errors.js';

/**
 * Stripe's error envelope: `{error: {code, doc_url, message, param, type}}` (keys in Stripe's
 * alphabetical order; `code`, `doc_url` and `param` only when there is one), with Stripe's
 * statuses: 400 bad parameters, 401 no or bad key, 402 a card declined, 403 no permission,
 * 404 no such object or URL, 409 an idempotency conflict, 429 too many requests, 5xx Stripe's fault.
 * A ServiceError's `details.type` is the error type (default: invalid_request_error, or api_error
 * for a 5xx), `details.param` the parameter at fault.
 */
export type StripeErrorType = 'api_error' | 'card_error' | 'idempotency_error' | 'invalid_request_error';

export interface StripeErrorBody {
  error: { code?: string; doc_url?: string; message: string; param?: string; type: StripeErrorType; decline_code?: string };
}

export function stripeError(status: number, type: StripeErrorType, code: string, message: string, param?: string, headers: [string, string][] = []): ServiceError {
  return new ServiceError(status, code, message, { type, ...(param === undefined ? {} : { param }) }, headers);
}

export function stripeErrorBody(error: ServiceError): StripeErrorBody {
  const type = (error.details.type as StripeErrorType | undefined) ?? (error.status >= 500 ? 'api_error' : 'invalid_request_error');
  const param = error.details.param as string | undefined;
  const decline = error.details.decline_code as string | undefined;
  return {
    error: {
      ...(error.code ? { code: error.code } : {}),
      ...(decline ? { decline_code: decline } : {}),
      ...(error.code ? { doc_url: `https://stripe.com/docs/error-codes/${error.code.replaceAll('_', '-')}` } : {}),
      message: error.message,
      ...(param ? { param } : {}),
      type,
    },
  };
}

/** The kit's ErrorStyle for Stripe-shaped services. */
export function stripeErrors(error: ServiceError): ServiceResponse {
  return jsonResponse(error.status, stripeErrorBody(error), [...error.headers]);
}

/** `['items', 0, 'price']` → `items[0][price]`, as Stripe names nested parameters. */
export function stripeParamName(path: readonly (string | number)[]): string {
  const [first, ...rest] = path;
  return `${first ?? ''}${rest.map((part) => `[${part}]`).join('')}`;
}

/** Stripe's answer to a zod issue in a request's parameters. */
export function stripeParamError(issue: z.ZodIssue): ServiceError {
  const param = stripeParamName(issue.path);
  if (issue.code === 'unrecognized_keys') {
    const key = stripeParamName([...issue.path, issue.keys[0]!]);
    return stripeError(400, 'invalid_request_error', 'parameter_unknown', `Received unknown parameter: ${key}`, key);
  }
  if (issue.code === 'invalid_type' && issue.received === 'undefined') {
    return stripeError(400, 'invalid_request_error', 'parameter_missing', `Missing required param: ${param}.`, param);
  }
  if (issue.code === 'invalid_type' && (issue.expected === 'number' || issue.expected === 'integer')) {
    return stripeError(400, 'invalid_request_error', 'parameter_invalid_integer', `Invalid integer: ${param}`, param);
  }
  if (issue.code === 'invalid_enum_value') {
    return stripeError(400, 'invalid_request_error', '', `Invalid ${param}: must be one of ${issue.options.join(', ')}`, param);
  }
  if (issue.code === 'too_small' || issue.code === 'too_big') {
    return stripeError(400, 'invalid_request_error', 'parameter_invalid_integer', `Invalid ${param}: ${issue.message.toLowerCase()}`, param);
  }
  return stripeError(400, 'invalid_request_error', '', `Invalid ${param}: ${issue.message}`, param);
}

/** Stripe's answers to the kit's own refusals (`KitServiceSpec.refusal`). */
export function stripeRefusal(reason: KitRefusal, detail: RefusalDetail, req?: { method: string; path: string }): ServiceError {
  switch (reason) {
    case 'not_found':
    case 'method_not_allowed':
      return stripeError(404, 'invalid_request_error', '', `Unrecognized request URL (${req ? `${req.method}: ${req.path}` : 'unknown'}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`);
    case 'invalid_params':
      return detail.issues?.[0] ? stripeParamError(detail.issues[0]) : stripeError(400, 'invalid_request_error', '', 'Invalid request parameters.');
    case 'malformed_body':
      return stripeError(400, 'invalid_request_error', '', `Invalid request body: ${detail.message ?? 'could not be parsed'}`);
    case 'unauthenticated':
      return stripeError(401, 'invalid_request_error', '', 'You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. \'Authorization: Bearer YOUR_SECRET_KEY\'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.', undefined, [['WWW-Authenticate', 'Basic realm="Stripe"']]);
    case 'payload_too_large':
      return stripeError(413, 'invalid_request_error', '', 'Request body too large.');
    case 'internal_error':
      return stripeError(500, 'api_error', '', 'An unknown error occurred. Please try again later.');
  }
}
