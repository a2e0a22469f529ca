import test from 'ava';
import { z } from 'zod';
import { ServiceRequest, jsonResponse } from '../mocks/core/http.js';
import { apiKeyHeader, authGate, authenticate, basic, bearer, queryToken, readCredential, type Authenticated } from '../mocks/kit/auth.js';
import { defineService } from '../mocks/kit/define.js';
import { ServiceError } from '../mocks/kit/errors.js';
import { operation, rest } from '../mocks/kit/operation.js';
import { kitWorld } from './helpers/kit-world.js';

const req = (target: string, headers: [string, string][] = []) => new ServiceRequest('GET', target, headers, new Uint8Array(0));
const b64 = (text: string) => Buffer.from(text).toString('base64');

test('authorization schemes: Bearer, a service\'s own scheme, Basic with the secret as password or user', (t) => {
  const github = [bearer('token', 'Bearer'), basic('password')];
  t.like(readCredential(req('/', [['Authorization', 'Bearer abc']]), github), { kind: 'credential', secret: 'abc', scheme: 'Bearer' });
  t.like(readCredential(req('/', [['Authorization', 'TOKEN abc']]), github), { kind: 'credential', secret: 'abc', scheme: 'token' }, 'schemes are case-insensitive');
  t.like(readCredential(req('/', [['Authorization', `Basic ${b64('x-access-token:ghp_1')}`]]), github), { kind: 'credential', secret: 'ghp_1', user: 'x-access-token' });
  t.like(readCredential(req('/', [['Authorization', `Basic ${b64('ghp_only')}`]]), github), { kind: 'credential', secret: 'ghp_only', user: '' }, 'no colon: the whole value');
  // Stripe: `sk_test_…:` as the user name, empty password.
  t.like(readCredential(req('/', [['Authorization', `Basic ${b64('sk_test_1:')}`]]), [basic('user')]), { kind: 'credential', secret: 'sk_test_1', user: 'sk_test_1' });
  t.deepEqual(readCredential(req('/', [['Authorization', 'Digest abc']]), github), { kind: 'malformed', where: 'Authorization' }, 'an unknown scheme');
  t.deepEqual(readCredential(req('/', [['Authorization', 'Bearer a b']]), github), { kind: 'malformed', where: 'Authorization' }, 'two words');
  t.deepEqual(readCredential(req('/', [['Authorization', 'Bearer']]), github), { kind: 'malformed', where: 'Authorization' });
  t.deepEqual(readCredential(req('/'), github), { kind: 'none' });
});

test('an API-key header and a query token, in the order the service looks', (t) => {
  const styles = [apiKeyHeader('X-Api-Key'), queryToken('access_token')];
  t.like(readCredential(req('/', [['x-api-key', ' k1 ']]), styles), { kind: 'credential', style: 'header', secret: 'k1' });
  t.like(readCredential(req('/?access_token=q1'), styles), { kind: 'credential', style: 'query', secret: 'q1' });
  t.like(readCredential(req('/?access_token=q1', [['X-Api-Key', 'k1']]), styles), { secret: 'k1' }, 'the header comes first');
  t.deepEqual(readCredential(req('/', [['X-Api-Key', '']]), styles), { kind: 'malformed', where: 'X-Api-Key' });
  t.deepEqual(readCredential(req('/?access_token='), styles), { kind: 'malformed', where: '?access_token' });
  t.deepEqual(readCredential(req('/', [['Authorization', 'Bearer x']]), styles), { kind: 'none' }, 'Authorization is not read unless declared');
  // Linear: the key is the whole Authorization value, no scheme.
  t.like(readCredential(req('/', [['Authorization', 'lin_api_1']]), [apiKeyHeader('Authorization')]), { secret: 'lin_api_1' });
});

test('authenticate: an unknown secret and a malformed credential are both bad; lookup sees the secret', (t) => {
  const keys = new Map([['k1', 'alice']]);
  const styles = [bearer()];
  const lookup = (secret: string) => keys.get(secret);
  t.deepEqual(authenticate(req('/', [['Authorization', 'Bearer k1']]), styles, lookup), { kind: 'ok', principal: 'alice', secret: 'k1' });
  t.like(authenticate(req('/', [['Authorization', 'Bearer k2']]), styles, lookup), { kind: 'bad' });
  t.like(authenticate(req('/', [['Authorization', 'Nope']]), styles, lookup), { kind: 'bad' });
  t.deepEqual(authenticate(req('/'), styles, lookup), { kind: 'anonymous' });
});

// The gate in a service: an API-key header or a query token; `GET /public` is open, `GET /me` needs a caller.
type Ctx = { auth: Authenticated<string> };
const styles = [apiKeyHeader('X-Api-Key'), queryToken('token')];
const service = defineService<Record<string, never>, Ctx>({
  id: 'keys', version: '1', dataset: z.object({}).strict(), load: () => {},
  context: (request) => ({ auth: authenticate(request, styles, (secret) => (secret === 'k1' ? 'alice' : undefined)) }),
  operations: [
    operation('public.get', rest('GET', '/public'), () => jsonResponse(200, { open: true })),
    operation('me.get', rest('GET', '/me'), (_call, c) => jsonResponse(200, { user: c.auth.kind === 'ok' ? c.auth.principal : null }), { auth: true }),
  ],
  errors: (error) => jsonResponse(error.status, { error: error.code }),
  refusal: (reason) => new ServiceError(reason === 'not_found' ? 404 : 500, reason, reason),
  middleware: [authGate<Ctx>({
    authenticated: (c) => c.auth.kind,
    bad: () => new ServiceError(401, 'invalid_api_key', 'bad key'),
    missing: (_c, matched) => new ServiceError(401, 'missing_api_key', `${matched?.name} needs a key`),
  })],
});

const { send: sendRaw } = kitWorld(service);
const send = (target: string, headers: [string, string][] = []) => {
  const r = sendRaw('GET', target, headers);
  return { status: r.status, json: r.json };
};

test('the gate: bad keys are refused everywhere, a missing key only where the operation needs a caller', (t) => {
  t.deepEqual(send('/public'), { status: 200, json: { open: true } });
  t.deepEqual(send('/me'), { status: 401, json: { error: 'missing_api_key' } });
  t.deepEqual(send('/me', [['X-Api-Key', 'k1']]), { status: 200, json: { user: 'alice' } });
  t.deepEqual(send('/me?token=k1'), { status: 200, json: { user: 'alice' } });
  t.deepEqual(send('/public', [['X-Api-Key', 'k2']]), { status: 401, json: { error: 'invalid_api_key' } }, 'an unknown key even on an open operation');
  t.deepEqual(send('/public?token='), { status: 401, json: { error: 'invalid_api_key' } });
});
