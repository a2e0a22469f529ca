import dns from 'node:dns';
import net from 'node:net';

/**
 * Records every outbound connection and DNS lookup this process makes (net.Socket#connect is
 * under net.connect, tls.connect, http and undici alike), to prove the proxy never opens a
 * socket beyond loopback.
 */
export interface NetGuard {
  connections: string[];
  lookups: string[];
  /** Connections to anything but loopback. */
  outside(): string[];
  /** Names looked up other than loopback ones. */
  outsideLookups(): string[];
  restore(): void;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost|::ffff:127\.\d+\.\d+\.\d+)$/;

export function guardNetwork(): NetGuard {
  const connections: string[] = [];
  const lookups: string[] = [];
  const originalConnect = net.Socket.prototype.connect;
  const originalLookup = dns.lookup;
  net.Socket.prototype.connect = function guardedConnect(this: net.Socket, ...args: unknown[]) {
    const [first, second] = args as [unknown, unknown];
    const options = (Array.isArray(first) ? first[0] : first) as { host?: string; path?: string; port?: number } | number | string;
    if (typeof options === 'object' && options !== null) connections.push(options.path ?? `${options.host ?? 'localhost'}:${options.port}`);
    else if (typeof options === 'number') connections.push(`${typeof second === 'string' ? second : 'localhost'}:${options}`);
    else connections.push(String(options));
    return (originalConnect as (...a: unknown[]) => net.Socket).apply(this, args);
  } as typeof net.Socket.prototype.connect;
  (dns as { lookup: unknown }).lookup = function guardedLookup(hostname: string, ...rest: unknown[]) {
    lookups.push(hostname);
    return (originalLookup as (...a: unknown[]) => unknown)(hostname, ...rest);
  };
  return {
    connections,
    lookups,
    outside: () => connections.filter((target) => {
      if (target.startsWith('/')) return false; // a Unix socket
      const host = target.slice(0, target.lastIndexOf(':')).replace(/^\[|\]$/g, '');
      return !LOOPBACK.test(host);
    }),
    outsideLookups: () => lookups.filter((name) => !LOOPBACK.test(name)),
    restore() {
      net.Socket.prototype.connect = originalConnect;
      (dns as { lookup: unknown }).lookup = originalLookup;
    },
  };
}
