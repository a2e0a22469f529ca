import { readdirSync } from 'node:fs';
import { basename } from 'node:path';

// `npm test` runs the suite from the build (`tsc -p .` compiles test/ to dist/test/ first), not
// through tsx: tsx's loader cost each of the ~240 test processes 0.4–1.7 s of CPU (docs/runbook.md).
// The list comes from test/'s sources, so a test deleted there never runs from a stale dist/.
// `npx ava test/FILE.test.ts` runs a file from its source (package.json's "ava" config).

/**
 * The files that took longest (25–120 s each in the run docs/runbook.md measures) start first, so
 * that the run does not end on one of them alone; the rest follow by name.
 */
const FIRST = [/^scaffold\./, /^(fuzz-tls|bench-smoke|view-browser|record-integrity|replay-verify|proxy-reach|scenario-validate|conformance-kubernetes)\./, /^(scenarios-cross|warm-|record-)/];
const rank = (file) => {
  const index = FIRST.findIndex((pattern) => pattern.test(basename(file)));
  return index === -1 ? FIRST.length : index;
};

export default {
  files: readdirSync('test').filter((name) => name.endsWith('.test.ts')).map((name) => `dist/test/${name.slice(0, -'.ts'.length)}.js`),
  sortTestFiles: (a, b) => rank(a) - rank(b) || a.localeCompare(b),
  workerThreads: false,
  // Three files at once on two cores: a fifth of a file's wall time is spent waiting (timeouts it
  // tests, real servers starting, sleeps of fault plans), which a third file fills.
  concurrency: 3,
  timeout: '60s',
};
