import { readFileSync } from 'node:fs';
import { openWorld } from '../../scenarios/world.js';
import type { JournalEntry } from '../../mocks/core/journal-format.js';
import { MemoryJournal } from '../../mocks/core/journal.js';
import { JOURNAL_FORMAT } from '../../mocks/core/journal-format.js';
import { World } from '../../mocks/core/world.js';
import { githubService } from '../../mocks/github/index.js';

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

export type Send = ((method: string, target: string, body?: unknown, options?: SendOptions) => Sent) & {
  /** Every exchange sent so far, for schema validation. */
  readonly entries: JournalEntry[];
};

export function sender(world: World, defaultToken: string | null = TOKENS.alice): Send {
  const entries: JournalEntry[] = [];
  const send = (method: string, target: string, body?: unknown, options: SendOptions = {}): Sent => {
    const token = options.token === undefined ? defaultToken : options.token;
    const extra = options.headers ?? [];
    const given = new Set(extra.map(([name]) => name.toLowerCase()));
    const defaults: [string, string][] = [['Host', 'api.github.com'], ['Accept', 'application/vnd.github+json']];
    const headers: [string, string][] = [...defaults.filter(([name]) => !given.has(name.toLowerCase())), ...extra];
    if (token !== null) headers.push(['Authorization', `Bearer ${token}`]);
    const text = options.raw ?? (body === undefined ? '' : JSON.stringify(body));
    if (text !== '') headers.push(['Content-Type', 'application/json']);
    const entry = world.process({ host: 'api.github.com', method, target, headers, body: new TextEncoder().encode(text) });
    entries.push(entry);
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
  return Object.assign(send, { entries });
}

/** A world with only the GitHub mock and the given dataset (parsed by the mock's schema). */
export function customWorld(data: unknown, options: { seed?: number; epoch?: string; tickMs?: number; onHandlerError?: (error: unknown) => void } = {}): World {
  const epoch = options.epoch ?? '2025-03-03T09:00:00Z';
  const seed = options.seed ?? 7;
  const tickMs = options.tickMs ?? 1000;
  const journal = new MemoryJournal({
    format: JOURNAL_FORMAT, toolbench: 'test', scenario: 'custom', datasetHash: '-', seed, catalogHash: '-',
    epoch: new Date(epoch).toISOString(), tickMs, scenarioDir: '.',
  });
  return new World({
    seed, epochMs: Date.parse(epoch), tickMs, journal, ...(options.onHandlerError ? { onHandlerError: options.onHandlerError } : {}),
    services: [{ id: 'github', hostnames: ['api.github.com'], definition: githubService, data: githubService.dataset.parse(data) }],
  });
}

/** The example scenario's GitHub dataset, as JSON. */
export function exampleData(): unknown {
  return JSON.parse(readFileSync(`${EXAMPLE}/dataset/github.json`, 'utf8'));
}
