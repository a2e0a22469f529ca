import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WrittenResponse } from './http-exchange.js';

/**
 * Writes a whole HTTP/1.1 response onto a raw socket and ends it: the answer to a CONNECT the
 * proxy will not open (Node's HTTP server hands CONNECT requests over as bare sockets).
 */
export function endWithResponse(socket: Duplex, response: WrittenResponse): void {
  const head = [`HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ''}`.trimEnd()];
  for (const [name, value] of response.headers) {
    if (name.toLowerCase() !== 'connection') head.push(`${name}: ${value}`);
  }
  head.push('Connection: close', '', '');
  if (!socket.writable) return void socket.destroy();
  socket.end(Buffer.concat([Buffer.from(head.join('\r\n'), 'latin1'), Buffer.from(response.body)]));
}

/** A plain-text error response (400, 502) for a raw socket. */
export function textResponse(status: number, text: string): WrittenResponse {
  const body = Buffer.from(text.endsWith('\n') ? text : `${text}\n`);
  return { status, headers: [['Content-Type', 'text/plain; charset=utf-8'], ['Content-Length', String(body.length)]], body };
}
