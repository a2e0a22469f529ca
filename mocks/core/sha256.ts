import * as crypto from 'node:crypto';

type Encoding = 'hex' | 'base64url' | 'base64';

/**
 * sha256 of `data` in one call: Node ≥ 20.12 has `crypto.hash`, about twice as fast as a Hash
 * object on the short inputs hashed per request (ETags, node IDs); a Hash object otherwise, with
 * the same digest.
 */
export const sha256: (data: string | Uint8Array, encoding: Encoding) => string = (crypto as { hash?: unknown }).hash
  ? (data, encoding) => crypto.hash('sha256', data, encoding)
  : (data, encoding) => crypto.createHash('sha256').update(data).digest(encoding);
