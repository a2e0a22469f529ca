import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/** What the proxy knows about a connection before its first request: who and where to. */
export interface Session {
  /** The host the client tunnelled to (CONNECT) or named in its TLS ClientHello (SNI). */
  host: string;
  /** The client named by the proxy credential, or null. */
  client: string | null;
}

export interface HttpTimeouts {
  /** Time allowed for a request's headers. */
  headersMs: number;
  /** Time allowed for a whole request. */
  requestMs: number;
  /** Idle time between requests on a kept-alive connection. */
  keepAliveMs: number;
}

/**
 * The HTTP/1.1 parser for decrypted and tunnelled connections. It never listens: listeners hand
 * it connections that already have a session (`adopt`), and every request is passed on with it.
 */
export class InnerServer {
  private readonly sessions = new WeakMap<object, Session>();
  private readonly server;

  constructor(handle: (req: IncomingMessage, res: ServerResponse, session: Session) => void, timeouts: HttpTimeouts) {
    this.server = createServer({
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      keepAliveTimeout: timeouts.keepAliveMs,
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(timeouts.headersMs / 2))),
    }, (req, res) => {
      const session = this.sessions.get(req.socket);
      if (session) handle(req, res, session);
      else res.destroy();
    });
    // Node enforces headersTimeout/requestTimeout from a timer it starts on 'listening'; this
    // server never listens, so start it by hand.
    this.server.emit('listening');
  }

  /**
   * Parses HTTP on `socket` from now on. `first` is data already read from it (to tell TLS from
   * plain HTTP); it is fed to the parser before anything else.
   */
  adopt(socket: Duplex, session: Session, first?: Buffer): void {
    this.sessions.set(socket, session);
    this.server.emit('connection', socket);
    if (first && first.length > 0) socket.emit('data', first);
  }

  close(): void {
    this.server.closeAllConnections();
    this.server.close(() => {});
  }
}
