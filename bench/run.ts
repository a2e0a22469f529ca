/**
 * `npm run bench [-- --json] [--quick] [--only internal] [--rounds N] [--journal-requests N]`: toolbench's figures,
 * measured side by side in one run on this machine (docs/benchmarks.md).
 *
 * 1. GET and POST to the GitHub mock at 1 and 8 keep-alive connections through (a) the world's
 *    plain port, (b) toolbench's explicit proxy (CONNECT + TLS + journal), (c) its transparent
 *    TLS port, (d) mitmdump, (e) mockttp: req/s, p50, p99 and the ratios b/a, b/d, b/e, c/a.
 *    The load client (bench/load-client.ts, undici) runs in a process of its own.
 * 2. New TLS connections per second through the proxy (leaves pre-issued).
 * 3. Journal append rate and RSS before/after 100,000 journaled requests (bench/journal.ts).
 * 4. `replay --verify` rate on a 10,000-entry journal (bench/replay.ts).
 * 5. World cold start to ready: in a fresh process through tsx (bench/cold-start.ts), and
 *    `toolbench world` as users run it (from dist/, when built) to its ready line.
 * 6. toolmeter over every snapshot (bench/toolmeter.ts).
 * 7. Every catalog endpoint attached at once, as a trial with `--endpoints all` starts them: time
 *    to ready (all, and each) and total RSS (bench/endpoints.ts). `--only endpoints` runs this
 *    section alone; `--only internal` skips it (and mitmdump, mockttp); `--only paths` skips it alone.
 *
 * Every figure is the median over the rounds; ratios are medians of per-round ratios of
 * measurements taken back to back. Targets are reported, never asserted. All traffic stays on
 * 127.0.0.1. `--only internal` skips mitmdump and mockttp (the smoke test uses it).
 */
