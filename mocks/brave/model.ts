import { jsonResponse, type ServiceResponse } from '../core/http.js';
import type { ServiceContext } from '../core/service.js';
import { ServiceError } from '../kit/errors.js';
import { uuidId } from '../kit/ids.js';

/**
 * Brave's error envelope: `{type: "ErrorResponse", error: {id, status, code, detail, meta}, time}`,
 * with 422 for a bad token or parameter (`SUBSCRIPTION_TOKEN_INVALID`, `VALIDATION`), 429
 * `RATE_LIMITED` and 404 for an unknown path.
 */
export function braveError(status: number, code: string, detail: string, meta: Record<string, unknown> = {}, headers: [string, string][] = []): ServiceError {
  return new ServiceError(status, code, detail, { meta }, headers);
}

export function renderBraveError(error: ServiceError, ctx: ServiceContext | null): ServiceResponse {
  const id = ctx ? uuidId(ctx, 'error') : '00000000-0000-4000-8000-000000000000';
  const time = ctx ? Math.floor(ctx.nowMs / 1000) : 0;
  return jsonResponse(error.status, {
    type: 'ErrorResponse',
    error: { id, status: error.status, code: error.code, detail: error.message, meta: error.details.meta ?? {} },
    time,
  }, error.headers as [string, string][]);
}

/** A parameter that fails Brave's checks: 422 VALIDATION with pydantic-style `meta.errors`. */
export function validation(loc: string, msg: string, input: unknown, type = 'value_error'): ServiceError {
  return braveError(422, 'VALIDATION', 'Unable to validate request parameter(s)', { errors: [{ type, loc: ['query', loc], msg, input }] });
}
