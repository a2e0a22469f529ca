import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { JournalEntry, McpRecord } from '../mocks/core/journal-format.js';
import { ToolbenchError } from '../mocks/core/errors.js';
import type { LoadedCatalog } from './load.js';
import { TOOLBENCH_ROOT } from './paths.js';
import { readSnapshots, DEFAULT_SNAPSHOT_DIR, type ToolSnapshot } from './snapshots.js';
import { startStack } from './stack.js';
import type { JsonSchema, SweepProfile } from '../mocks/kit/sweep-profile.js';
import { toolArguments } from './tool-args.js';

export type { SweepProfile } from '../mocks/kit/sweep-profile.js';

/**
 * The every-tool sweep: each tool of each pinned MCP server of a service, called once over MCP
 * through the real server, the bridge and the proxy, with arguments built from its input schema.
 * Conformance asserts on what it returns; `toolbench coverage` reports which operations it reached.
 */

/** What one tool call did. */
export interface ToolOutcome {
  readonly endpoint: string;
  readonly tool: string;
  readonly arguments: Record<string, unknown>;
  /** The protocol or transport failed (not a tool error): the message. */
  readonly transportError: string | null;
  /** The tool answered with `isError` (a 404 for a generated id is fine). */
  readonly isError: boolean;
  /** The start of its text result, for messages. */
  readonly text: string;
  /** The world requests made while serving this call. */
  readonly entries: JournalEntry[];
}

export interface SweepResult {
  readonly service: string;
  readonly outcomes: ToolOutcome[];
  /** Endpoints of the service without a snapshot (run `toolbench catalog capture`). */
  readonly unsnapshotted: string[];
}

export interface SweepOptions {
  readonly service: string;
  readonly profile: SweepProfile;
  readonly caDir?: string;
  readonly catalog?: LoadedCatalog;
  readonly snapshotDir?: string;
  /** Per tool call (default: the profile's `toolTimeoutMs`, else 30 s): a tool that hangs is a transport error. */
  readonly timeoutMs?: number;
  /**
   * A sample of the tools to call (default: every one), asked for each tool the profile does not
   * order explicitly, with its place among them: the test suite's normal run calls a sample, its
   * long run (and `toolbench coverage`) every tool.
   */
  readonly include?: (tool: string, index: number) => boolean;
  /** Told before each call. */
  readonly onTool?: (endpoint: string, tool: string, index: number, total: number) => void;
}

