// An egress guard for tests, loaded with `node --import` (NODE_OPTIONS) into every process of a
// trial: it records, to the file named by TOOLBENCH_EGRESS_LOG (one JSON line per event, written
// synchronously so a killed process loses nothing), every outbound TCP connect (net, tls, http,
// https, undici: all go through net.Socket#connect), every DNS lookup, every UDP send, and every
// listening address; and it refuses any connect, lookup or UDP send to something other than
// loopback, so that a failing test never sends a packet anywhere. Only for Node code in processes
// that load it: native addons and non-Node children are not covered (docs/SECURITY.md).
import { appendFileSync } from 'node:fs';
import dgram from 'node:dgram';
import dns from 'node:dns';
import net from 'node:net';

const LOG = process.env.TOOLBENCH_EGRESS_LOG;
const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|\[::1\]|localhost|::ffff:127\.\d+\.\d+\.\d+|0:0:0:0:0:0:0:1)$/i;

function record(kind, detail) {
  if (LOG) appendFileSync(LOG, JSON.stringify({ pid: process.pid, ppid: process.ppid, kind, ...detail }) + '\n');
}

/** `{host, port}` or `{path}` of Socket#connect's arguments, in any of its call shapes. */
function connectTarget(args) {
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  if (first && typeof first === 'object') return first.path ? { path: String(first.path) } : { host: first.host ?? 'localhost', port: first.port };
  if (typeof first === 'number' || /^\d+$/.test(String(first))) return { host: typeof args[1] === 'string' ? args[1] : 'localhost', port: Number(first) };
  return { path: String(first) };
}

if (LOG) {
  record('loaded', { argv: process.argv.slice(1, 3) });

  const connect = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function guardedConnect(...args) {
    const target = connectTarget(args);
    const outside = target.host !== undefined && !LOOPBACK.test(String(target.host));
    record('connect', { ...target, refused: outside });
    if (outside) {
      process.nextTick(() => this.destroy(Object.assign(new Error(`egress guard: refused a connection to ${target.host}:${target.port}`), { code: 'ECONNREFUSED' })));
      return this;
    }
    return connect.apply(this, args);
  };

  const lookup = dns.lookup;
  dns.lookup = function guardedLookup(hostname, ...rest) {
    const outside = !LOOPBACK.test(String(hostname));
    record('lookup', { host: String(hostname), refused: outside });
    if (outside) {
      const callback = rest.find((arg) => typeof arg === 'function');
      const error = Object.assign(new Error(`egress guard: refused a DNS lookup of ${hostname}`), { code: 'ENOTFOUND', hostname });
      if (callback) process.nextTick(() => callback(error));
      return {};
    }
    return lookup.call(this, hostname, ...rest);
  };
  const promisesLookup = dns.promises.lookup;
  dns.promises.lookup = function guardedPromisesLookup(hostname, ...rest) {
    const outside = !LOOPBACK.test(String(hostname));
    record('lookup', { host: String(hostname), refused: outside });
    if (outside) return Promise.reject(Object.assign(new Error(`egress guard: refused a DNS lookup of ${hostname}`), { code: 'ENOTFOUND', hostname }));
    return promisesLookup.call(this, hostname, ...rest);
  };
  for (const name of ['resolve', 'resolve4', 'resolve6', 'resolveAny', 'resolveTxt', 'resolveSrv', 'reverse']) {
    const original = dns[name];
    if (typeof original !== 'function') continue;
    dns[name] = function guardedResolve(hostname, ...rest) {
      record('resolve', { host: String(hostname), refused: true });
      const callback = rest.find((arg) => typeof arg === 'function');
      if (callback) process.nextTick(() => callback(Object.assign(new Error('egress guard: refused a DNS query'), { code: 'ENOTFOUND' })));
      return undefined;
    };
  }

  const send = dgram.Socket.prototype.send;
  dgram.Socket.prototype.send = function guardedSend(...args) {
    const address = args.find((arg, i) => i > 0 && typeof arg === 'string') ?? 'localhost';
    const outside = !LOOPBACK.test(address);
    record('udp', { host: address, refused: outside });
    if (outside) return undefined;
    return send.apply(this, args);
  };

  const listen = net.Server.prototype.listen;
  net.Server.prototype.listen = function guardedListen(...args) {
    this.once('listening', () => {
      const address = this.address();
      record('listen', typeof address === 'string' ? { path: address } : { host: address?.address, port: address?.port });
    });
    return listen.apply(this, args);
  };
}
