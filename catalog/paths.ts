import { fileURLToPath } from 'node:url';

/** toolbench's own folder, from the source tree (catalog/) or the build (dist/catalog/). */
export const TOOLBENCH_ROOT = fileURLToPath(new URL(import.meta.url.includes('/dist/') ? '../../' : '../', import.meta.url));
