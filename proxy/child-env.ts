import { preloadNodeOptions, PRELOAD_PATH } from './preload-path.js';

/**
 * The environment that sends a child process's traffic to the proxy: the proxy variables curl,
 * Python, Go and many libraries honour, plus the Node preload (Node 20 ignores them).
 * `proxyUrl` should carry the client's credential as userinfo. Loopback stays direct.
 */
export function proxyEnvironment(proxyUrl: string, preloadPath = PRELOAD_PATH): Record<string, string> {
  const noProxy = 'localhost,127.0.0.1,::1';
  return {
    HTTPS_PROXY: proxyUrl,
    HTTP_PROXY: proxyUrl,
    https_proxy: proxyUrl,
    http_proxy: proxyUrl,
    NO_PROXY: noProxy,
    no_proxy: noProxy,
    NODE_OPTIONS: preloadNodeOptions(preloadPath),
  };
}

/** `export NAME='value'` lines for a POSIX shell. */
export function shellExports(env: Record<string, string>): string {
  return Object.entries(env).map(([name, value]) => `export ${name}='${value.replaceAll("'", `'\\''`)}'\n`).join('');
}
