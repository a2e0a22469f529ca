import { startStack, type StackOptions } from './stack.js';
import { writeSnapshot } from './snapshots.js';

/**
 * Starts every catalog endpoint against a world and writes its tool list to `<dir>/<id>.json`.
 * The files are canonical, so two captures of the same pinned servers are byte-identical.
 */
export async function captureTools(dir: string, options: Pick<StackOptions, 'scenarioDir' | 'caDir'>): Promise<string[]> {
  const stack = await startStack({ ...options, ports: 'ephemeral', endpoints: 'all' });
  try {
    return [...stack.endpoints.values()].map(({ entry, running }) => writeSnapshot(dir, {
      endpoint: entry.id,
      package: entry.package ?? 'toolbench',
      version: entry.version ?? running.serverInfo.version,
      server: running.serverInfo,
      tools: running.tools,
    }));
  } finally {
    await stack.close();
  }
}
