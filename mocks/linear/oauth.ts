import { jsonResponse, type ServiceResponse } from '../core/http.js';
import { col, insert } from './model.js';
import type { LinearContext } from './resolve.js';

/**
 * POST /oauth/token with `grant_type=client_credentials`: an application created through the API
 * (`oauthApplicationCreate`) gets a bearer token that acts as its creator; anything else is
 * OAuth's own `invalid_client` / `unsupported_grant_type` error (RFC 6749 §5.2), as Linear answers.
 */
export function oauthToken(body: unknown, c: LinearContext): ServiceResponse {
  const form = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (form.grant_type !== 'client_credentials') return jsonResponse(400, { error: 'unsupported_grant_type', error_description: 'Only client_credentials is supported here' });
  const application = col(c.store, 'OAuthApplication').find((a) => a.clientId === form.client_id && a.clientSecret === form.client_secret && a.archivedAt === null);
  if (!application) return jsonResponse(401, { error: 'invalid_client', error_description: 'Client authentication failed' });
  const token = `lin_oauth_${c.make.nowIso.replace(/\D/g, '')}${application.clientId as string}`.slice(0, 64);
  insert(c.make, 'OAuthToken', { userId: application.creatorId, applicationId: application.id, scope: String(form.scope ?? 'read') }, token);
  return jsonResponse(200, { access_token: token, token_type: 'Bearer', expires_in: 2592000, scope: String(form.scope ?? 'read') });
}
