import test from 'ava';
import { slackError, slackErrorStyle, slackOk, slackRateLimited, slackResponseMetadata } from '../mocks/kit/envelopes/slack.js';

const json = (body: Uint8Array) => JSON.parse(new TextDecoder().decode(body));

test('success is HTTP 200 {ok: true, ...}', (t) => {
  const response = slackOk({ channel: 'C1', ts: '1700000000.000100' }, [['X-Extra', '1']]);
  t.is(response.status, 200);
  t.deepEqual(json(response.body), { ok: true, channel: 'C1', ts: '1700000000.000100' });
  t.deepEqual(response.headers, [['Content-Type', 'application/json; charset=utf-8'], ['X-Extra', '1']]);
});

test('errors are HTTP 200 {ok: false, error} with their details at the top level', (t) => {
  const response = slackErrorStyle(slackError('missing_scope', { needed: 'chat:write', provided: 'channels:read' }), null);
  t.is(response.status, 200);
  t.deepEqual(json(response.body), { ok: false, error: 'missing_scope', needed: 'chat:write', provided: 'channels:read' });
});

test('rate limiting is HTTP 429 with Retry-After and error ratelimited', (t) => {
  const response = slackErrorStyle(slackRateLimited(30), null);
  t.is(response.status, 429);
  t.deepEqual(json(response.body), { ok: false, error: 'ratelimited' });
  t.deepEqual(response.headers.at(-1), ['Retry-After', '30']);
});

test('response_metadata: next_cursor is "" on the last page; warnings when there are some', (t) => {
  t.deepEqual(slackResponseMetadata(null), { response_metadata: { next_cursor: '' } });
  t.deepEqual(slackResponseMetadata('dXNlcjpVMQ==', ['superfluous_charset']), { response_metadata: { next_cursor: 'dXNlcjpVMQ==', warnings: ['superfluous_charset'] } });
});
