/**
 * Reads the server name (SNI) from the first bytes of a TLS connection without terminating it,
 * so the transparent listener can decide (terminate, tunnel raw, refuse) before any handshake.
 * Pure: bytes in, a verdict out.
 */
export type HelloVerdict =
  /** More bytes are needed to see the whole ClientHello. */
  | { kind: 'incomplete' }
  /** Not a TLS handshake (or a malformed one). */
  | { kind: 'not-tls'; reason: string }
  /** A ClientHello; `sni` is null when it names no server. */
  | { kind: 'hello'; sni: string | null };

/** A ClientHello larger than this is refused rather than buffered. */
export const MAX_HELLO_BYTES = 64 * 1024;

const HANDSHAKE = 0x16;
const CLIENT_HELLO = 0x01;
const SERVER_NAME = 0x0000;

export function looksLikeTls(first: Uint8Array): boolean {
  return first.length > 0 && first[0] === HANDSHAKE;
}

export function readClientHello(data: Uint8Array): HelloVerdict {
  // Handshake messages may span several records: collect the payloads first.
  const payload: number[] = [];
  let offset = 0;
  let needed: number | null = null;
  while (needed === null || payload.length < needed) {
    if (data.length < offset + 5) return incompleteOr(data, offset);
    if (data[offset] !== HANDSHAKE) return { kind: 'not-tls', reason: 'not a TLS handshake record' };
    if (data[offset + 1] !== 0x03) return { kind: 'not-tls', reason: 'unknown TLS record version' };
    const length = (data[offset + 3]! << 8) | data[offset + 4]!;
    if (length === 0) return { kind: 'not-tls', reason: 'empty TLS record' };
    if (data.length < offset + 5 + length) return incompleteOr(data, offset + 5 + length);
    for (let i = 0; i < length; i++) payload.push(data[offset + 5 + i]!);
    offset += 5 + length;
    if (needed === null && payload.length >= 4) {
      if (payload[0] !== CLIENT_HELLO) return { kind: 'not-tls', reason: 'first handshake message is not a ClientHello' };
      needed = 4 + ((payload[1]! << 16) | (payload[2]! << 8) | payload[3]!);
      if (needed > MAX_HELLO_BYTES) return { kind: 'not-tls', reason: 'ClientHello too large' };
    }
  }
  return parseHello(Uint8Array.from(payload.slice(4, needed)));
}

function incompleteOr(data: Uint8Array, wanted: number): HelloVerdict {
  return wanted > MAX_HELLO_BYTES || data.length > MAX_HELLO_BYTES
    ? { kind: 'not-tls', reason: 'ClientHello too large' }
    : { kind: 'incomplete' };
}

function parseHello(body: Uint8Array): HelloVerdict {
  const bad = (reason: string): HelloVerdict => ({ kind: 'not-tls', reason: `malformed ClientHello: ${reason}` });
  let p = 2 + 32; // client_version, random
  if (body.length < p + 1) return bad('too short');
  p += 1 + body[p]!; // session_id
  if (body.length < p + 2) return bad('no cipher suites');
  p += 2 + ((body[p]! << 8) | body[p + 1]!);
  if (body.length < p + 1) return bad('no compression methods');
  p += 1 + body[p]!;
  if (body.length === p) return { kind: 'hello', sni: null }; // no extensions at all
  if (body.length < p + 2) return bad('truncated extensions');
  const end = p + 2 + ((body[p]! << 8) | body[p + 1]!);
  if (end > body.length) return bad('extensions overrun');
  p += 2;
  while (p + 4 <= end) {
    const type = (body[p]! << 8) | body[p + 1]!;
    const length = (body[p + 2]! << 8) | body[p + 3]!;
    p += 4;
    if (p + length > end) return bad('extension overrun');
    if (type === SERVER_NAME) return readServerName(body.subarray(p, p + length)) ?? bad('bad server_name extension');
    p += length;
  }
  return { kind: 'hello', sni: null };
}

function readServerName(ext: Uint8Array): HelloVerdict | null {
  if (ext.length < 2) return null;
  const end = Math.min(ext.length, 2 + ((ext[0]! << 8) | ext[1]!));
  let p = 2;
  while (p + 3 <= end) {
    const type = ext[p]!;
    const length = (ext[p + 1]! << 8) | ext[p + 2]!;
    p += 3;
    if (p + length > end) return null;
    if (type === 0) {
      const name = Buffer.from(ext.subarray(p, p + length)).toString('latin1');
      return /^[\x21-\x7e]+$/.test(name) ? { kind: 'hello', sni: name.toLowerCase() } : null;
    }
    p += length;
  }
  return { kind: 'hello', sni: null };
}
