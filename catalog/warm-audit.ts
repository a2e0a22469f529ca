import { ToolbenchError } from '../mocks/core/errors.js';
import type { JournalEntry } from '../mocks/core/journal-format.js';
import type { LoadedCatalog } from './load.js';
import { readSnapshots, DEFAULT_SNAPSHOT_DIR, type ToolSnapshot } from './snapshots.js';
import { discard, startStack } from './stack.js';
import { loadSweepProfile, orderTools, scenarioOf, sweepArguments } from './sweep.js';
import { WarmLane } from './warm.js';

/**
 * The warm audit: is an endpoint's server safe to keep running from one trial to the next
 * (`warm_safe`)? Evidence, not a reading of its source: the server is started once in a warm
 * lane, and the same tool calls are made in `rounds` fresh worlds of its sweep profile's scenario,
 * one after another. A server that caches nothing answers every round with exactly the requests
 * of the first (a fresh start): same methods, hosts, targets and bodies, in the same order. It
 * must also make no request while starting (what it learns then, the next world never sees).
 */

/** One world request as the audit compares it. */
export interface AuditedRequest {
  tool: string | null;
  request: string;
}

export interface WarmAuditResult {
  endpoint: string;
  /** Requests the server made while starting (a warm-safe server makes none). */
  startupRequests: number;
  /** The tools called each round. */
  tools: string[];
  /** World requests per round. */
  requests: number[];
  /** Requests that reached the lane between rounds (should be none). */
  strays: string[];
  /** The first round and request where a later round differs from the first, or null. */
  difference: string | null;
  safe: boolean;
}

export interface WarmAuditOptions {
  catalog: LoadedCatalog;
  endpoint: string;
  /** Tools called per round, spread over the endpoint's tool list (default 8). */
  tools?: number;
  /** Worlds in a row (default 2). */
  rounds?: number;
  caDir?: string;
  snapshotDir?: string;
}

export async function auditWarm(options: WarmAuditOptions): Promise<WarmAuditResult> {
  const entry = options.catalog.catalog.endpoints.find((e) => e.id === options.endpoint);
  if (!entry) throw new ToolbenchError('TB_ERR_USAGE', `warm audit: no endpoint "${options.endpoint}" in the catalog`);
  const profile = await loadSweepProfile(entry.service);
  if (!profile) throw new ToolbenchError('TB_ERR_USAGE', `warm audit of ${entry.id}: ${entry.service} has no sweep profile (mocks/${entry.service}/conformance.ts)`);
  const snapshot = readSnapshots(options.snapshotDir ?? DEFAULT_SNAPSHOT_DIR).find((s) => s.endpoint === entry.id);
  if (!snapshot) throw new ToolbenchError('TB_ERR_USAGE', `warm audit of ${entry.id}: no tool snapshot (toolbench catalog capture)`);
  const tools = spread(orderTools(snapshot.tools, profile.order ?? []), options.tools ?? 8);
  const rounds = options.rounds ?? 2;
  const lane = await WarmLane.open({ catalog: options.catalog, caDir: options.caDir, openLog: async () => discard(), alsoWarm: [entry.id] });
  const [{ Client }, { StreamableHTTPClientTransport }] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'), import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
  ]);
  const seen: AuditedRequest[][] = [];
  let startupRequests = 0;
  try {
    for (let round = 0; round < rounds; round++) {
      const stack = await startStack({
        scenarioDir: scenarioOf(profile), ports: 'ephemeral', endpoints: [entry.id], lane, catalog: options.catalog,
        ...(options.caDir ? { caDir: options.caDir } : {}), ...(profile.seed === undefined ? {} : { seed: profile.seed }),
      });
      try {
        const client = new Client({ name: 'toolbench-warm-audit', version: '1.0.0' });
        await client.connect(new StreamableHTTPClientTransport(new URL(stack.addresses().mcp[entry.id]!)));
        try {
          await stack.world.importServices([entry.service]);
          for (const tool of tools) {
            const args = sweepArguments(profile, tool, stack.world.state([entry.service])[entry.service] ?? {});
            // A tool error is an answer like any other: what is compared is what reached the world.
            await client.callTool({ name: tool.name, arguments: args }, undefined, { timeout: profile.toolTimeoutMs ?? 30_000 }).catch(() => undefined);
          }
        } finally {
          await client.close().catch(() => undefined);
        }
        await stack.world.journal.flush();
        const entries: JournalEntry[] = [];
        for await (const e of stack.world.journal.entries()) entries.push(e);
        if (round === 0) startupRequests = entries.filter((e) => e.attribution?.kind === 'startup').length;
        seen.push(entries.filter((e) => e.attribution?.kind !== 'startup').map(audited));
      } finally {
        await stack.close();
      }
    }
  } finally {
    await lane.close();
  }
  const difference = firstDifference(seen);
  return {
    endpoint: entry.id, startupRequests, tools: tools.map((t) => t.name), requests: seen.map((r) => r.length), strays: [...lane.strays],
    difference, safe: startupRequests === 0 && difference === null && lane.strays.length === 0,
  };
}

function audited(entry: JournalEntry): AuditedRequest {
  const { method, host, target, request } = entry;
  return { tool: entry.attribution?.tool ?? null, request: `${method} ${host}${target} ${Buffer.from(request.body).toString('base64')}` };
}

/**
 * A round's requests with each tool call's run put in a fixed order. The calls are made one after
 * another, so which call a request belongs to is deterministic; within a call a server may fire
 * requests at once (CircleCI's server fetches a pipeline's jobs through a batch of concurrent
 * fetches), and the order they reach the world is the event loop's, not the server's memory. A
 * cache shows up as a request added, dropped or changed, which a reordered run still shows.
 */
function canonical(round: AuditedRequest[]): AuditedRequest[] {
  const out: AuditedRequest[] = [];
  let start = 0;
  for (let i = 1; i <= round.length; i++) {
    if (i < round.length && round[i]!.tool === round[start]!.tool) continue;
    out.push(...round.slice(start, i).sort((a, b) => (a.request < b.request ? -1 : a.request > b.request ? 1 : 0)));
    start = i;
  }
  return out;
}

export function firstDifference(rounds: AuditedRequest[][]): string | null {
  const [first, ...rest] = rounds.map(canonical);
  for (const [i, round] of rest.entries()) {
    for (let n = 0; n < Math.max(first!.length, round.length); n++) {
      const a = first![n];
      const b = round[n];
      if (a?.request === b?.request && a?.tool === b?.tool) continue;
      const show = (r: AuditedRequest | undefined) => (r ? `${r.tool ?? '(no tool)'}: ${r.request.slice(0, 160)}` : 'nothing');
      return `round ${i + 2}, request ${n + 1}: ${show(b)}; round 1 had ${show(a)}`;
    }
  }
  return null;
}

/** `count` tools spread evenly over the ordered list (all of them when there are fewer). */
function spread(tools: ToolSnapshot['tools'], count: number): ToolSnapshot['tools'] {
  if (tools.length <= count) return tools;
  return Array.from({ length: count }, (_, i) => tools[Math.floor((i * tools.length) / count)]!);
}
