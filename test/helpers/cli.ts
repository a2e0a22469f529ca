import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourceUrl } from '../../mocks/core/source-url.js';

const ROOT = fileURLToPath(new URL('../..', sourceUrl(import.meta.url)));
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

/** When dist/ was last built: tsc is incremental, so an unchanged dist/bin/main.js may be older than the build. */
function lastBuild(): number {
  const mtime = (path: string) => {
    try {
      return statSync(join(ROOT, path)).mtimeMs;
    } catch {
      return 0;
    }
  };
  return mtime(join('dist', 'bin', 'main.js')) && Math.max(mtime(join('dist', 'bin', 'main.js')), mtime(join('dist', '.tsbuildinfo')));
}

function distIsFresh(): boolean {
  return lastBuild() > newestSource();
}

/**
 * Node's arguments that start the toolbench CLI: the built `bin/toolbench.js` when dist/ is newer
 * than every source (`npm test` builds it first; it is what users run, and each start costs about
 * 1.5 s less CPU than transpiling through tsx), else `bin/main.ts` through tsx (a test run right
 * after an edit, without a build).
 */
export const CLI_ARGS: readonly string[] = distIsFresh()
  ? [join(ROOT, 'bin', 'toolbench.js')]
  : ['--import', import.meta.resolve('tsx'), join(ROOT, 'bin', 'main.ts')];

/**
 * Node's arguments that run test/fixtures/NAME.ts (an agent, a probe MCP server): its build
 * (dist/test/fixtures/NAME.js, compiled with the test by `npm test`) when the test runs from the
 * build, else the source through tsx. Each start through tsx cost about a second of CPU.
 */
export function fixtureArgs(name: string): string[] {
  return import.meta.url.includes('/dist/')
    ? [join(ROOT, 'dist', 'test', 'fixtures', `${name}.js`)]
    : ['--import', import.meta.resolve('tsx'), join(ROOT, 'test', 'fixtures', `${name}.ts`)];
}
