import { ToolbenchError } from '../mocks/core/errors.js';
import { loadCatalog } from './load.js';
import { startStack, type StackOptions } from './stack.js';
import { writeSnapshot } from './snapshots.js';

/**
 * Starts every catalog endpoint against a world and writes its tool list to `<dir>/<id>.json`.
 * The files are canonical, so two captures of the same pinned servers are byte-identical.
 */
export async function captureTools(dir: string, options: Pick<StackOptions, 'scenarioDir' | 'caDir'> & { only?: readonly string[] }): Promise<string[]> {
  const loaded = loadCatalog();
  const only = options.only ?? [];
  const unknown = only.filter((id) => !loaded.catalog.endpoints.some((endpoint) => endpoint.id === id));
  if (unknown.length > 0) throw new ToolbenchError('TB_ERR_USAGE', `no endpoint ${unknown.join(', ')} in the catalog (it has ${loaded.catalog.endpoints.map((e) => e.id).join(', ')})`);
  // Only the named endpoints start (every one without --endpoint).
  const catalog = only.length === 0 ? loaded : { ...loaded, catalog: { ...loaded.catalog, endpoints: loaded.catalog.endpoints.filter((endpoint) => only.includes(endpoint.id)) } };
  const stack = await startStack({ scenarioDir: options.scenarioDir, caDir: options.caDir, catalog, ports: 'ephemeral', endpoints: 'all' });
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
