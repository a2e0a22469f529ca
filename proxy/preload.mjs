// toolbench's Node interception preload: `NODE_OPTIONS=--import=<file URL of this file>`.
//
// Node 20 ignores HTTPS_PROXY in global fetch and in http/https. This preload routes both through
// the toolbench proxy named by HTTPS_PROXY (HTTP_PROXY for plain http), with CONNECT, sending
// the URL's userinfo as Proxy-Authorization (the attribution credential). Loopback targets
// (localhost, 127.0.0.0/8, ::1) always go direct, and so does whatever NO_PROXY names. The CA is
// trusted separately, with NODE_EXTRA_CA_CERTS. What it catches (docs/proxy.md):
//
// - global fetch: undici's global dispatcher;
// - http.globalAgent and https.globalAgent: separate proxy agents, constructible without
//   arguments (Node builds `new globalAgent.constructor()` for a request with `agent: false`, as
//   superagent sends);
// - Agents a library made itself (stripe-node's keep-alive https.Agent, made at load): a request
//   whose agent would connect directly (a plain http.Agent or https.Agent, or a subclass that
//   keeps their connection code) gets the proxy agent instead; http(s).request and .get are
//   wrapped for that. Agents with their own connection code (another proxy agent) are left alone.
//
// It fails closed: loaded without a proxy URL, it stops the process rather than let traffic
// go out directly. Plain JavaScript on purpose: it runs in every child process without a loader.
import http from 'node:http';
import https from 'node:https';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import tls from 'node:tls';
import { EnvHttpProxyAgent, setGlobalDispatcher } from 'undici';

const env = process.env;
const httpsProxy = env.HTTPS_PROXY || env.https_proxy || '';
const httpProxy = env.HTTP_PROXY || env.http_proxy || httpsProxy;
// Loopback never goes through the proxy (the world's plain ports, a local test host, the proxy itself).
const noProxy = [env.NO_PROXY ?? env.no_proxy ?? '', 'localhost', '127.0.0.1', '::1'].filter(Boolean).join(',');
if (!httpsProxy) {
  process.stderr.write('toolbench preload: HTTPS_PROXY is not set; refusing to run without the proxy (see docs/proxy.md)\n');
  process.exit(78);
}

// Global fetch (Node's bundled undici reads this dispatcher).
setGlobalDispatcher(new EnvHttpProxyAgent({ httpProxy, httpsProxy, noProxy }));

const noProxyNamed = noProxyMatcher(noProxy);
const bypassed = (host, port) => isLoopback(host) || noProxyNamed(host, port);

/** Opens a CONNECT tunnel to host:port through `proxyUrl`; calls back with the raw socket. */
function tunnel(proxyUrl, host, port, callback) {
  const proxy = new URL(proxyUrl);
  const socket = net.connect({ host: proxy.hostname.replace(/^\[|\]$/g, ''), port: Number(proxy.port || 80) });
  const authority = host.includes(':') && !host.startsWith('[') ? `[${host}]:${port}` : `${host}:${port}`;
  const lines = [`CONNECT ${authority} HTTP/1.1`, `Host: ${authority}`];
  if (proxy.username) {
    const userinfo = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
    lines.push(`Proxy-Authorization: Basic ${Buffer.from(userinfo).toString('base64')}`);
  }
  let done = false;
  const fail = (error) => {
    if (done) return;
    done = true;
    socket.destroy();
    callback(error);
  };
  socket.once('error', fail);
  socket.once('connect', () => socket.write(lines.join('\r\n') + '\r\n\r\n'));
  let head = Buffer.alloc(0);
  const onData = (chunk) => {
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf('\r\n\r\n');
    if (end === -1) {
      if (head.length > 64 * 1024) fail(new Error('toolbench preload: the proxy sent an oversized CONNECT response'));
      return;
    }
    socket.off('data', onData);
    socket.pause();
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head.subarray(0, end).toString('latin1'))?.[1] ?? 0);
    if (status !== 200) {
      const body = head.subarray(end + 4).toString('utf8').trim();
      fail(new Error(`toolbench proxy refused CONNECT ${authority} (${status})${body ? `: ${body}` : ''}`));
      return;
    }
    const rest = head.subarray(end + 4);
    if (rest.length > 0) socket.unshift(rest);
    done = true;
    socket.off('error', fail);
    callback(null, socket);
  };
  socket.on('data', onData);
}

// http and https: separate agents whose connections are CONNECT tunnels through the proxy. Both
// construct without arguments, as Node does for `agent: false` (`new globalAgent.constructor()`).
class TunnelHttpsAgent extends https.Agent {
  constructor(options = {}) {
    super(options);
  }

  createConnection(options, callback) {
    if (bypassed(options.host, options.port)) return tls.connect(options);
    tunnel(httpsProxy, options.host, options.port ?? 443, (error, socket) => {
      if (error) return callback(error);
      const servername = options.servername ?? (net.isIP(options.host) ? undefined : options.host);
      callback(null, tls.connect({ ...options, socket, servername }));
    });
    return undefined;
  }
}

