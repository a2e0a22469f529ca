import { fileURLToPath, pathToFileURL } from 'node:url';

/** The Node interception preload (preload.mjs), from the source tree or from dist/. */
export const PRELOAD_PATH = fileURLToPath(new URL(
  import.meta.url.includes('/dist/') ? '../../proxy/preload.mjs' : './preload.mjs', import.meta.url));

/** `NODE_OPTIONS` that loads the preload (a file URL, so paths with spaces survive). */
export function preloadNodeOptions(path = PRELOAD_PATH): string {
  return `--import=${pathToFileURL(path).href}`;
}
