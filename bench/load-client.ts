/**
 * The load client: a child process (forked by bench/run.ts, so it has a core of its own) that
 * drives one path at a time with undici, the same way for every path: a Pool (or a ProxyAgent's
 * pool) of N keep-alive connections to the origin `https://api.github.com` (`http://` for the
 * world's plain port), N requests in flight (closed loop), latency into Node's HDR histogram.
 *
 * How the connections reach the origin is the only difference between paths:
 * - `plain`: TCP to the world's plain GitHub port;
 * - `connect`: an explicit proxy (CONNECT api.github.com:443, then TLS trusting `ca`);
 * - `sni`: TLS straight to a port that routes by server name (DNS pointed at the proxy).
 *
 * Messages: `{id, spec}` in, `{id, result}` or `{id, error}` out.
 */
import { createHistogram } from 'node:perf_hooks';
import { Pool, ProxyAgent, buildConnector, type Dispatcher } from 'undici';

export type Route =
  | { kind: 'plain'; port: number }
  | { kind: 'connect'; proxyUrl: string; ca: string }
  | { kind: 'sni'; port: number; ca: string };

export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** The status every response must have; others count as errors. */
  status: number;
}

export interface LoadSpec {
  route: Route;
  host: string;
  request: LoadRequest;
  connections: number;
  warmupMs: number;
  durationMs: number;
  /** Stop after this many measured requests even if time is left. */
  maxRequests: number;
  /** A new connection (and a full TLS handshake: no session resumption) for every request. */
  newConnections?: boolean;
}

export interface LoadResult {
  requests: number;
  errors: number;
  firstError: string | null;
  elapsedMs: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  /** This client process's CPU time during the measured phase, in % of one core. */
  clientCpuPercent: number;
  /** Filled in by bench/run.ts: the serving processes' CPU (world and proxy) over the whole call, % of one core. */
  serverCpuPercent?: number;
}

const TIMEOUTS = { headersTimeout: 15_000, bodyTimeout: 15_000, connectTimeout: 10_000 };

function dispatcherFor(spec: LoadSpec): { dispatcher: Dispatcher; origin: string } {
  const { route, connections } = spec;
  const tlsOptions = { maxCachedSessions: spec.newConnections ? 0 : 100 };
  const common = { ...TIMEOUTS, connections, pipelining: 1, keepAliveTimeout: 30_000 };
  if (route.kind === 'plain') {
    const origin = `http://${spec.host}`;
    const tcp = buildConnector({});
    return {
      origin,
      dispatcher: new Pool(origin, { ...common, connect: (opts, callback) => tcp({ ...opts, hostname: '127.0.0.1', port: String(route.port) }, callback) }),
    };
  }
  const origin = `https://${spec.host}`;
  if (route.kind === 'sni') {
    const tls = buildConnector({ ca: route.ca, ...tlsOptions });
    return {
      origin,
      dispatcher: new Pool(origin, {
        ...common,
        connect: (opts, callback) => tls({ ...opts, hostname: '127.0.0.1', port: String(route.port), servername: spec.host }, callback),
      }),
    };
  }
  return { origin, dispatcher: new ProxyAgent({ uri: route.proxyUrl, requestTls: { ca: route.ca, ...tlsOptions }, ...common }) };
}

async function run(spec: LoadSpec): Promise<LoadResult> {
  const { dispatcher, origin } = dispatcherFor(spec);
  const { method, path, headers, body, status } = spec.request;
  let errors = 0;
  let firstError: string | null = null;
  const one = async (): Promise<boolean> => {
    try {
      const response = await dispatcher.request({ origin, method, path, headers, body, reset: spec.newConnections === true });
      await response.body.dump({ limit: 1 << 20 });
      if (response.statusCode !== status) throw new Error(`status ${response.statusCode}, expected ${status}`);
      return true;
    } catch (error) {
      errors++;
      firstError ??= (error as Error).message;
      // Do not spin on a refused connection.
      await new Promise((resolve) => setTimeout(resolve, 5));
      return false;
    }
  };
  const phase = async (ms: number, max: number, histogram: ReturnType<typeof createHistogram> | null): Promise<{ count: number; elapsedMs: number }> => {
    const start = performance.now();
    const deadline = start + ms;
    let count = 0;
    await Promise.all(Array.from({ length: spec.connections }, async () => {
      while (performance.now() < deadline && count < max) {
        const t0 = performance.now();
        if (await one()) {
          count++;
          histogram?.record(Math.max(1, Math.round((performance.now() - t0) * 1000)));
        }
      }
    }));
    return { count, elapsedMs: performance.now() - start };
  };
  try {
    if (spec.warmupMs > 0) await phase(spec.warmupMs, Infinity, null);
    errors = 0;
    firstError = null;
    const histogram = createHistogram();
    const cpu = process.cpuUsage();
    const { count, elapsedMs } = await phase(spec.durationMs, spec.maxRequests, histogram);
    const used = process.cpuUsage(cpu);
    return {
      requests: count,
      errors,
      firstError,
      elapsedMs,
      requestsPerSecond: count / (elapsedMs / 1000),
      p50Ms: count ? histogram.percentile(50) / 1000 : NaN,
      p99Ms: count ? histogram.percentile(99) / 1000 : NaN,
      meanMs: count ? histogram.mean / 1000 : NaN,
      clientCpuPercent: ((used.user + used.system) / 1000 / elapsedMs) * 100,
    };
  } finally {
    await dispatcher.destroy().catch(() => undefined);
  }
}

if (process.send) {
  process.on('message', (message: { id: number; spec: LoadSpec }) => {
    run(message.spec).then(
      (result) => process.send!({ id: message.id, result }),
      (error: unknown) => process.send!({ id: message.id, error: (error as Error).stack ?? String(error) }),
    );
  });
  process.send({ ready: true });
}
