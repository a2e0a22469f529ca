import { bytes, type ServiceResponse } from '../mocks/core/http.js';

import type { Refusal } from './upstream.js';

/**
 * The answer to a request for a host the proxy will not serve: a 403 naming the host and how to
 * change that (a cloud-metadata probe: a 404, what an offline machine's SDKs take as "not in a
 * cloud"). Deterministic, so a split proxy and its world (and replay) build the same bytes.
 */
export function blockedResponse(host: string, why: Refusal = 'outside-catalog'): ServiceResponse {
  if (why === 'cloud-metadata') {
    return {
      status: 404,
      headers: [['Content-Type', 'text/plain; charset=utf-8']],
      body: bytes(`toolbench proxy: ${host} is a cloud-metadata endpoint; there is no cloud here. Refused and journaled as blocked.\n`),
    };
  }
  const text = why === 'outside-catalog'
    ? `toolbench proxy: ${host} is not in the catalog, so this request was refused and journaled as blocked; ` +
      'nothing left the machine. To mock the host, add it to a service\'s `hostnames` in catalog/services.toml; ' +
      'to let it through untouched (a model API), add it to `passthrough` there.\n'
    : `toolbench proxy: ${host} is a passthrough host, which is only tunnelled (CONNECT or TLS), never served as plain HTTP; ` +
      'this request was refused and journaled as blocked.\n';
  return {
    status: 403,
    headers: [['Content-Type', 'text/plain; charset=utf-8']],
    body: bytes(text),
  };
}
