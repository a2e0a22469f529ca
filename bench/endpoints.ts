/**
 * Every catalog endpoint attached at once, as a trial with `--endpoints all` starts them: time
 * from the start of `startStack` to every endpoint ready (its tool list answered), each
 * endpoint's own time to ready, and the resident memory of this process (world, proxy, bridges)
 * plus every server's process tree, read from /proc once all are ready.
 *
 *   node --import tsx bench/endpoints.ts [--scenario DIR] [--ca-dir DIR]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startStack, type EndpointReadiness } from '../catalog/stack.js';

const { values } = parseArgs({ options: { scenario: { type: 'string', default: 'scenarios/example/github/basic' }, 'ca-dir': { type: 'string' } } });
const began = performance.now();
const ready: EndpointReadiness[] = [];
const stack = await startStack({
  scenarioDir: values.scenario!, ports: 'ephemeral', endpoints: 'all', caDir: values['ca-dir'], onReady: (r) => ready.push(r),
});
const totalMs = performance.now() - began;
try {
  const children = childrenByParent();
  const pids = [...stack.endpoints.values()].map((e) => e.running.pid).filter((pid): pid is number => pid !== null);
  const servers = pids.map((pid) => ({ pid, kib: treeRssKib(pid, children) }));
  const ownKib = rssKib(process.pid);
  const serversKib = servers.reduce((n, s) => n + s.kib, 0);
  process.stdout.write(JSON.stringify({
    endpoints: stack.endpoints.size,
    tools: ready.reduce((n, r) => n + r.tools, 0),
    totalMs: Math.round(totalMs),
    slowest: [...ready].sort((a, b) => b.readyMs - a.readyMs).slice(0, 5),
    perEndpoint: Object.fromEntries([...stack.endpoints].map(([id, e]) => [id, e.readiness.readyMs])),
    rssMiB: { toolbench: Math.round(ownKib / 1024), servers: Math.round(serversKib / 1024), total: Math.round((ownKib + serversKib) / 1024) },
  }) + '\n');
} finally {
  await stack.close();
}

function rssKib(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/** Parent pid → child pids, from /proc (a server may be a launcher with the real binary below it). */
function childrenByParent(): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const ppid = Number(readFileSync(`/proc/${name}/stat`, 'utf8').replace(/^.*\) /, '').split(' ')[1]);
      out.set(ppid, [...(out.get(ppid) ?? []), Number(name)]);
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

function treeRssKib(pid: number, children: Map<number, number[]>): number {
  return rssKib(pid) + (children.get(pid) ?? []).reduce((n, child) => n + treeRssKib(child, children), 0);
}
