import { jsonResponse, type HeaderList, type ServiceResponse } from '../../core/http.js';
import { ServiceError, type ErrorStyle } from '../errors.js';

/**
 * Slack's Web API envelope: every answer is JSON with `ok`. Success is `{ok: true, ...}`; an
 * error is HTTP 200 `{ok: false, error: "channel_not_found", ...details}` (`needed`/`provided`
 * for `missing_scope`), except rate limiting, which is HTTP 429 with `Retry-After` and
 * `{ok: false, error: "ratelimited"}`. Warnings ride in `response_metadata.warnings`.
 */
export function slackOk(body: Record<string, unknown> = {}, headers: HeaderList = []): ServiceResponse {
  return jsonResponse(200, { ok: true, ...body }, headers);
}

/** Slack's error `code` (HTTP 200 unless `status` says otherwise), with extra top-level fields. */
export function slackError(code: string, details: Record<string, unknown> = {}, status = 200, headers: readonly [string, string][] = []): ServiceError {
  return new ServiceError(status, code, code, details, headers);
}

/** `ratelimited`: HTTP 429 with `Retry-After` in seconds. */
export function slackRateLimited(retryAfterSeconds: number): ServiceError {
  return slackError('ratelimited', {}, 429, [['Retry-After', String(retryAfterSeconds)]]);
}

/** Renders any ServiceError in Slack's envelope. */
export const slackErrorStyle: ErrorStyle<unknown> = (error) =>
  jsonResponse(error.status, { ok: false, error: error.code, ...error.details }, [...error.headers]);

/** `response_metadata` of a cursor-paginated list: `next_cursor` is `""` on the last page. */
export function slackResponseMetadata(next: string | null, warnings: readonly string[] = []): { response_metadata: Record<string, unknown> } {
  return { response_metadata: { next_cursor: next ?? '', ...(warnings.length ? { warnings: [...warnings] } : {}) } };
}
