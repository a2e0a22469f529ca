import { jsonResponse, type ServiceRequest, type ServiceResponse } from '../core/http.js';
import type { FaultOrder, ServiceContext } from '../core/service.js';
import type { RefusalDetail } from '../kit/define.js';
import { ServiceError, type KitRefusal } from '../kit/errors.js';
import { confluenceErrorBody } from './confluence/errors.js';

/**
 * Atlassian's REST error envelope (Jira's, and Confluence v1's `ErrorCollection`):
 * `{"errorMessages": [...], "errors": {field: message}}`, the same for every status.
 */
export function jiraError(status: number, messages: readonly string[], errors: Readonly<Record<string, string>> = {}, headers: readonly [string, string][] = []): ServiceError {
  return new ServiceError(status, 'atlassian', messages[0] ?? Object.values(errors)[0] ?? '', { errorMessages: [...messages], errors: { ...errors } }, headers);
}

export function atlassianErrors(error: ServiceError, context: { path: string } | null = null): ServiceResponse {
  // Confluence's own errors, and the kit's refusals and auth errors under /wiki, in Confluence's envelope.
  if (error.code === 'confluence' || (context?.path.startsWith('/wiki/') ?? false)) {
    const message = error.code === 'atlassian' ? String((error.details.errorMessages as string[] | undefined)?.[0] ?? Object.values((error.details.errors ?? {}) as Record<string, string>)[0] ?? error.message) : error.message;
    return jsonResponse(error.status, confluenceErrorBody(new ServiceError(error.status, 'confluence', message, error.code === 'confluence' ? error.details : {})), [...error.headers]);
  }
  const body = error.code === 'atlassian'
    ? { errorMessages: error.details.errorMessages ?? [], errors: error.details.errors ?? {} }
    : { errorMessages: [error.message], errors: {} };
  return jsonResponse(error.status, body, [...error.headers]);
}

/** Atlassian's answers to the kit's refusals. */
export function atlassianRefusal(reason: KitRefusal, detail: RefusalDetail): ServiceError {
  switch (reason) {
    case 'not_found':
    case 'method_not_allowed':
      // Jira's servlet answers an unknown resource with its generic 404.
      return jiraError(404, ['The requested resource could not be found.']);
    case 'invalid_params': {
      const issue = detail.issues?.[0];
      const field = issue ? issue.path.filter((p) => typeof p === 'string').join('.') || (detail.where ?? 'body') : 'body';
      return jiraError(400, [], { [field]: issue ? `${field}: ${issue.message}` : 'Invalid request.' });
    }
    case 'malformed_body':
      return jiraError(400, [`Unexpected character: the request body is not valid JSON (${detail.message ?? 'parse error'}).`]);
    case 'unauthenticated':
      return jiraError(401, ['You are not authenticated. Authentication required to perform this operation.']);
    case 'payload_too_large':
      return jiraError(413, ['Request entity too large.']);
    case 'internal_error':
      return jiraError(500, ['Internal server error']);
  }
}

/**
 * A fault standing in for the handler (docs/faults.md): 429 is Atlassian's rate limit with
 * `Retry-After` (seconds) and its `X-RateLimit-*` headers and `RateLimit-Reason`; 5xx the
 * generic server error; `reset` a 502 the transport cuts, `timeout` a gateway's 504.
 */
export function atlassianFault(order: FaultOrder, req: ServiceRequest, ctx: ServiceContext): ServiceResponse {
  const where = { path: req.path };
  if (order.kind === '429') {
    const reset = new Date(ctx.nowMs + order.retryAfter * 1000).toISOString();
    return atlassianErrors(jiraError(429, ['Rate limit exceeded.'], {}, [
      ['Retry-After', String(order.retryAfter)], ['X-RateLimit-Limit', '100'], ['X-RateLimit-Remaining', '0'],
      ['X-RateLimit-Reset', reset], ['RateLimit-Reason', 'jira-quota-tenant-based'],
    ]), where);
  }
  const status = order.kind === 'reset' ? 502 : order.kind === 'timeout' ? 504 : Number(order.kind);
  const headers: [string, string][] = order.kind === '503' ? [['Retry-After', String(order.retryAfter)]] : [];
  return atlassianErrors(jiraError(status, [status === 500 ? 'Internal server error' : 'The service is temporarily unavailable. Please try again later.'], {}, headers), where);
}
