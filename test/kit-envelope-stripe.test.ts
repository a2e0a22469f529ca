import test from 'ava';
import { z } from 'zod';
import { stripeError, stripeErrorBody, stripeErrors, stripeParamError, stripeParamName, stripeRefusal } from '../mocks/kit/envelopes/stripe.js';
import { ServiceError } from '../mocks/kit/errors.js';

const body = (error: ServiceError) => JSON.parse(new TextDecoder().decode(stripeErrors(error).body));

test('the envelope: {error: {code, doc_url, message, param, type}} in Stripe\'s key order, only what applies', (t) => {
  const error = stripeError(404, 'invalid_request_error', 'resource_missing', "No such customer: 'cus_x'", 'id');
  const response = stripeErrors(error);
  t.is(response.status, 404);
  t.deepEqual(body(error), { error: { code: 'resource_missing', doc_url: 'https://stripe.com/docs/error-codes/resource-missing', message: "No such customer: 'cus_x'", param: 'id', type: 'invalid_request_error' } });
  t.deepEqual(Object.keys(body(error).error), ['code', 'doc_url', 'message', 'param', 'type']);
  t.deepEqual(body(stripeError(401, 'invalid_request_error', '', 'Invalid API Key provided: sk_test_****1234')), { error: { message: 'Invalid API Key provided: sk_test_****1234', type: 'invalid_request_error' } });
  t.is(stripeErrorBody(new ServiceError(502, '', 'upstream')).error.type, 'api_error', 'a 5xx without a type is api_error');
  t.is(stripeErrorBody(new ServiceError(402, 'card_declined', 'Your card was declined.', { type: 'card_error', decline_code: 'insufficient_funds' })).error.decline_code, 'insufficient_funds');
  t.deepEqual(stripeErrors(stripeError(429, 'invalid_request_error', 'rate_limit', 'slow down', undefined, [['Retry-After', '1']])).headers.at(-1), ['Retry-After', '1']);
});

test('zod issues become Stripe\'s parameter errors, nested names in bracket form', (t) => {
  t.is(stripeParamName(['items', 0, 'price']), 'items[0][price]');
  const schema = z.object({ customer: z.string(), amount: z.number().int().optional(), reason: z.enum(['duplicate', 'fraudulent']).optional(), items: z.array(z.object({ price: z.string() }).strict()).optional() }).strict();
  const first = (value: unknown) => stripeParamError(schema.safeParse(value).error!.issues[0]!);
  t.like(first({}), { status: 400, code: 'parameter_missing', message: 'Missing required param: customer.', details: { param: 'customer' } });
  t.like(first({ customer: 'c', foo: 1 }), { code: 'parameter_unknown', message: 'Received unknown parameter: foo', details: { param: 'foo' } });
  t.like(first({ customer: 'c', items: [{ price: 'p', bogus: 1 }] }), { code: 'parameter_unknown', details: { param: 'items[0][bogus]' } });
  t.like(first({ customer: 'c', amount: 'ten' }), { code: 'parameter_invalid_integer', details: { param: 'amount' } });
  t.like(first({ customer: 'c', reason: 'bored' }), { message: 'Invalid reason: must be one of duplicate, fraudulent', details: { param: 'reason' } });
});

test('the kit\'s refusals in Stripe\'s words and statuses', (t) => {
  t.like(stripeRefusal('not_found', {}, { method: 'GET', path: '/v1/nope' }), { status: 404, message: 'Unrecognized request URL (GET: /v1/nope). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.' });
  t.is(stripeRefusal('method_not_allowed', { allowed: ['GET'] }).status, 404, 'Stripe answers a wrong method as an unknown URL');
  const unauthenticated = stripeRefusal('unauthenticated', {});
  t.is(unauthenticated.status, 401);
  t.deepEqual(unauthenticated.headers, [['WWW-Authenticate', 'Basic realm="Stripe"']]);
  t.is(stripeRefusal('malformed_body', { message: 'bad' }).status, 400);
  t.is(stripeRefusal('payload_too_large', {}).status, 413);
  t.like(stripeErrorBody(stripeRefusal('internal_error', {})), { error: { type: 'api_error' } });
  const issues = z.object({ a: z.string() }).safeParse({}).error!.issues;
  t.like(stripeRefusal('invalid_params', { where: 'body', issues }), { code: 'parameter_missing', details: { param: 'a' } });
});
