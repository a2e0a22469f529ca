import type { LoadedCa } from '../certs/ca.js';
import { preloadNodeOptions, PRELOAD_PATH } from './preload-path.js';

/**
 * The one builder of a child process's network environment: every MCP endpoint (catalog/
 * supervisor.ts), the agent under test (scenarios/record.ts) and `toolbench certs env` take it
 * from here, so they cannot disagree.
 *
 * - Trust: Node adds NODE_EXTRA_CA_CERTS (the CA alone) to its roots; Python, curl, OpenSSL tools
 *   and Go (crypto/x509 on Linux) replace their store with SSL_CERT_FILE and friends, so those get
 *   the bundle (Node's public roots plus the CA), which keeps passthrough hosts reachable.
 * - Proxy: HTTPS_PROXY/HTTP_PROXY in both cases (curl reads only lower-case http_proxy; Go, Python
 *   and undici read either), with the client's credential as userinfo. Loopback stays direct
 *   (NO_PROXY), so base-URL endpoints reach the world's plain service ports without the proxy.
 * - Node 20 ignores the proxy variables: the preload (NODE_OPTIONS) routes fetch and http(s).
 */
export const LOOPBACK_NO_PROXY = 'localhost,127.0.0.1,::1';

export type TrustedCa = Pick<LoadedCa, 'certPath' | 'bundlePath'>;

export function caTrustEnvironment(ca: TrustedCa): Record<string, string> {
  return {
    NODE_EXTRA_CA_CERTS: ca.certPath,
    SSL_CERT_FILE: ca.bundlePath,
    REQUESTS_CA_BUNDLE: ca.bundlePath,
    CURL_CA_BUNDLE: ca.bundlePath,
  };
}

/** The proxy variables and the Node preload; `proxyUrl` should carry the client's credential as userinfo. */
export function proxyEnvironment(proxyUrl: string, preloadPath = PRELOAD_PATH): Record<string, string> {
  return {
    HTTPS_PROXY: proxyUrl,
    HTTP_PROXY: proxyUrl,
    https_proxy: proxyUrl,
    http_proxy: proxyUrl,
    NO_PROXY: LOOPBACK_NO_PROXY,
    no_proxy: LOOPBACK_NO_PROXY,
    NODE_OPTIONS: preloadNodeOptions(preloadPath),
  };
}

export interface ChildNetwork {
  /** The proxy URL with this client's credential as userinfo. */
  proxyUrl: string;
  ca: TrustedCa;
  /** Default: proxy/preload.mjs. */
  preloadPath?: string;
  /** The caller's own NODE_OPTIONS (a memory flag, a guard): the preload joins them, never replaces them. */
  nodeOptions?: string;
}

/** Trust and proxy together: what every endpoint and agent gets. */
export function childEnvironment(network: ChildNetwork): Record<string, string> {
  const proxy = proxyEnvironment(network.proxyUrl, network.preloadPath);
  return {
    ...caTrustEnvironment(network.ca),
    ...proxy,
    NODE_OPTIONS: [network.nodeOptions, proxy.NODE_OPTIONS].filter(Boolean).join(' '),
  };
}

/** `export NAME='value'` lines for a POSIX shell. */
export function shellExports(env: Record<string, string>): string {
  return Object.entries(env).map(([name, value]) => `export ${name}='${value.replaceAll("'", `'\\''`)}'\n`).join('');
}
