import { readFileSync } from 'node:fs';

/** toolbench's own version, recorded in every journal header. */
export const TOOLBENCH_VERSION: string = (JSON.parse(readFileSync(new URL(
  import.meta.url.includes('/dist/') ? '../../package.json' : '../package.json', import.meta.url), 'utf8')) as { version: string }).version;
