import { ServiceError } from '../../kit/errors.js';

/**
 * Confluence REST v1's error body: `{statusCode, data: {authorized, valid, errors, successful},
 * message, reason}` (rendered by the service's error style for errors with this code).
 */
const REASON: Record<number, string> = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 409: 'Conflict', 413: 'Payload Too Large', 429: 'Too Many Requests', 500: 'Internal Server Error' };

export function confluenceError(status: number, message: string): ServiceError {
  return new ServiceError(status, 'confluence', message, { reason: REASON[status] ?? 'Error' });
}

export function confluenceErrorBody(error: ServiceError): Record<string, unknown> {
  return { statusCode: error.status, data: { authorized: error.status !== 401 && error.status !== 403, valid: error.status !== 400, errors: [], successful: false }, message: error.message, reason: error.details.reason ?? REASON[error.status] ?? 'Error' };
}
