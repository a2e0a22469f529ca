import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { ToolbenchError } from '../mocks/core/errors.js';
import { canonicalJson } from './load.js';
import { TOOLBENCH_ROOT } from './paths.js';

/** Where `toolbench catalog capture` writes one file per endpoint. */
export const DEFAULT_SNAPSHOT_DIR = join(TOOLBENCH_ROOT, 'catalog', 'snapshots');

/** A tool as MCP lists it; only `name` and `inputSchema` are required by the protocol. */
const ToolSchema = z.object({ name: z.string(), inputSchema: z.object({}).passthrough() }).passthrough();

export const ToolSnapshotSchema = z.object({
  endpoint: z.string(),
  package: z.string(),
  version: z.string(),
  server: z.object({ name: z.string(), version: z.string() }),
  tools: z.array(ToolSchema),
}).strict();
export type ToolSnapshot = z.infer<typeof ToolSnapshotSchema>;

/** Canonical bytes: sorted keys, tools by name, two-space indent, final newline. */
export function snapshotText(snapshot: ToolSnapshot): string {
  const sorted = { ...snapshot, tools: [...snapshot.tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)) };
  return JSON.stringify(JSON.parse(canonicalJson(sorted)), null, 2) + '\n';
}

export function writeSnapshot(dir: string, snapshot: ToolSnapshot): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${snapshot.endpoint}.json`);
  writeFileSync(file, snapshotText(ToolSnapshotSchema.parse(snapshot)));
  return file;
}

export function readSnapshots(dir: string = DEFAULT_SNAPSHOT_DIR): ToolSnapshot[] {
  if (!existsSync(dir)) throw new ToolbenchError('TB_ERR_CATALOG', `no tool snapshots in ${dir}; run toolbench catalog capture`);
  return readdirSync(dir).filter((name) => name.endsWith('.json')).sort().map((name) => {
    const file = join(dir, name);
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new ToolbenchError('TB_ERR_CATALOG', `${file}: invalid JSON (${(error as Error).message})`);
    }
    const parsed = ToolSnapshotSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new ToolbenchError('TB_ERR_CATALOG', `${file}: field ${issue.path.join('.')}: ${issue.message}`);
    }
    return parsed.data;
  });
}
