import { connect } from 'node:net';
import fc from 'fast-check';
import { LONG } from './reliability.js';

/**
 * Generators of malformed HTTP for the fuzz tests, and a probe that throws bytes at a port and
 * says how the server answered. `runs(n)`: n cases by default, 5n with TOOLBENCH_LONG_TESTS=1.
 * TOOLBENCH_FUZZ_SEED replays one run of every property (fast-check prints the seed on failure).
 */
export const runs = (n: number) => (LONG ? n * 5 : n);
export const fuzzSeed = process.env.TOOLBENCH_FUZZ_SEED ? Number(process.env.TOOLBENCH_FUZZ_SEED) : undefined;
/** Per-test time limit: the long variants run 5x the cases. */
export const fuzzTimeout = LONG ? 300_000 : 60_000;
export const fcOptions = (n: number) => ({ numRuns: runs(n), seed: fuzzSeed, endOnFailure: true, includeErrorInReport: true });

const TOKEN_CHARS = "!#$%&'*+.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-".split('');
const tokenOf = (max: number) => fc.array(fc.constantFrom(...TOKEN_CHARS), { minLength: 1, maxLength: max }).map((chars) => chars.join(''));
/** Any bytes as a latin1 string (every char one byte), printable or not. */
const bytesText = (max: number) => fc.uint8Array({ maxLength: max }).map((bytes) => Buffer.from(bytes).toString('latin1'));

export const methodArb = fc.oneof(
  fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE', 'CONNECT', 'PRI', 'get', 'G ET', ''),
  tokenOf(12),
  bytesText(8),
);

export const targetArb = fc.oneof(
  fc.constantFrom('/', '/user', '/repos/acme/widgets/issues', '/repos/acme/widgets/issues/1', '*', '//', '/%zz', '/a b', '/\u0000',
    'http://api.github.com/user', 'https://api.github.com/', 'http://[::1/x', 'http://user:pw@api.github.com:99999/', 'api.github.com:443',
    '/?' + 'q'.repeat(9000), '/' + '../'.repeat(50) + 'etc/passwd'),
  fc.webPath().map((path) => (path.startsWith('/') ? path : `/${path}`)),
  bytesText(40).map((text) => `/${text}`),
  bytesText(20),
);

export const versionArb = fc.constantFrom('HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/0.9', 'HTTP/9.9', 'http/1.1', 'HTTP/1.x', 'HTTP/1.1 ', 'HTTP/', '', 'HTTP/1.1\u0000');
export const eolArb = fc.constantFrom('\r\n', '\r\n', '\r\n', '\n', '\r', '\r\n ', '');

