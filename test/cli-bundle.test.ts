import test from 'ava';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { WorldReady } from '../bin/world-ready.js';
import { TOKENS } from './helpers/github-requests.js';
import { tempDir } from './helpers/journal.js';
import { ROOT, startToolbench, toolbenchEnv } from './helpers/proxy-processes.js';

// The build bundles the CLI (bin/bundle.ts → dist/bundle/) and bin/toolbench.js runs the bundle
// while it is as new as the tsc build. Checked here: which build the shim picks, and that a world
// started from the bundle loads a handful of toolbench's own modules and still finds its data
// files (each module's import.meta.url rewritten to its own file in dist/).

const FROM_BUILD = import.meta.url.includes('/dist/');

/** A copy of the shim beside stand-ins for the two builds, each printing which one it is. */
function shimTree(files: { main?: number; bundle?: number; tsbuildinfo?: number }): string {
  const dir = tempDir();
  mkdirSync(join(dir, 'bin'));
  mkdirSync(join(dir, 'dist', 'bin'), { recursive: true });
  mkdirSync(join(dir, 'dist', 'bundle'));
  copyFileSync(join(ROOT, 'bin', 'toolbench.js'), join(dir, 'bin', 'toolbench.js'));
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}\n');
  const put = (path: string, text: string, mtime: number | undefined) => {
    if (mtime === undefined) return;
    writeFileSync(join(dir, path), text);
    utimesSync(join(dir, path), mtime, mtime);
  };
  put('dist/bin/main.js', 'console.log("tsc build");\n', files.main);
  put('dist/bundle/main.js', 'console.log("bundle");\n', files.bundle);
  put('dist/.tsbuildinfo', '{}\n', files.tsbuildinfo);
  return dir;
}

function runShim(dir: string): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [join(dir, 'bin', 'toolbench.js')], { encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

test('bin/toolbench.js runs the bundle only while it is as new as the tsc build', (t) => {
  t.is(runShim(shimTree({ main: 1_000, tsbuildinfo: 1_000, bundle: 1_001 })).stdout, 'bundle\n');
  t.is(runShim(shimTree({ main: 1_000, tsbuildinfo: 1_000, bundle: 1_000 })).stdout, 'bundle\n');
  // A bare `tsc` after an edit: the bundle is stale.
  t.is(runShim(shimTree({ main: 1_000, tsbuildinfo: 2_000, bundle: 1_500 })).stdout, 'tsc build\n');
  t.is(runShim(shimTree({ main: 2_000, bundle: 1_500 })).stdout, 'tsc build\n');
  t.is(runShim(shimTree({ main: 1_000, tsbuildinfo: 1_000 })).stdout, 'tsc build\n');
  const missing = runShim(shimTree({ bundle: 1_000 }));
  t.is(missing.status, 2);
  t.regex(missing.stderr, /dist\/ is missing; run `npm run build`/);
});

(FROM_BUILD ? test : test.skip)('toolbench world from the build loads the bundle, a few modules of its own, and serves the example scenario', async (t) => {
  const env = toolbenchEnv(join(ROOT, 'dist', 'test', 'fixtures', 'load-log.js'));
  const world = await startToolbench<WorldReady>(['world', '--ports', 'ephemeral', '--admin-port', '0', '--no-proxy'], env);
  let issue: { title?: string };
  try {
    // The example scenario's dataset and GitHub's mock, both found through rewritten module URLs.
    const response = await fetch(`${world.ready.services.github}/repos/acme/widgets/issues/1`, { headers: { Authorization: `Bearer ${TOKENS.alice}` } });
    t.is(response.status, 200);
    issue = await response.json() as { title?: string };
  } finally {
    t.is(await world.stop(), 0, world.stderr());
  }
  t.is(typeof issue.title, 'string');
  const root = pathToFileURL(ROOT).href;
  const loaded = [...world.stderr().matchAll(/^loaded (\S+)$/gm)].map((match) => match[1]!);
  const own = loaded
    .filter((url) => url.startsWith(root) && !url.includes('/node_modules/') && !url.includes('/dist/test/'))
    .map((url) => url.slice(root.length));
  t.true(own.includes('dist/bundle/main.js'), own.join('\n'));
  t.deepEqual(own.filter((path) => !path.startsWith('dist/bundle/') && path !== 'bin/toolbench.js'), [], 'nothing of the tsc build is loaded');
  // 48 on 2026-12-03 (the entry and the chunks esbuild splits the lazily loaded parts into), where
  // the tsc build loads 145 files of its own for the same command.
  t.true(own.length <= 60, `${own.length} modules of toolbench's own:\n${own.join('\n')}`);
  // yargs, zod, smol-toml and chalk are bundled: none of their files is loaded from node_modules.
  const inlined = loaded.filter((url) => /\/node_modules\/(yargs|zod|smol-toml|chalk)\//.test(url));
  t.deepEqual(inlined, []);
});
