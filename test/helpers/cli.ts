import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SOURCES = ['bin', 'catalog', 'certs', 'mocks', 'proxy', 'replay', 'scenarios'];

/** The newest mtime of the TypeScript sources dist/ is built from. */
function newestSource(): number {
  let newest = 0;
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && entry.name !== 'dataset') walk(join(dir, entry.name));
      } else if (entry.name.endsWith('.ts')) {
        newest = Math.max(newest, statSync(join(dir, entry.name)).mtimeMs);
      }
    }
  };
  for (const dir of SOURCES) walk(join(ROOT, dir));
  return newest;
}

function distIsFresh(): boolean {
  try {
    return statSync(join(ROOT, 'dist', 'bin', 'main.js')).mtimeMs > newestSource();
  } catch {
    return false;
  }
}

/**
 * Node's arguments that start the toolbench CLI: the built `bin/toolbench.js` when dist/ is newer
 * than every source (`npm test` builds it first; it is what users run, and each start costs about
 * 1.5 s less CPU than transpiling through tsx), else `bin/main.ts` through tsx (a test run right
 * after an edit, without a build).
 */
export const CLI_ARGS: readonly string[] = distIsFresh()
  ? [join(ROOT, 'bin', 'toolbench.js')]
  : ['--import', 'tsx', join(ROOT, 'bin', 'main.ts')];
