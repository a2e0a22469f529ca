import { readFileSync } from 'node:fs';
import { Agent, ProxyAgent, request, type Dispatcher } from 'undici';

/** Whether the long variants run (CI sets it: .ci/run). */
export const LONG = process.env.TOOLBENCH_LONG_TESTS === '1';

/** A small seeded PRNG (mulberry32): the same seed gives the same trial. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

import type { WorldReady } from '../../bin/world-ready.js';

export type { WorldReady };

/** How a test client reaches the world's GitHub: explicit proxy (CONNECT + TLS), transparent TLS by SNI, or the plain port. */
export type Route = 'connect' | 'sni' | 'plain';

/** A client's dispatcher and origin for `route`. */
export function routeTo(ready: WorldReady, route: Route, client = 'crash'): { origin: string; dispatcher: Dispatcher } {
  const ca = ready.ca ? readFileSync(ready.ca, 'utf8') : undefined;
  switch (route) {
    case 'connect':
      return { origin: 'https://api.github.com', dispatcher: new ProxyAgent({ uri: ready.clients[client] ?? ready.proxy!, requestTls: { ca } }) };
    case 'sni':
      return { origin: `https://127.0.0.1:${ready.tls}`, dispatcher: new Agent({ connect: { ca, servername: 'api.github.com' } }) };
    case 'plain':
      return { origin: ready.services.github!, dispatcher: new Agent() };
  }
}

/** A response as the client received it. */
export interface Received {
  seq: number;
  method: string;
  path: string;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One request; resolves with what came back in full (throws when the connection died first). */
export async function send(origin: string, dispatcher: Dispatcher, method: string, path: string, token: string, body?: unknown): Promise<Received> {
  const response = await request(`${origin}${path}`, {
    dispatcher, method: method as Dispatcher.HttpMethod,
    headers: { authorization: `Bearer ${token}`, 'user-agent': 'toolbench-reliability', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const bytes = Buffer.from(await response.body.arrayBuffer());
  const seq = Number(response.headers['x-toolbench-seq']);
  return { seq, method, path, status: response.statusCode, headers: response.headers, body: bytes };
}

/** Mixed GitHub writes (and a read), different for each client and step. */
export function githubStep(client: number, step: number): { method: string; path: string; body?: unknown } {
  const issue = 1 + ((client * 5 + step) % 30);
  switch (step % 5) {
    case 0: return { method: 'POST', path: '/repos/acme/widgets/issues', body: { title: `crash ${client}.${step}`, body: 'written under fire' } };
    case 1: return { method: 'POST', path: `/repos/acme/widgets/issues/${issue}/comments`, body: { body: `comment ${client}.${step}` } };
    case 2: return { method: 'PATCH', path: `/repos/acme/widgets/issues/${issue}`, body: { title: `renamed ${client}.${step}`, state: step % 2 ? 'closed' : 'open' } };
    case 3: return { method: 'POST', path: `/repos/acme/widgets/issues/${issue}/labels`, body: { labels: ['bug'] } };
    default: return { method: 'GET', path: `/repos/acme/widgets/issues?state=all&per_page=5&page=${1 + (step % 3)}` };
  }
}

/** The headers a journaled response and a received one must agree on (transport headers aside). */
export function sameResponse(journaled: { status: number; headers: [string, string][]; body: Uint8Array }, received: Received): string | null {
  if (journaled.status !== received.status) return `status ${journaled.status} journaled, ${received.status} received`;
  const byName = new Map<string, string[]>();
  for (const [name, value] of journaled.headers) byName.set(name.toLowerCase(), [...byName.get(name.toLowerCase()) ?? [], value]);
  for (const [name, values] of byName) {
    const got = received.headers[name];
    const list = got === undefined ? [] : Array.isArray(got) ? got : [got];
    if (JSON.stringify(list) !== JSON.stringify(values)) return `header ${name}: ${JSON.stringify(values)} journaled, ${JSON.stringify(list)} received`;
  }
  if (!Buffer.from(journaled.body).equals(received.body)) return `body differs (${journaled.body.length} bytes journaled, ${received.body.length} received)`;
  return null;
}
