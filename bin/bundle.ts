/**
 * Bundles the built CLI (dist/bin/main.js and everything it imports from dist/) into
 * dist/bundle/: one module for the start path and one chunk per lazily imported part (each
 * command, each mock), so that a `toolbench` process compiles and links a handful of files instead
 * of ~230. Node 20 has no compile cache for ES modules, and the loader's per-file cost was most of
 * `toolbench world`'s cold start (docs/benchmarks.md, issue 14). A few pure-ESM packages are
 * bundled too (INLINE); the others load from node_modules as before.
 *
 * Modules find their data files from `import.meta.url` (specs, the catalog, the example scenario,
 * workers). In a bundle every module would see the bundle's URL, so each module's `import.meta.url`
 * is rewritten to its own URL in dist/, computed from the chunk's at run time (the tree may move).
 * Every chunk sits in dist/bundle/ itself, so one relative path per module holds for all of them.
 *
 * Run by `npm run build` after tsc; bin/toolbench.js runs the bundle when it is at least as new as
 * the tsc build, else dist/bin/main.js.
 */
import { readFile, rm } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { build, transform, type Plugin } from 'esbuild';
import { TOOLBENCH_ROOT } from '../catalog/paths.js';

// From the sources (tsx) or the build alike: what is bundled is always the build.
const DIST = join(TOOLBENCH_ROOT, 'dist') + sep;
const OUT = join(DIST, 'bundle');
const MODULE_URL = '__toolbenchModuleUrl';

/** `import.meta.url` of every bundled module (dist/'s, and the inlined packages': yargs finds its locales by it) as that module's own URL. */
const ownModuleUrls: Plugin = {
  name: 'own-module-urls',
  setup(bundler) {
    bundler.onLoad({ filter: /\.[cm]?js$/ }, async ({ path }) => {
      if (path.startsWith(OUT)) return undefined;
      const text = await readFile(path, 'utf8');
      if (!text.includes('import.meta.url')) return { contents: text, loader: 'js' };
      // Parsed, not searched: a module may write `import.meta.url` inside a string (taskgen's
      // generated scripts), which must stay as it is. esbuild renames the constant per module.
      const { code } = await transform(text, { loader: 'js', define: { 'import.meta.url': MODULE_URL } });
      const fromChunk = relative(OUT, path).split(sep).join('/');
      return { contents: `const ${MODULE_URL} = new URL(${JSON.stringify(fromChunk)}, import.meta.url).href;\n${code}`, loader: 'js' };
    });
  },
};

/**
 * Packages bundled with toolbench's modules: pure ES modules on the start path, many files each
 * (yargs and its helpers 35, zod 60). The rest stay external: CommonJS (http-proxy, undici,
 * node-forge), native addons (classic-level, msgpackr's), WebAssembly (tiktoken), and what only
 * some commands load (the MCP SDK, with its own zod from node_modules; graphql, jsdom).
 */
const INLINE = new Set(['yargs', 'zod', 'smol-toml', 'chalk']);

/** A bare import from dist/ is external unless its package is inlined; inlined packages' own imports are bundled. */
const inlineOnly: Plugin = {
  name: 'inline-only',
  setup(bundler) {
    bundler.onResolve({ filter: /^[^./]/ }, ({ path, importer }) => {
      if (path.startsWith('node:') || !importer.startsWith(DIST)) return undefined;
      const name = path.startsWith('@') ? path.split('/').slice(0, 2).join('/') : path.split('/')[0]!;
      return INLINE.has(name) ? undefined : { path, external: true };
    });
  },
};

await rm(OUT, { recursive: true, force: true });
await build({
  entryPoints: { main: join(DIST, 'bin', 'main.js') },
  outdir: OUT,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  plugins: [inlineOnly, ownModuleUrls],
  chunkNames: '[name]-[hash]',
  logLevel: 'warning',
});
