#!/usr/bin/env node
// The toolbench CLI. The TypeScript sources are compiled to dist/ by `npm run build` (also run by
// `npm start` and `npm test`; .npmrc turns off install scripts, prepare included), which then
// bundles the CLI into dist/bundle/ (bin/bundle.ts: a few files to load instead of ~230, for every
// command's cold start). This shim only finds them: the bundle when it is at least as new as the
// tsc build (a `tsc` alone after an edit leaves it stale), else the tsc build itself.
import { statSync } from 'node:fs';

const mtime = (url) => statSync(url, { throwIfNoEntry: false })?.mtimeMs ?? 0;
const main = new URL('../dist/bin/main.js', import.meta.url);
const mainBuilt = mtime(main);
if (!mainBuilt) {
  process.stderr.write('toolbench: dist/ is missing; run `npm run build` in the toolbench folder first\n');
  process.exit(2);
}
const bundle = new URL('../dist/bundle/main.js', import.meta.url);
const built = Math.max(mainBuilt, mtime(new URL('../dist/.tsbuildinfo', import.meta.url)));
await import((mtime(bundle) >= built ? bundle : main).href);
