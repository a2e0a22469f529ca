/**
 * The world's plain port under load, in this process (run it with `node --cpu-prof`): the
 * example scenario with a LevelDB journal, the load client (bench/load-client.ts) in a process of
 * its own driving GET and then POST at 8 connections, and path a0 (bench/a0.ts) measured right
 * after each for the ratio. Prints one JSON line.
 *
 *   node --cpu-prof --cpu-prof-dir DIR --import tsx bench/profile-world.ts [--seconds 5] [--only-world] [--memory-journal]
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { AbstractLevel } from 'abstract-level';
import { openWorld } from '../scenarios/world.js';
import { serveWorld } from '../proxy/serve.js';
import { recordAnswer, serveBare, type RecordedAnswer } from './a0.js';
import type { LoadRequest, LoadResult, LoadSpec } from './load-client.js';

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '5' }, 'only-world': { type: 'boolean', default: false }, 'memory-journal': { type: 'boolean', default: false } },
});
const durationMs = Number(values.seconds) * 1000;
const HEADERS = {
  accept: 'application/vnd.github+json', authorization: 'Bearer ghp_aliceAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
  'user-agent': 'toolbench-bench/1', 'x-github-api-version': '2022-11-28',
};
const REQUESTS: Record<'GET' | 'POST', LoadRequest> = {
  GET: { method: 'GET', path: '/repos/acme/widgets/issues/1', headers: HEADERS, status: 200 },
  POST: {
    method: 'POST', path: '/repos/acme/widgets/issues/2/comments', status: 201, headers: { ...HEADERS, 'content-type': 'application/json' },
    body: JSON.stringify({ body: 'A comment from the benchmark: the proxy should add little to this request.' }),
  },
};

// Group commit's batch sizes: every LevelDB batch counted (the journal's only writes here).
const batches = { count: 0, entries: 0 };
const batch = AbstractLevel.prototype.batch;
AbstractLevel.prototype.batch = function (this: AbstractLevel<string, unknown, unknown>, ...args: unknown[]) {
  if (Array.isArray(args[0])) { batches.count += 1; batches.entries += args[0].length; }
  return (batch as (...a: unknown[]) => unknown).apply(this, args);
} as typeof batch;

const work = mkdtempSync(join(tmpdir(), 'toolbench-profile-'));
// --memory-journal: the in-memory journal instead of LevelDB (what the world costs without LevelDB's round trip).
const { world, catalog } = await openWorld({ scenarioDir: 'scenarios/example/github/basic', journalDir: values['memory-journal'] ? undefined : join(work, 'journal') });
const served = await serveWorld(world, catalog.catalog.services.filter((s) => s.id === 'github'), { ports: 'ephemeral', adminPort: 0 });
const worldPort = served.services.github!.port;
const answers = new Map<string, RecordedAnswer>();
for (const r of Object.values(REQUESTS)) answers.set(`${r.method} ${r.path}`, await recordAnswer(`http://127.0.0.1:${worldPort}`, 'api.github.com', r));
const bare = await serveBare(answers);

const child = fork('bench/load-client.ts', [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
await new Promise((resolve) => child.once('message', resolve));
let next = 1;
const run = (spec: LoadSpec) => new Promise<LoadResult>((resolve, reject) => {
  const id = next++;
  const on = (m: { id: number; result?: LoadResult; error?: string }) => {
    if (m.id !== id) return;
    child.off('message', on);
    if (m.error) reject(new Error(m.error)); else resolve(m.result!);
  };
  child.on('message', on);
  child.send({ id, spec });
});
const out: Record<string, unknown> = {};
for (const method of ['GET', 'POST'] as const) {
  batches.count = 0;
  batches.entries = 0;
  for (const [name, port] of [['world', worldPort], ...(values['only-world'] ? [] : [['a0', bare.port]])] as [string, number][]) {
    const cpu = process.cpuUsage();
    const started = performance.now();
    const r = await run({ route: { kind: 'plain', port }, host: 'api.github.com', request: REQUESTS[method], connections: 8, warmupMs: 500, durationMs, maxRequests: 1e9 });
    const used = process.cpuUsage(cpu);
    out[`${name} ${method}`] = {
      rps: Math.round(r.requestsPerSecond), errors: r.errors, p50: r.p50Ms,
      serverCpuPercent: Math.round((used.user + used.system) / 10 / (performance.now() - started)),
      cpuUsPerRequest: Math.round((used.user + used.system) / (r.requests * (1 + 500 / durationMs))),
      ...(name === 'world' ? { entriesPerBatch: Number((batches.entries / Math.max(1, batches.count)).toFixed(2)) } : {}),
    };
    await world.journal.flush();
  }
}
child.disconnect();
await served.close();
await bare.close();
await world.journal.close();
rmSync(work, { recursive: true, force: true });
process.stdout.write(JSON.stringify(out) + '\n');