import { execFile, fork, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { openWorld } from '../scenarios/world.js';
import { CallTracker } from '../mocks/core/attribution.js';
import { serveProxyForWorld } from '../proxy/for-world.js';
import { serveWorld } from '../proxy/serve.js';
import { recordAnswer, serveBare, type RecordedAnswer } from './a0.js';
import type { LoadRequest, LoadResult, LoadSpec, Route } from './load-client.js';
import { ensureMitmdump, startMitmdump, type RunningMitmdump } from './mitmdump.js';
import { formatReport, summarize, type BenchReport, type PathId, type ThroughputCell } from './report.js';

const { values } = parseArgs({
  options: {
    json: { type: 'boolean', default: false },
    quick: { type: 'boolean', default: false },
    only: { type: 'string', default: 'all' },
    rounds: { type: 'string' },
    'journal-requests': { type: 'string' },
    scenario: { type: 'string', default: 'scenarios/example/github/basic' },
  },
});
if (!['all', 'internal', 'endpoints', 'paths'].includes(values.only)) throw new Error('--only takes all, internal, paths or endpoints');
const quick = values.quick;
const internalOnly = values.only === 'internal';
const rounds = Number(values.rounds ?? (quick ? 1 : 3));
const timing = quick
  ? { warmupMs: 50, durationMs: 200, maxRequests: 5_000 }
  : { warmupMs: 500, durationMs: 2_000, maxRequests: 50_000 };
const say = (line: string) => { if (!values.json) process.stderr.write(`${line}\n`); };

const HOST = 'api.github.com';
const TOKEN = 'ghp_aliceAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
const BASE_HEADERS = {
  accept: 'application/vnd.github+json',
  authorization: `Bearer ${TOKEN}`,
  'user-agent': 'toolbench-bench/1',
  'x-github-api-version': '2022-11-28',
};
const REQUESTS: Record<'GET' | 'POST', LoadRequest> = {
  GET: { method: 'GET', path: '/repos/acme/widgets/issues/1', headers: BASE_HEADERS, status: 200 },
  POST: {
    method: 'POST', path: '/repos/acme/widgets/issues/2/comments', status: 201,
    headers: { ...BASE_HEADERS, 'content-type': 'application/json' },
    body: JSON.stringify({ body: 'A comment from the benchmark: the proxy should add little to this request.' }),
  },
};
const PATH_NAMES: Record<PathId, string> = {
  a0: 'bare Node server, recorded bytes',
  a: 'world plain port',
  b: 'toolbench explicit proxy',
  c: 'toolbench transparent TLS',
  d: 'mitmdump (reverse, -w)',
  e: 'mockttp (recording)',
};

const root = process.cwd();
const work = mkdtempSync(join(tmpdir(), 'toolbench-bench-'));
const started = new Date();
const cleanups: (() => Promise<unknown>)[] = [];

async function main(): Promise<BenchReport> {
  // The world under test, with a LevelDB journal as in a real run, and the proxy in process.
  const { world, catalog } = await openWorld({ scenarioDir: values.scenario, journalDir: join(work, 'journal') });
  cleanups.push(() => world.journal.close());
  const served = await serveWorld(world, catalog.catalog.services, { ports: 'ephemeral', adminPort: 0 });
  cleanups.push(() => served.close());
  const tracker = new CallTracker();
  const proxied = await serveProxyForWorld(world, catalog.catalog, {
    caDir: join(work, 'ca'), proxyPort: 0, tlsPort: 0, attribute: (client) => tracker.attribute(client),
  });
  cleanups.push(() => proxied.proxy.close());
  const toolbenchCa = readFileSync(proxied.certs.ca.certPath, 'utf8');
  const worldUrl = served.services.github!.url;
  const worldPort = Number(new URL(worldUrl).port);

  // a0: a bare Node HTTP server answering the bytes the world answered (recorded once here).
  const answers = new Map<string, RecordedAnswer>();
  for (const request of Object.values(REQUESTS)) answers.set(`${request.method} ${request.path}`, await recordAnswer(worldUrl, HOST, request));
  const bare = await serveBare(answers);
  cleanups.push(() => bare.close());

  const client = await LoadClient.start();
  cleanups.push(() => client.close());

  const routes: Partial<Record<PathId, Route>> = {
    a0: { kind: 'plain', port: bare.port },
    a: { kind: 'plain', port: worldPort },
    b: { kind: 'connect', proxyUrl: proxied.proxy.urlFor('bench'), ca: toolbenchCa },
    c: { kind: 'sni', port: proxied.proxy.tlsPort!, ca: toolbenchCa },
  };
  const unavailable: Partial<Record<PathId, string>> = {};
  /** Processes besides this one that serve a path (mitmdump, mockttp), for their CPU time. */
  const servers: Partial<Record<PathId, number>> = {};
  const versions: Record<string, string> = { node: process.version };
  if (internalOnly) {
    unavailable.d = 'skipped (--only internal)';
    unavailable.e = 'skipped (--only internal)';
  } else {
    const mitm = ensureMitmdump(say);
    if (mitm.ok) {
      try {
        const running: RunningMitmdump = await startMitmdump(worldUrl, work);
        cleanups.push(() => running.close());
        routes.d = { kind: 'sni', port: running.port, ca: running.ca };
        servers.d = running.pid;
        versions.mitmdump = mitm.version;
      } catch (error) {
        unavailable.d = `mitmdump did not start: ${(error as Error).message}`;
      }
    } else {
      unavailable.d = mitm.why;
    }
    try {
      const mockttp = await startMockttp(worldUrl);
      cleanups.push(mockttp.close);
      routes.e = { kind: 'connect', proxyUrl: `http://127.0.0.1:${mockttp.port}`, ca: mockttp.ca };
      servers.e = mockttp.pid;
      versions.mockttp = JSON.parse(readFileSync(join(root, 'node_modules/mockttp/package.json'), 'utf8')).version;
    } catch (error) {
      unavailable.e = `mockttp did not start: ${(error as Error).message}`;
    }
  }
  versions.undici = JSON.parse(readFileSync(join(root, 'node_modules/undici/package.json'), 'utf8')).version;
  for (const [id, why] of Object.entries(unavailable)) say(`bench: path ${id} (${PATH_NAMES[id as PathId]}) unavailable: ${why}`);

  // 1. Throughput and latency: every (method, connections) cell through every path back to back,
  // the paths' order rotated each round.
  const paths = (Object.keys(routes) as PathId[]).sort();
  const cells: ThroughputCell[] = [];
  for (const method of ['GET', 'POST'] as const) {
    for (const connections of [1, 8]) {
      for (const path of ['a0', 'a', 'b', 'c', 'd', 'e'] as PathId[]) {
        cells.push({ path, name: PATH_NAMES[path], method, connections, rounds: [], unavailable: unavailable[path] ?? null });
      }
    }
  }
  for (let round = 0; round < rounds; round++) {
    for (const method of ['GET', 'POST'] as const) {
      for (const connections of [1, 8]) {
        const order = paths.map((_, i) => paths[(i + round) % paths.length]!);
        for (const path of order) {
          say(`bench: round ${round + 1}/${rounds} ${method} ×${connections} via ${path} (${PATH_NAMES[path]})`);
          const cpu = serverCpu(servers[path]);
          const result = await client.run({ route: routes[path]!, host: HOST, request: REQUESTS[method], connections, ...timing });
          result.serverCpuPercent = cpu();
          if (result.errors > 0) say(`bench:   ${result.errors} errors (first: ${result.firstError})`);
          cells.find((c) => c.path === path && c.method === method && c.connections === connections)!.rounds.push(result);
          await world.journal.flush();
        }
      }
    }
  }

  // 2. New TLS connections per second: a new connection, a full handshake (no session
  // resumption) and one GET each, 8 at a time, through the explicit proxy and the TLS port.
  const tlsConnections: BenchReport['tlsConnections'] = { explicit: [], transparent: [] };
  for (let round = 0; round < rounds; round++) {
    for (const [which, path] of [['explicit', 'b'], ['transparent', 'c']] as const) {
      say(`bench: round ${round + 1}/${rounds} new TLS connections via ${path}`);
      tlsConnections[which].push(await client.run({
        route: routes[path]!, host: HOST, request: REQUESTS.GET, connections: 8, newConnections: true,
        ...timing, maxRequests: Math.min(timing.maxRequests, 20_000),
      }));
    }
  }

  // Done with the network part: stop the world and the other proxies before the
  // single-process measurements, so they have the machine to themselves.
  await closeAll();

  // 3. Journal append rate and RSS over 100,000 requests (10,000 with --quick).
  const journal: BenchReport['journal'] = [];
  for (let round = 0; round < rounds; round++) {
    say(`bench: round ${round + 1}/${rounds} journal`);
    journal.push(await runJson(['--expose-gc', '--import', 'tsx', 'bench/journal.ts', '--requests', values['journal-requests'] ?? (quick ? '5000' : '100000'), '--scenario', values.scenario]));
  }

  // 4. replay --verify on a recorded journal (bench/replay.ts records it with Octokit first).
  say('bench: replay');
  const replay = await runJson(['--import', 'tsx', 'bench/replay.ts', '--requests', quick ? '400' : '10000', '--clients', '8', '--runs', String(Math.max(rounds, quick ? 1 : 3)),
    '--jobs-journals', quick ? '2' : '6', '--json']);
  const replayJobs: BenchReport['replayJobs'] = replay.jobs ? [replay.jobs] : [];

  // 5. Cold start and 6. toolmeter, each in a fresh process.
  const coldStart: BenchReport['coldStart'] = [];
  const toolmeter: BenchReport['toolmeter'] = [];
  for (let round = 0; round < Math.max(rounds, quick ? 1 : 5); round++) {
    say(`bench: round ${round + 1} cold start`);
    coldStart.push(await runJson(['--import', 'tsx', 'bench/cold-start.ts', '--scenario', values.scenario, '--ca-dir', join(work, 'ca')]));
  }
  // The CLI as users run it (compiled to dist/ by npm ci), spawn to its ready line.
  const coldStartCli: number[] = [];
  const coldStartHelp: number[] = [];
  const cli = join(root, 'bin/toolbench.js');
  if (existsSync(join(root, 'dist/bin/main.js'))) {
    for (let round = 0; round < Math.max(rounds, quick ? 1 : 5); round++) {
      say(`bench: round ${round + 1} cold start of toolbench world (dist/)`);
      const ms = await spawnToReady(process.execPath, [cli, 'world', '--ports', 'ephemeral', '--admin-port', '0', '--json', '--ca-dir', join(work, 'ca')]).catch((error: Error) => {
        say(`bench: toolbench world did not start: ${error.message}`);
        return NaN;
      });
      if (Number.isFinite(ms)) coldStartCli.push(ms);
      say(`bench: round ${round + 1} toolbench --help (dist/)`);
      coldStartHelp.push(await spawnToExit(process.execPath, [cli, '--help']));
    }
  } else {
    say('bench: dist/ is missing (npm run build): the CLI cold start is not measured, only the in-process one');
  }
  for (let round = 0; round < rounds; round++) {
    say(`bench: round ${round + 1}/${rounds} toolmeter`);
    toolmeter.push(await runJson(['--import', 'tsx', 'bench/toolmeter.ts']));
  }

  return {
    date: started.toISOString(),
    machine: { nproc: availableParallelism(), cpu: cpus()[0]?.model ?? 'unknown', memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version, platform: `${process.platform} ${process.arch}` },
    versions,
    options: { quick, only: internalOnly ? 'internal' : 'all', rounds, ...timing },
    throughput: cells,
    tlsConnections,
    journal,
    replay,
    replayJobs,
    coldStart,
    coldStartCli,
    coldStartHelp,
    toolmeter,
  };
}

/** The load client process and its request/response messages. */
class LoadClient {
  private next = 1;
  private readonly waiting = new Map<number, { resolve: (r: LoadResult) => void; reject: (e: Error) => void }>();

  private constructor(private readonly child: ChildProcess) {
    child.on('message', (message: { id?: number; result?: LoadResult; error?: string }) => {
      const waiter = message.id === undefined ? undefined : this.waiting.get(message.id);
      if (!waiter) return;
      this.waiting.delete(message.id!);
      if (message.error) waiter.reject(new Error(`load client: ${message.error}`));
      else waiter.resolve(message.result!);
    });
    child.on('exit', (code) => {
      for (const waiter of this.waiting.values()) waiter.reject(new Error(`load client exited (${code})`));
      this.waiting.clear();
    });
  }

  static async start(): Promise<LoadClient> {
    const child = fork(join(root, 'bench/load-client.ts'), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    await new Promise<void>((resolve, reject) => {
      child.once('message', () => resolve());
      child.once('exit', (code) => reject(new Error(`load client exited (${code}) before it was ready`)));
    });
    return new LoadClient(child);
  }

  run(spec: LoadSpec): Promise<LoadResult> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.child.send({ id, spec });
    });
  }

  close(): Promise<void> {
    return stopChild(this.child);
  }
}

