import type { ServerResponse } from 'node:http';
import { resetPart } from '../mocks/core/faults.js';
import type { WorldResponse } from '../mocks/core/world.js';
import { writeResponse } from './http-exchange.js';

/**
 * Sends a world response the way its fault says (docs/faults.md). With `latency: 'real'`
 * (recording) the answer waits the fault's `latencyMs` of real time, a timeout's hold included;
 * with `skip` (replay) it goes at once. A `reset` sends the status line, the headers and the first
 * half of the body (`resetPart`), then closes the connection; a `timeout` sends its answer after
 * the hold to a client that still waits. The bytes are always the journaled ones.
 */
export function deliverResponse(res: ServerResponse, response: WorldResponse, latency: 'real' | 'skip' = 'real'): void {
  const fault = response.fault;
  if (fault?.kind === 'reset' || fault?.kind === 'timeout') res.shouldKeepAlive = false;
  const send = () => {
    // A client that gave up while the answer waited closed the connection: nothing to send to.
    if (res.destroyed || res.writableEnded) return;
    if (fault?.kind === 'reset') cut(res, response);
    else writeResponse(res, response);
  };
  const waitMs = latency === 'real' ? fault?.latencyMs ?? 0 : 0;
  if (waitMs <= 0) return send();
  const timer = setTimeout(send, waitMs);
  res.once('close', () => clearTimeout(timer));
}

function cut(res: ServerResponse, response: WorldResponse): void {
  const part = resetPart(response);
  if (part.status === 0) {
    res.destroy();
    return;
  }
  res.sendDate = false;
  res.writeHead(part.status, part.headers.flat());
  res.write(part.body, () => res.destroy());
}
