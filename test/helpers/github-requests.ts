import { openWorld } from '../../mocks/build.js';
import type { JournalEntry } from '../../mocks/core/journal-format.js';
import type { World } from '../../mocks/core/world.js';

/**
 * In-process requests to the GitHub mock of a world (no sockets): `world.process` with
 * GitHub's host and, unless `token: null`, a token. Tokens of the example scenario's users.
 */
export const EXAMPLE = 'scenarios/example/github/basic';
export const TOKENS = {
  alice: 'ghp_aliceAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
  bob: 'ghp_bobBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB',
  carol: 'ghp_carolCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC',
} as const;

export interface Sent {
  status: number;
  headers: [string, string][];
  text: string;
  json: any;
  entry: JournalEntry;
  header(name: string): string | undefined;
}

export interface SendOptions {
  token?: string | null;
  /** A raw body (sent as is) instead of JSON. */
  raw?: string;
  headers?: [string, string][];
}

export async function exampleWorld(seed?: number): Promise<World> {
  const { world } = await openWorld({ scenarioDir: EXAMPLE, ...(seed === undefined ? {} : { seed }) });
  return world;
}

export function sender(world: World, defaultToken: string | null = TOKENS.alice) {
  return (method: string, target: string, body?: unknown, options: SendOptions = {}): Sent => {
    const token = options.token === undefined ? defaultToken : options.token;
    const headers: [string, string][] = [['Host', 'api.github.com'], ['Accept', 'application/vnd.github+json'], ...(options.headers ?? [])];
    if (token !== null) headers.push(['Authorization', `Bearer ${token}`]);
    const text = options.raw ?? (body === undefined ? '' : JSON.stringify(body));
    if (text !== '') headers.push(['Content-Type', 'application/json']);
    const entry = world.process({ host: 'api.github.com', method, target, headers, body: new TextEncoder().encode(text) });
    const out = new TextDecoder().decode(entry.response.body);
    const isJson = /json/.test(entry.response.headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1] ?? '');
    return {
      status: entry.response.status,
      headers: entry.response.headers,
      text: out,
      json: isJson && out !== '' ? JSON.parse(out) : undefined,
      entry,
      header: (name) => entry.response.headers.find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1],
    };
  };
}
