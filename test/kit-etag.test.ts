import test from 'ava';
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { jsonResponse } from '../mocks/core/http.js';
import { defineService } from '../mocks/kit/define.js';
import { ServiceError } from '../mocks/kit/errors.js';
import { etag, etagMatches, weakEtag } from '../mocks/kit/etag.js';
import { operation, rest } from '../mocks/kit/operation.js';
import { kitWorld } from './helpers/kit-world.js';

test('weakEtag is W/ and the SHA-256 of the body; If-None-Match compares weakly, by list, and * names any', (t) => {
  const body = new TextEncoder().encode('{"a":1}');
  const tag = weakEtag(body);
  t.is(tag, `W/"${createHash('sha256').update(body).digest('hex')}"`);
  t.true(etagMatches(tag, tag));
  t.true(etagMatches(tag.slice(2), tag), 'a strong tag of the same value matches weakly');
  t.true(etagMatches(`"other", ${tag}`, tag));
  t.true(etagMatches('*', tag));
  t.false(etagMatches('"other"', tag));
  t.false(etagMatches(undefined, tag));
  t.false(etagMatches('', tag));
});

// A counter: GET reads it, POST bumps it, GET /missing is a 404, GET /private adds a cache header.
let value = 0;
const service = defineService<Record<string, never>, { user: string | null }>({
  id: 'counter', version: '1', dataset: z.object({}).strict(), load: () => {},
  context: (req) => ({ user: req.header('authorization') ?? null }),
  operations: [
    operation('counter.get', rest('GET', '/counter'), () => jsonResponse(200, { value })),
    operation('counter.bump', rest('POST', '/counter'), () => jsonResponse(200, { value: ++value })),
    operation('missing.get', rest('GET', '/missing'), () => { throw new ServiceError(404, 'not_found', 'nope'); }),
  ],
  errors: (error) => jsonResponse(error.status, { message: error.message }),
  refusal: (reason) => new ServiceError(404, reason, reason),
  middleware: [etag({ headers: (c) => [['Cache-Control', c.user ? 'private, max-age=60' : 'public, max-age=60']] })],
});
const { send } = kitWorld(service);

test('a 200 GET gets the service\'s cache headers and an ETag; If-None-Match with it is a bodiless 304', (t) => {
  const first = send('GET', '/counter');
  t.is(first.status, 200);
  const tag = first.header('etag')!;
  t.is(tag, weakEtag(first.entry.response.body));
  t.deepEqual(first.headers.slice(-2), [['Cache-Control', 'public, max-age=60'], ['ETag', tag]], 'after the answer\'s own headers');
  const again = send('GET', '/counter', [['If-None-Match', tag]]);
  t.is(again.status, 304);
  t.is(again.text, '');
  t.deepEqual(again.headers, [['Cache-Control', 'public, max-age=60'], ['ETag', tag]]);
  t.is(send('GET', '/counter', [['If-None-Match', tag], ['Authorization', 'x']]).header('cache-control'), 'private, max-age=60');
  t.is(send('HEAD', '/counter', [['If-None-Match', tag]]).status, 304, 'HEAD is conditional too');
});

test('a changed resource gets a new tag and a full answer; writes and errors get no tag', (t) => {
  const before = send('GET', '/counter').header('etag')!;
  const write = send('POST', '/counter');
  t.is(write.status, 200);
  t.is(write.header('etag'), undefined, 'POST is not cacheable');
  const after = send('GET', '/counter', [['If-None-Match', before]]);
  t.is(after.status, 200);
  t.not(after.header('etag'), before);
  const missing = send('GET', '/missing', [['If-None-Match', '*']]);
  t.is(missing.status, 404);
  t.is(missing.header('etag'), undefined);
});
