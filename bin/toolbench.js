#!/usr/bin/env node
// The toolbench CLI. The TypeScript sources are compiled to dist/ by `npm run build` (also run by
// `npm start` and `npm test`; .npmrc turns off install scripts, prepare included); this shim only finds them.
import { existsSync } from 'node:fs';

const main = new URL('../dist/bin/main.js', import.meta.url);
if (!existsSync(main)) {
  process.stderr.write('toolbench: dist/ is missing; run `npm run build` in the toolbench folder first\n');
  process.exit(2);
}
await import(main.href);
