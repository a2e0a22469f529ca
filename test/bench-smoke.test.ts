import test from 'ava';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import type { BenchReport, Summary } from '../bench/report.js';

// The benchmark is a script (npm run bench), not a test: figures are reported, never asserted.
// This only checks that a quick run without the external proxies reports every figure.
test('npm run bench -- --quick --json --only internal reports every figure', async (t) => {
  t.timeout(240_000); // a smoke test, not a timed one: the quick run starts several worlds (29 services) and the cold-start section's fresh processes
  const started = Date.now();
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--quick', '--json', '--only', 'internal'], { maxBuffer: 16 << 20 });
  t.log(`quick run: ${Date.now() - started} ms`);
  const report = JSON.parse(stdout) as BenchReport & { summary: Summary };
  const { summary } = report;

  t.true(report.machine.nproc > 0);
  t.truthy(report.machine.cpu);
  t.is(report.machine.node, process.version);

  // 1. every path × method × connections; the external ones marked as skipped
  t.is(summary.throughput.length, 24);
  for (const row of summary.throughput) {
    if (row.path === 'd' || row.path === 'e') {
      t.regex(row.unavailable ?? '', /skipped/);
      t.is(row.requestsPerSecond, null);
      continue;
    }
    t.is(row.unavailable, null);
    t.is(row.errors, 0, `${row.path} ${row.method} ×${row.connections}`);
    t.true(row.requestsPerSecond! > 0 && row.p50Ms! > 0 && row.p99Ms! >= row.p50Ms!, `${row.path} ${row.method} ×${row.connections}`);
  }
  for (const ratio of summary.ratios) {
    if (ratio.ratio === 'a/a0' || ratio.ratio === 'b/a' || ratio.ratio === 'c/a') t.true(ratio.value! > 0, `${ratio.ratio} ${ratio.method} ×${ratio.connections}`);
    else t.is(ratio.value, null);
  }
  t.is(summary.p50AddedMs.length, 8);
  for (const p of summary.p50AddedMs) t.is(typeof p.value, 'number');

  // 2.–6.
  t.true(summary.tlsConnectionsPerSecond.explicit > 0);
  t.true(summary.tlsConnectionsPerSecond.transparent > 0);
  t.true(summary.journal.appendPerSecond > 0);
  t.true(summary.journal.levelDbPerSecond > 0);
  t.true(summary.journal.dispatchPerSecond > 0);
  t.true(summary.journal.rssBeforeMiB > 0 && summary.journal.rssAfterMiB > 0);
  t.true(summary.replay.entries > 0 && summary.replay.processPerSecond > 0 && summary.replay.httpPerSecond > 0);
  t.true(summary.replayJobs.journals > 0 && summary.replayJobs.scaling! > 0);
  // `toolbench replay --jobs` itself is timed when dist/ is built (npm test runs from it).
  if (existsSync('dist/bin/main.js')) t.true(summary.replayJobs.cliJobs1Ms! > 0 && summary.replayJobs.cliJobs2Ms! > 0 && summary.replayJobs.cliScaling! > 0);
  t.true(summary.journal.valueBytesPerEntry > 0 && summary.journal.keyBytesPerEntry > 0);
  t.true(summary.journal.contentAddressed!.contentAddressedBytes > 0);
  t.is(typeof summary.journal.appendRssGrowthMiB, 'number');
  t.true(summary.coldStartMs.total > 0 && summary.coldStartMs.services > 0);
  t.true(summary.toolmeterSeconds > 0);

  // The targets issue 9 names, each with a verdict or "not measured".
  const figures = summary.targets.map((target) => target.figure).join('\n');
  for (const name of ['a/a0', 'b/a', 'b/d', 'b/e', 'p50 added', 'replay --verify in process', '--jobs 2', 'journal append', 'RSS', 'spawn to ready', '--help']) t.true(figures.includes(name), name);
  for (const target of summary.targets) {
    if (/^b\/[de]/.test(target.figure)) t.is(target.met, null);
    // The CLI's figures need dist/ (npm run build): not measured without it.
    else if (/dist\//.test(target.figure)) t.is(target.met === null, target.value === null, target.figure);
    else t.is(typeof target.met, 'boolean', target.figure);
  }
});