const headerNameArb = fc.oneof(
  fc.constantFrom('Host', 'Content-Length', 'Transfer-Encoding', 'Connection', 'Authorization', 'Expect', 'Upgrade', 'Content-Type',
    'Proxy-Authorization', 'Proxy-Connection', 'TE', 'Trailer', 'Keep-Alive', 'X-Toolbench-Forwarded', 'content-length', ' Host', 'Host '),
  tokenOf(16),
  bytesText(8),
);
const headerValueArb = fc.oneof(
  fc.constantFrom('api.github.com', 'chunked', 'gzip, chunked', 'chunked, identity', 'identity', '0', '-1', '3', '99999999999999999999',
    '18446744073709551616', '1e3', ' 5', '5, 5', '0x10', 'close', 'keep-alive', 'upgrade', 'h2c', 'websocket', '100-continue',
    'Bearer ghp_aliceAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'Basic Og==', 'application/json', '', ' ', '\t'),
  fc.string({ maxLength: 40 }),
  bytesText(24),
);
export const headersArb = fc.array(fc.tuple(headerNameArb, headerValueArb), { maxLength: 12 });

/** A chunked body, often broken: bad sizes, missing CRLFs, extensions, trailers, no last chunk. */
export const chunkedArb = fc.tuple(
  fc.array(fc.tuple(
    fc.oneof(fc.nat(64).map((n) => n.toString(16)), fc.constantFrom('zz', '-1', 'ffffffffffffffffff', '', ' 1', '1;ext=1', '1 ;x', '0x1', '10000000')),
    bytesText(40),
    fc.constantFrom('\r\n', '', '\n', 'XX'),
  ), { maxLength: 5 }),
  fc.constantFrom('0\r\n\r\n', '0\r\nX-Trailer: y\r\n\r\n', '', '0\r\n', '0;ext\r\n\r\n'),
).map(([chunks, last]) => chunks.map(([size, data, end]) => `${size}\r\n${data}${end}`).join('') + last);

export const bodyArb = fc.oneof(fc.constant(''), chunkedArb, bytesText(200), fc.constantFrom('{"title":"x"}', '{"title": "unterminated', '[]', 'null'));

/** Mostly `usual`, sometimes anything from `arb`: so that some cases get past the parser to the world. */
export const mostly = <T>(usual: fc.Arbitrary<T>, arb: fc.Arbitrary<T>, weight = 3) => fc.oneof({ weight, arbitrary: usual }, arb);
const AUTH: [string, string] = ['Authorization', 'Bearer ghp_aliceAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'];
const HOST: [string, string] = ['Host', 'api.github.com'];

/** One malformed (or occasionally valid) HTTP/1.x request as bytes. */
export const requestArb = fc.oneof(
  { weight: 3, arbitrary: fc.record({ method: methodArb, target: targetArb, version: versionArb, eol: eolArb, headers: headersArb, body: bodyArb })
    .map(({ method, target, version, eol, headers, body }) =>
      `${method} ${target} ${version}${eol}${headers.map(([name, value]) => `${name}: ${value}${eol}`).join('')}${eol}${body}`) },
  // Nearly right: usual request lines and headers, one or two things off.
  { weight: 4, arbitrary: fc.record({
    method: mostly(fc.constantFrom('GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'HEAD'), methodArb),
    target: mostly(fc.constantFrom('/user', '/repos/acme/widgets', '/repos/acme/widgets/issues', '/repos/acme/widgets/issues/1', '/search/issues?q=bug'), targetArb),
    version: mostly(fc.constant('HTTP/1.1'), versionArb, 6),
    eol: mostly(fc.constant('\r\n'), eolArb, 8),
    headers: fc.tuple(fc.nat(5).map((n) => n > 0), fc.nat(3).map((n) => n > 0), fc.array(fc.tuple(headerNameArb, headerValueArb), { maxLength: 3 }))
      .map(([host, auth, extra]) => [...(host ? [HOST] : []), ...(auth ? [AUTH] : []), ...extra]),
    body: bodyArb,
  }).map(({ method, target, version, eol, headers, body }) =>
    `${method} ${target} ${version}${eol}${headers.map(([name, value]) => `${name}: ${value}${eol}`).join('')}${eol}${body}`) },
  // Well-formed framing with hostile framing headers: smuggling shapes, huge and conflicting lengths.
  { weight: 3, arbitrary: fc.record({
    length: fc.constantFrom('Content-Length: 99999999999999999999', 'Content-Length: 10737418240', 'Content-Length: 5\r\nContent-Length: 6',
      'Content-Length: -5', 'Content-Length: abc', 'Transfer-Encoding: chunked\r\nContent-Length: 3', 'Transfer-Encoding: xchunked',
      'Transfer-Encoding: chunked\r\nTransfer-Encoding: identity', 'Content-Length: 4', 'Transfer-Encoding: chunked'),
    method: fc.constantFrom('GET', 'POST', 'PATCH'), target: fc.constantFrom('/user', '/repos/acme/widgets/issues', 'http://api.github.com/repos/acme/widgets/issues'),
    body: bodyArb,
  }).map(({ length, method, target, body }) => `${method} ${target} HTTP/1.1\r\nHost: api.github.com\r\nAuthorization: Bearer ghp_aliceAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\r\n${length}\r\n\r\n${body}`) },
  // Floods: many headers, one huge header, a huge request line.
  { weight: 1, arbitrary: fc.record({ count: fc.integer({ min: 500, max: 5000 }), size: fc.integer({ min: 1, max: 40 }) })
    .map(({ count, size }) => `GET /user HTTP/1.1\r\nHost: api.github.com\r\n${Array.from({ length: count }, (_, i) => `X-F${i}: ${'v'.repeat(size)}\r\n`).join('')}\r\n`) },
  { weight: 1, arbitrary: fc.integer({ min: 8_000, max: 70_000 }).map((n) => `GET /${'a'.repeat(n)} HTTP/1.1\r\nHost: api.github.com\r\n\r\n`) },
  { weight: 1, arbitrary: fc.integer({ min: 8_000, max: 70_000 }).map((n) => `GET /user HTTP/1.1\r\nHost: api.github.com\r\nX-Big: ${'b'.repeat(n)}\r\n\r\n`) },
);

/** Where to cut the bytes into writes (1 to 3 pieces). */
export const splitsArb = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 2 });

export interface ProbeResult {
  reply: Buffer;
  /** The server closed the connection (else the probe gave up after `limitMs`). */
  closed: boolean;
  ms: number;
}

/**
 * Connects to `port`, writes `data` in pieces (cut at the `splits` fractions), half-closes, and
 * reads until the server closes the connection or `limitMs` passes.
 */
export function probe(port: number, data: string | Buffer, splits: number[] = [], limitMs = 4_000, halfClose = true): Promise<ProbeResult> {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'latin1') : data;
  const cuts = [...new Set(splits.map((f) => Math.floor(f * bytes.length)))].sort((a, b) => a - b);
  const pieces = [0, ...cuts, bytes.length].slice(1).map((end, i, all) => bytes.subarray(i === 0 ? 0 : all[i - 1]!, end)).filter((p) => p.length > 0);
  return new Promise((resolve) => {
    const started = Date.now();
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1');
    const done = (closed: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ reply: Buffer.concat(chunks), closed, ms: Date.now() - started });
    };
    const timer = setTimeout(() => done(false), limitMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => {});
    socket.once('close', () => done(true));
    socket.once('connect', () => {
      for (const piece of pieces) socket.write(piece);
      if (halfClose) socket.end();
    });
  });
}

/** Every HTTP response in `reply` must start with a well-formed status line. */
export function statusLines(reply: Buffer): number[] {
  const text = reply.toString('latin1');
  return [...text.matchAll(/(?:^|\r\n)HTTP\/1\.1 (\d{3}) [^\r\n]*\r\n/g)].map((m) => Number(m[1]));
}

export function replyIsHttpOrNothing(reply: Buffer): boolean {
  return reply.length === 0 || /^HTTP\/1\.1 \d{3} [^\r\n]*\r\n/.test(reply.toString('latin1'));
}