async function startMockttp(worldUrl: string): Promise<{ port: number; pid: number; ca: string; close: () => Promise<void> }> {
  const child = fork(join(root, 'bench/mockttp-proxy.ts'), [worldUrl], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const ready = await new Promise<{ port: number; ca: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no answer within 60 s')), 60_000);
    child.once('message', (message: { port: number; ca: string }) => { clearTimeout(timer); resolve(message); });
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`exited (${code})`)); });
  });
  return { ...ready, pid: child.pid!, close: () => stopChild(child) };
}

/**
 * CPU time of this process (the world and toolbench's proxy) plus `pid`'s (another proxy), from
 * now until the returned function is called, in % of one core.
 */
function serverCpu(pid: number | undefined): () => number {
  const ticks = () => {
    if (pid === undefined) return 0;
    try {
      // utime and stime (fields 14 and 15), in clock ticks of 1/100 s.
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
      return (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      return 0;
    }
  };
  const started = performance.now();
  const own = process.cpuUsage();
  const other = ticks();
  return () => {
    const used = process.cpuUsage(own);
    return ((used.user + used.system) / 1000 + ticks() - other) / (performance.now() - started) * 100;
  };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => { clearTimeout(timer); resolve(); });
    if (child.connected) child.disconnect();
    else child.kill('SIGTERM');
  });
}

