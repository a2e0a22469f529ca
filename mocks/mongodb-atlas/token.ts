import { jsonResponse } from '../core/http.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import type { AtlasCtx } from './context.js';

/**
 * The OAuth 2.0 token endpoint of Atlas service accounts (`POST /api/oauth/token`,
 * client-credentials grant, the client id and secret as HTTP Basic): a bearer token valid for an
 * hour of logical time; `POST /api/oauth/revoke` ends one. Errors are RFC 6749's
 * `{error, error_description}`, not the Admin API's envelope.
 */
export const TOKEN_TTL_S = 3600;

const oauthError = (status: number, error: string, description: string) =>
  jsonResponse(status, { error, error_description: description }, status === 401 ? [['WWW-Authenticate', 'Basic realm="cloud.mongodb.com"']] : []);

function basicCredentials(header: string | undefined): [string, string] | null {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header ?? '');
  if (!m) return null;
  const text = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = text.indexOf(':');
  return colon < 0 ? null : [text.slice(0, colon), text.slice(colon + 1)];
}

export const tokenOperations: Operation<AtlasCtx>[] = [
  operation<AtlasCtx, '/api/oauth/token'>('createAccessToken', rest('POST', '/api/oauth/token'), (call, c) => {
    const form = new URLSearchParams(call.req.text());
    if (form.get('grant_type') !== 'client_credentials') return oauthError(400, 'unsupported_grant_type', 'Only the client_credentials grant is supported.');
    const creds = basicCredentials(call.req.header('authorization')) ?? (form.get('client_id') ? [form.get('client_id')!, form.get('client_secret') ?? ''] as [string, string] : null);
    const account = creds ? c.db.serviceAccounts.get(creds[0]) : undefined;
    if (!creds || !account || account.clientSecret !== creds[1]) return oauthError(401, 'invalid_client', 'Invalid client credentials.');
    const token = `eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.${c.ctx.ids.opaque('access-token', c.ctx.ids.next('access-token'), 48)}`;
    c.db.tokens.put(token, { token, clientId: account.clientId, expiresAtMs: c.ctx.nowMs + TOKEN_TTL_S * 1000 });
    return jsonResponse(200, { access_token: token, expires_in: TOKEN_TTL_S, token_type: 'Bearer' }, [['Cache-Control', 'no-store'], ['Pragma', 'no-cache']]);
  }),
  operation<AtlasCtx, '/api/oauth/revoke'>('revokeAccessToken', rest('POST', '/api/oauth/revoke'), (call, c) => {
    const creds = basicCredentials(call.req.header('authorization'));
    const account = creds ? c.db.serviceAccounts.get(creds[0]) : undefined;
    if (!creds || !account || account.clientSecret !== creds[1]) return oauthError(401, 'invalid_client', 'Invalid client credentials.');
    const token = new URLSearchParams(call.req.text()).get('token');
    if (token !== null && c.db.tokens.get(token)?.clientId === account.clientId) c.db.tokens.delete(token);
    return jsonResponse(200, {});
  }),
];
