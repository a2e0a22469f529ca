import { createSecureContext, TLSSocket, type SecureContext, type TLSSocketOptions } from 'node:tls';
import type { Socket } from 'node:net';
import type { Leaf } from '../certs/leaves.js';

/** Where leaves come from: the certs/ cache, concrete hosts prepared before the proxy listens. */
export interface LeafSource {
  get(host: string): Leaf | undefined;
  /** A leaf for a host under a catalog pattern, issued when first asked (signed, never a new key). */
  issue?(host: string): Leaf;
}

/**
 * One TLS context per hostname, built on first use from its leaf and kept. Callers ask only for
 * hosts the routes matched to a catalog entry, so issuing for a pattern host is safe here.
 */
export class SecureContexts {
  private readonly byHost = new Map<string, SecureContext>();

  constructor(private readonly leaves: LeafSource) {}

  get(host: string): SecureContext | undefined {
    const cached = this.byHost.get(host);
    if (cached) return cached;
    let leaf = this.leaves.get(host);
    if (!leaf && this.leaves.issue) {
      try {
        leaf = this.leaves.issue(host);
      } catch {
        return undefined; // not permitted by the CA: the caller refuses the host
      }
    }
    if (!leaf) return undefined;
    const context = createSecureContext({ key: leaf.keyPem, cert: leaf.certPem });
    this.byHost.set(host, context);
    return context;
  }
}

/** A fatal TLS alert: unrecognized_name (112), for a ClientHello naming a host we do not serve. */
export const UNRECOGNIZED_NAME_ALERT = Buffer.from([0x15, 0x03, 0x01, 0x00, 0x02, 0x02, 0x70]);

/**
 * Node's HTTP server pauses a connection's parser while a response's unsent bytes exceed the
 * socket's high-water mark (16 KiB), and resumes on 'drain'. On a TLS socket it adopted (not one
 * it accepted), a client that has already read the whole response and sends its next request
 * before that 'drain' gets the connection closed under it ("Parse Error: Paused"): slack-mcp-server
 * posts client.userBoot right after a large users.list and died of it under load. A high-water
 * mark above any answer the world gives keeps the parser running.
 */
const TLS_HIGH_WATER_MARK = 8 * 1024 * 1024;

/**
 * Terminates TLS on `socket` as the server for one host. `onSecure` runs after the handshake;
 * a handshake that fails or takes longer than `handshakeMs` destroys the socket.
 */
export function terminateTls(socket: Socket, context: SecureContext, handshakeMs: number, onSecure: (tls: TLSSocket) => void): TLSSocket {
  // Node 20's TLSSocket takes highWaterMark (it passes it to the socket); @types/node does not list it.
  const options: TLSSocketOptions & { highWaterMark: number } = { isServer: true, secureContext: context, ALPNProtocols: ['http/1.1'], highWaterMark: TLS_HIGH_WATER_MARK };
  const tls = new TLSSocket(socket, options);
  const timer = setTimeout(() => tls.destroy(), handshakeMs);
  let secure = false;
  tls.once('secure', () => {
    secure = true;
    clearTimeout(timer);
    onSecure(tls);
  });
  tls.once('close', () => clearTimeout(timer));
  // A client that closes its side mid-handshake can never finish it: let go now, not at the
  // limit (a CONNECT tunnel's socket allows half-open connections, so nothing else would).
  tls.once('end', () => {
    if (!secure) tls.destroy();
  });
  // Handshake failures (bad bytes, a client that rejects our certificate) end the connection.
  tls.on('error', () => tls.destroy());
  return tls;
}
