import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { ToolbenchError } from '../mocks/core/errors.js';
import { CatalogSchema, type Catalog } from './schema.js';
import { readTomlFile, TomlFileError } from './toml-file.js';

/** The catalog shipped with toolbench (works from the source tree and from dist/). */
export const DEFAULT_CATALOG_PATH = fileURLToPath(new URL(
  import.meta.url.includes('/dist/') ? '../../catalog/services.toml' : './services.toml', import.meta.url));

export interface LoadedCatalog {
  path: string;
  catalog: Catalog;
  /** sha256 of the parsed catalog as canonical JSON: comments and layout do not change it. */
  hash: string;
}

export function loadCatalog(path: string = DEFAULT_CATALOG_PATH): LoadedCatalog {
  try {
    const catalog = readTomlFile(path, CatalogSchema);
    return { path, catalog, hash: sha256(canonicalJson(catalog)) };
  } catch (error) {
    if (error instanceof TomlFileError) throw new ToolbenchError('TB_ERR_CATALOG', `catalog ${error.message}`, { cause: error });
    throw error;
  }
}

export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** JSON with object keys sorted, so equal values hash equally. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner) && !(inner instanceof Uint8Array)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner);
}
