import { createHash } from 'node:crypto';
import type { Exchange, PlannedFault, WorldAddon } from './addon.js';
import { DEFAULT_HOLD_MS, DEFAULT_RETRY_AFTER, ruleId, type FaultKind, type FaultRule, type Latency } from './fault-plan.js';
import { jsonResponse, type ServiceResponse } from './http.js';
import { compileNameGlob, compilePathPattern } from './patterns.js';
import type { FaultOrder } from './service.js';

/**
 * The fault addon: applies a fault plan (fault-plan.ts) to every request, in the world core and
 * before the handler. Each decision comes from its own stream, a hash of (seed, service, rule,
 * route, n-th request of that route the rule matched), never from the ID or content
 * streams: the same requests meet the same faults, and requests to other routes do not move
 * them. Counters go back to zero when the world resets. See docs/faults.md.
 */
export function faultAddon(rules: readonly FaultRule[]): WorldAddon {
  const compiled = rules.map((rule) => ({
    rule, id: ruleId(rule), matches: compilePathPattern(rule.route),
    named: rule.operation === undefined ? null : compileNameGlob(rule.operation),
  }));
  let counters = new Map<string, number>();
  return {
    name: 'faults',
    request(exchange) {
      let error: PlannedFault | null = null;
      let latency: { ms: number; id: string; n: number } | null = null;
      for (const { rule, id, matches, named } of compiled) {
        if (rule.service !== undefined && rule.service !== exchange.service) continue;
        if (rule.method !== undefined && rule.method !== exchange.request.method.toUpperCase()) continue;
        if (named !== null && !named(exchange.operation?.name)) continue;
        if (!matches(exchange.path)) continue;
        // Every rule counts every request it matches, fired or not, so rules never move each other.
        const key = `${id}\0${exchange.service}\0${exchange.route}`;
        const n = (counters.get(key) ?? 0) + 1;
        counters.set(key, n);
        const draw = (what: string) => unit(exchange.seed, exchange.service, id, exchange.route, n, what);
        const fires = rule.nth ? rule.nth.includes(n) : rule.rate === undefined || draw('fire') < rule.rate;
        if (!fires) continue;
        // The first firing rule with a kind decides the kind; the first with a latency, the latency.
        if (rule.kind !== undefined && error === null) {
          const latencyMs = rule.kind === 'timeout' ? rule.hold_ms ?? DEFAULT_HOLD_MS : 0;
          error = { kind: rule.kind, latencyMs, retryAfter: rule.retry_after ?? DEFAULT_RETRY_AFTER, rule: id, n };
        }
        if (rule.latency && latency === null) latency = { ms: sample(rule.latency, draw('latency')), id, n };
      }
      if (error) {
        exchange.fault = error.kind === 'timeout' ? error : { ...error, latencyMs: latency?.ms ?? 0 };
      } else if (latency) {
        exchange.fault = { kind: 'latency', latencyMs: latency.ms, retryAfter: 0, rule: latency.id, n: latency.n };
      }
    },
    reset() {
      counters = new Map();
    },
  };
}

/** A uniform number in [0, 1) from the fault stream: its own hash domain, apart from the ID streams. */
export function unit(seed: number, service: string, rule: string, route: string, n: number, what: string): number {
  const digest = createHash('sha256').update(['toolbench-fault', seed, service, rule, route, n, what].join('\0')).digest();
  return digest.readUIntBE(0, 6) / 2 ** 48;
}

/** A latency in whole milliseconds for the uniform draw `u`. */
export function sample(latency: Latency, u: number): number {
  switch (latency.dist) {
    case 'fixed': return latency.ms;
    case 'uniform': return latency.min_ms + Math.floor(u * (latency.max_ms - latency.min_ms + 1));
    case 'exponential': return Math.min(latency.max_ms, Math.round(-latency.mean_ms * Math.log(1 - u)));
  }
}

const STATUS: Record<FaultKind, { status: number; message: string }> = {
  429: { status: 429, message: 'Too Many Requests' },
  500: { status: 500, message: 'Internal Server Error' },
  502: { status: 502, message: 'Bad Gateway' },
  503: { status: 503, message: 'Service Unavailable' },
  reset: { status: 502, message: 'Bad Gateway' },
  timeout: { status: 504, message: 'Gateway Timeout' },
};

/**
 * A fault's answer for a service that renders none of its own: JSON `{"message"}` with the
 * status, and `Retry-After` on a 429 or 503. A `reset` is a 502 that the transport cuts; a
 * `timeout` is the 504 a gateway sends when it gives up.
 */
export function genericFaultResponse(order: FaultOrder): ServiceResponse {
  const { status, message } = STATUS[order.kind];
  const retry: [string, string][] = order.kind === '429' || order.kind === '503' ? [['Retry-After', String(order.retryAfter)]] : [];
  return jsonResponse(status, { message }, retry);
}

/**
 * How much of a reset response's body the transport sends before closing: the first half,
 * rounded up, after the status line and headers. An empty body (HEAD, 204) is cut before the
 * head, so the client never sees a complete response.
 */
export function resetCut(bodyLength: number): number {
  return Math.ceil(bodyLength / 2);
}

/**
 * What a client receives of a reset answer: the status line, the headers and the first
 * `resetCut` bytes of the body; nothing (status 0) when the body is empty.
 */
export function resetPart(response: ServiceResponse): ServiceResponse {
  const keep = resetCut(response.body.length);
  if (keep === 0) return { status: 0, headers: [], body: new Uint8Array(0) };
  return { status: response.status, headers: response.headers, body: response.body.subarray(0, keep) };
}
