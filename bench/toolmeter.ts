/**
 * `toolbench toolmeter` over every shipped snapshot (catalog/snapshots/), in a fresh process:
 * seconds from loading the modules (tiktoken's encoders included) to the report.
 *
 *   node --import tsx bench/toolmeter.ts
 */
const start = performance.now();
const { readSnapshots } = await import('../catalog/snapshots.js');
const { measureTools } = await import('../catalog/toolmeter.js');
const imported = performance.now();
const report = measureTools(readSnapshots());
const done = performance.now();
process.stdout.write(JSON.stringify({
  seconds: (done - start) / 1000, importMs: imported - start, measureMs: done - imported,
  endpoints: report.endpoints.length, tools: report.total.tools, tokens: report.total.tokens,
}) + '\n');