/** Calls every tool of every snapshotted endpoint of `service`, once, in a fresh world. */
export async function sweepTools(options: SweepOptions): Promise<SweepResult> {
  const { service, profile } = options;
  const stack = await startStack({
    scenarioDir: scenarioOf(profile), ports: 'ephemeral', endpoints: true,
    ...(options.caDir ? { caDir: options.caDir } : {}), ...(options.catalog ? { catalog: options.catalog } : {}), ...(profile.seed === undefined ? {} : { seed: profile.seed }),
  });
  try {
    const endpoints = stack.catalog.catalog.endpoints.filter((entry) => entry.service === service);
    if (endpoints.length > 0 && !stack.manifest.services.includes(service)) {
      throw new ToolbenchError('TB_ERR_USAGE', `sweep of ${service}: scenario ${profile.scenario} does not name the service, so its endpoints do not start`);
    }
    const snapshots = new Map(readSnapshots(options.snapshotDir ?? DEFAULT_SNAPSHOT_DIR).map((s) => [s.endpoint, s]));
    const planned: { endpoint: string; url: string; tools: ToolSnapshot['tools'] }[] = [];
    const unsnapshotted: string[] = [];
    for (const entry of endpoints) {
      if (!stack.endpoints.has(entry.id)) {
        throw new ToolbenchError('TB_ERR_USAGE', `sweep of ${service}: scenario ${profile.scenario} does not start endpoint ${entry.id} (opt_in: name it in the scenario's endpoints)`);
      }
      const snapshot = snapshots.get(entry.id);
      if (!snapshot) unsnapshotted.push(entry.id);
      else planned.push({ endpoint: entry.id, url: stack.addresses().mcp[entry.id]!, tools: chosenTools(snapshot, profile, options.include) });
    }
    const total = planned.reduce((n, p) => n + p.tools.length, 0);
    const [{ Client }, { StreamableHTTPClientTransport }, { McpError, ErrorCode }] = await Promise.all([
      import('@modelcontextprotocol/sdk/client/index.js'), import('@modelcontextprotocol/sdk/client/streamableHttp.js'), import('@modelcontextprotocol/sdk/types.js'),
    ]);
    const calls: { endpoint: string; tool: string; arguments: Record<string, unknown>; transportError: string | null; isError: boolean; text: string; n: number }[] = [];
    let index = 0;
    await stack.world.importServices([service]);
    for (const { endpoint, url, tools } of planned) {
      const client = new Client({ name: 'toolbench-sweep', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      try {
        for (const tool of tools) {
          options.onTool?.(endpoint, tool.name, index++, total);
          // Only a profile's argsFor reads the state: exporting it per tool was a dump of the whole dataset each call.
          const args = sweepArguments(profile, tool, profile.argsFor ? stack.world.state([service])[service] ?? {} : {});
          let transportError: string | null = null;
          let isError = false;
          let text = '';
          try {
            const result = await client.callTool({ name: tool.name, arguments: args }, undefined, { timeout: options.timeoutMs ?? profile.toolTimeoutMs ?? 30_000 });
            isError = result.isError === true;
            const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
            text = content.map((part) => part.text ?? `[${part.type}]`).join('\n').slice(0, 300);
          } catch (error) {
            // A JSON-RPC error the server sent back is the tool failing (server-github throws on
            // an API error); a closed connection, a timeout or a failed request is the transport.
            if (error instanceof McpError && error.code !== ErrorCode.ConnectionClosed && error.code !== ErrorCode.RequestTimeout) {
              isError = true;
              text = error.message.slice(0, 300);
            } else {
              transportError = (error as Error).message;
            }
          }
          calls.push({ endpoint, tool: tool.name, arguments: args, transportError, isError, text, n: calls.length });
        }
      } finally {
        await client.close().catch(() => undefined);
      }
    }
    await stack.world.journal.flush();
    const entries: JournalEntry[] = [];
    for await (const entry of stack.world.journal.entries()) entries.push(entry);
    const records: McpRecord[] = [];
    for await (const record of stack.world.journal.mcpRecords()) if (record.kind === 'call') records.push(record);
    const outcomes = calls.map((call): ToolOutcome => {
      // The bridge journals each call with its id; the world's entries carry the same id.
      const record = records.filter((r) => r.endpoint === call.endpoint && r.tool === call.tool)
        .at(calls.filter((c) => c.endpoint === call.endpoint && c.tool === call.tool && c.n < call.n).length);
      const mine = record ? entries.filter((e) => e.attribution?.callId === record.callId) : [];
      return { endpoint: call.endpoint, tool: call.tool, arguments: call.arguments, transportError: call.transportError, isError: call.isError, text: call.text, entries: mine };
    });
    return { service, outcomes, unsnapshotted };
  } finally {
    await stack.close();
  }
}

/**
 * The tools a sweep calls, in the profile's order. `include` samples only the tools the profile
 * leaves in the common rank: those it orders explicitly (creators first, deleters last, whose
 * results later tools' arguments read from the state) are always called.
 */
function chosenTools(snapshot: ToolSnapshot, profile: SweepProfile, include: SweepOptions['include']): ToolSnapshot['tools'] {
  const order = profile.order ?? [];
  const ordered = orderTools(snapshot.tools, order);
  if (!include) return ordered;
  const rank = rankOf(order);
  const ranks = ordered.map((tool) => rank(tool.name));
  const counts = new Map<number, number>();
  for (const value of ranks) counts.set(value, (counts.get(value) ?? 0) + 1);
  const common = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
  let index = 0;
  return ordered.filter((tool, i) => ranks[i] !== common || include(tool.name, index++));
}

/** A tool's arguments as the profile gives them: computed from the service's state now, or generated from its schema. */
export function sweepArguments(profile: SweepProfile, tool: { name: string; inputSchema: unknown }, state: Record<string, Record<string, unknown>>): Record<string, unknown> {
  const inputSchema = tool.inputSchema as JsonSchema;
  return profile.argsFor ? profile.argsFor({ name: tool.name, inputSchema }, state) : toolArguments(tool.name, inputSchema, profile.args);
}

/** The profile's scenario folder, absolute (a relative one is inside the toolbench folder). */
export function scenarioOf(profile: SweepProfile): string {
  return isAbsolute(profile.scenario) ? profile.scenario : join(TOOLBENCH_ROOT, profile.scenario);
}

function rankOf(first: readonly string[] | ((tool: string) => number)): (tool: string) => number {
  return typeof first === 'function' ? first : (name: string) => (first.includes(name) ? first.indexOf(name) : first.length);
}

export function orderTools<T extends { name: string }>(tools: readonly T[], first: readonly string[] | ((tool: string) => number)): T[] {
  const rank = rankOf(first);
  return [...tools].sort((a, b) => rank(a.name) - rank(b.name) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * A service's sweep profile, by convention in `mocks/<service>/conformance.ts` (export `sweep`);
 * null when the service has none.
 */
export async function loadSweepProfile(service: string): Promise<SweepProfile | null> {
  // Beside this module: the sources (run by tsx) or the build (dist/).
  const url = new URL(`../mocks/${service}/conformance.js`, import.meta.url);
  const path = fileURLToPath(url);
  if (!existsSync(path) && !existsSync(path.replace(/\.js$/, '.ts'))) return null;
  const module = await import(url.href) as { sweep?: SweepProfile };
  if (!module.sweep) throw new ToolbenchError('TB_ERR_CATALOG', `mocks/${service}/conformance: exports no \`sweep\` profile`);
  return module.sweep;
}

/** A service the catalog sweep could not call, and why. */
export interface SkippedService {
  readonly service: string;
  readonly reason: string;
}

/**
 * The sweep over every catalog service that has an MCP endpoint with a tool snapshot, each in a
 * fresh world of its own profile's scenario, one after another (each starts its servers).
 */
export async function sweepCatalog(options: Omit<SweepOptions, 'service' | 'profile'> & { catalog: LoadedCatalog; onService?: (service: string) => void }): Promise<{ results: SweepResult[]; skipped: SkippedService[] }> {
  const snapshotted = new Set(readSnapshots(options.snapshotDir ?? DEFAULT_SNAPSHOT_DIR).map((s) => s.endpoint));
  const results: SweepResult[] = [];
  const skipped: SkippedService[] = [];
  for (const service of options.catalog.catalog.services) {
    const endpoints = options.catalog.catalog.endpoints.filter((entry) => entry.service === service.id);
    if (endpoints.length === 0) continue;
    if (!endpoints.some((entry) => snapshotted.has(entry.id))) {
      skipped.push({ service: service.id, reason: `no tool snapshot for ${endpoints.map((e) => e.id).join(', ')} (toolbench catalog capture)` });
      continue;
    }
    const profile = await loadSweepProfile(service.id);
    if (!profile) {
      skipped.push({ service: service.id, reason: `no sweep profile (export \`sweep\` from mocks/${service.id}/conformance.ts)` });
      continue;
    }
    options.onService?.(service.id);
    results.push(await sweepTools({ ...options, service: service.id, profile }));
  }
  return { results, skipped };
}