/** ms from spawning `command` to the first line on its stdout; then SIGINT and wait for it to exit. */
function spawnToReady(command: string, args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let ready: number | null = null;
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.stderr!.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    child.stdout!.once('data', () => {
      ready = performance.now() - started;
      child.kill('SIGINT');
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (ready !== null) resolve(ready);
      else reject(new Error(`exited (${code}) before its ready line: ${stderr.trim().slice(-300)}`));
    });
  });
}

/** ms from spawning `command` until it exits (status 0 required). */
function spawnToExit(command: string, args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'ignore', 'ignore'] });
    child.once('exit', (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`${args.join(' ')} exited ${code}`))));
  });
}

/** Runs `node ARGS` in the repository and parses the last line of its stdout as JSON. */
async function runJson<T = any>(args: string[]): Promise<T> {
  const { stdout } = await promisify(execFile)(process.execPath, args, { cwd: root, maxBuffer: 16 << 20, timeout: 1_800_000 });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as T;
}

async function closeAll(): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
}

/** 7. Every endpoint at once, in a fresh process per round; the medians and the last round's slowest. */
async function endpointsSection(): Promise<{ rounds: EndpointsRound[]; text: string }> {
  const results: EndpointsRound[] = [];
  for (let round = 0; round < Math.max(1, Math.min(rounds, 3)); round++) {
    say(`bench: round ${round + 1} every endpoint to ready`);
    results.push(await runJson<EndpointsRound>(['--import', 'tsx', 'bench/endpoints.ts', '--scenario', values.scenario, '--ca-dir', join(work, 'ca')]));
  }
  const med = (pick: (r: EndpointsRound) => number) => [...results.map(pick)].sort((a, b) => a - b)[Math.floor(results.length / 2)]!;
  const last = results.at(-1)!;
  const text = [
    '',
    `7. Every catalog endpoint attached (${last.endpoints} endpoints, ${last.tools} tools; median of ${results.length})`,
    `   time to every endpoint ready  ${(med((r) => r.totalMs) / 1000).toFixed(1)} s`,
    `   RSS: toolbench ${med((r) => r.rssMiB.toolbench)} MiB + servers ${med((r) => r.rssMiB.servers)} MiB = ${med((r) => r.rssMiB.total)} MiB`,
    `   slowest to ready: ${last.slowest.map((s) => `${s.endpoint} ${(s.readyMs / 1000).toFixed(1)} s`).join(', ')}`,
    '',
  ].join('\n');
  return { rounds: results, text };
}

interface EndpointsRound {
  endpoints: number;
  tools: number;
  totalMs: number;
  slowest: { endpoint: string; readyMs: number }[];
  rssMiB: { toolbench: number; servers: number; total: number };
}

try {
  if (values.only === 'endpoints') {
    const section = await endpointsSection();
    process.stdout.write(values.json ? JSON.stringify({ endpoints: section.rounds }) + '\n' : section.text);
  } else {
    const report = await main();
    const summary = summarize(report);
    const section = internalOnly || values.only === 'paths' ? null : await endpointsSection();
    process.stdout.write(values.json
      ? JSON.stringify({ ...report, summary, ...(section ? { endpoints: section.rounds } : {}) }) + '\n'
      : formatReport(report, summary) + (section?.text ?? ''));
  }
} finally {
  await closeAll();
  rmSync(work, { recursive: true, force: true });
}