class TunnelHttpAgent extends http.Agent {
  constructor(options = {}) {
    super(options);
  }

  createConnection(options, callback) {
    if (bypassed(options.host, options.port)) return net.connect(options);
    tunnel(httpProxy, options.host, options.port ?? 80, (error, socket) => {
      if (error) return callback(error);
      callback(null, socket);
      socket.resume(); // tunnel() paused it to hand it over intact; no reply comes before the request
    });
    return undefined;
  }
}

const proxyHttpsAgent = new TunnelHttpsAgent({ keepAlive: true });
const proxyHttpAgent = new TunnelHttpAgent({ keepAlive: true });
https.globalAgent = proxyHttpsAgent;
http.globalAgent = proxyHttpAgent;

// Agents a library made itself: one that would connect directly (Node's own connection code) is
// swapped for the proxy agent of its kind; one with connection code of its own is left alone.
const directHttpsConnection = https.Agent.prototype.createConnection;
const directHttpConnection = http.Agent.prototype.createConnection;
const directSocket = http.Agent.prototype.createSocket;

function proxyAgentFor(agent) {
  if (!agent || typeof agent !== 'object' || agent instanceof TunnelHttpsAgent || agent instanceof TunnelHttpAgent) return agent;
  if (agent.createSocket !== directSocket) return agent;
  if (agent instanceof https.Agent) return agent.createConnection === directHttpsConnection ? proxyHttpsAgent : agent;
  if (agent instanceof http.Agent) return agent.createConnection === directHttpConnection ? proxyHttpAgent : agent;
  return agent;
}

/** `request(url?, options?, callback?)` with the options' agent swapped (the caller's object is never changed). */
function withProxyAgent(original) {
  return function request(...args) {
    const at = typeof args[0] === 'string' || args[0] instanceof URL ? 1 : 0;
    let options = args[at];
    const credential = options && typeof options === 'object' ? missingProxyCredential(options) : null;
    if (credential !== null) args[at] = options = { ...options, headers: { ...options.headers, 'Proxy-Authorization': credential } };
    if (options && typeof options === 'object' && 'agent' in options) {
      const agent = proxyAgentFor(options.agent);
      if (agent !== options.agent) args[at] = { ...options, agent };
    }
    return original.apply(this, args);
  };
}

/**
 * Libraries with tunnel agents of their own (typed-rest-client, through the `tunnel` package)
 * send their CONNECT to the proxy from HTTPS_PROXY but drop the URL's userinfo: without it the
 * proxy cannot attribute the request to its endpoint. Such a CONNECT gets the URL's credential.
 */
const proxyEndpoint = (() => {
  const url = new URL(httpsProxy);
  return url.username ? { host: url.hostname.replace(/^\[|\]$/g, ''), port: String(url.port || 80), credential: `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}` } : null;
})();

function missingProxyCredential(options) {
  if (proxyEndpoint === null || String(options.method ?? '').toUpperCase() !== 'CONNECT') return null;
  const host = String(options.hostname ?? options.host ?? '').replace(/^\[|\]$/g, '');
  if (host !== proxyEndpoint.host || String(options.port ?? 80) !== proxyEndpoint.port) return null;
  const headers = options.headers ?? {};
  return Object.keys(headers).some((k) => k.toLowerCase() === 'proxy-authorization') ? null : proxyEndpoint.credential;
}

for (const module of [http, https]) {
  // get() calls the module's own request, not the export: wrap both.
  module.request = withProxyAgent(module.request);
  module.get = withProxyAgent(module.get);
}
// `import { request } from 'node:https'` sees the wrapped functions too.
syncBuiltinESMExports();

/** localhost (and its subdomains), 127.0.0.0/8 and ::1, with or without brackets. */
function isLoopback(host) {
  const name = String(host ?? '').toLowerCase().replace(/^\[|\]$/g, '');
  return name === 'localhost' || name.endsWith('.localhost') || name === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name)
    || /^::ffff:127\./.test(name);
}

/** NO_PROXY semantics as curl and undici read them: `*`, host names (and their subdomains), host:port. */
function noProxyMatcher(value) {
  const entries = value.split(/[\s,]+/).filter(Boolean).map((entry) => entry.toLowerCase());
  return (host, port) => {
    const name = String(host ?? '').toLowerCase().replace(/^\[|\]$/g, '');
    return entries.some((entry) => {
      if (entry === '*') return true;
      const [entryHost, entryPort] = entry.startsWith('[') ? [entry.slice(1, entry.indexOf(']')), entry.split(']:')[1]] : entry.split(':');
      if (entryPort && Number(entryPort) !== Number(port)) return false;
      const bare = entryHost.replace(/^\*?\./, '');
      return name === bare || name.endsWith(`.${bare}`);
    });
  };
}
