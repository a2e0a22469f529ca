import type { World } from '../mocks/core/world.js';
import { blockedResponse } from './blocked.js';
import { deliverResponse } from './deliver.js';
import { DEFAULT_BODY_LIMIT, readRequest } from './http-exchange.js';
import { worldHeaders } from './headers.js';
import type { Upstream } from './upstream.js';

/** The world in this process: requests go straight to `World.dispatch`, no sockets in between. */
export function worldUpstream(world: World, options: { bodyLimit?: number; log?: (message: string) => void } = {}): Upstream {
  const log = options.log ?? ((message: string) => process.stderr.write(`toolbench proxy: ${message}\n`));
  return {
    forward(req, res, to) {
      readRequest(req, options.bodyLimit ?? DEFAULT_BODY_LIMIT)
        .then((read) => world.dispatch({
          service: to.service, host: to.host, method: read.method, target: to.target,
          headers: worldHeaders(read.headers), body: read.body, oversize: read.oversize, attribution: to.attribution,
        }))
        .then((response) => {
          if (response.status === 413) res.shouldKeepAlive = false;
          deliverResponse(res, response, world.config.latency);
        })
        .catch((error: unknown) => {
          // Only the journal can fail here: drop the connection rather than answer unjournaled.
          // (A client that left mid-request made readRequest fail: nobody to answer, nothing to say.)
          if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') log(`${to.host} request failed: ${(error as Error).message}`);
          res.destroy();
        });
    },
    refuse(request) {
      const { why, ...rest } = request;
      return world.recordBlocked(rest, blockedResponse(request.host, why));
    },
    async close() {},
  };
}
