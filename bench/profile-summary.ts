/**
 * Summarises a `.cpuprofile` (from `node --cpu-prof`): the functions with the most self time, and
 * the most inclusive time (a function's samples with it anywhere on the stack, counted once), in %
 * of all samples. Paths are shown relative to the repository.
 *
 *   node --import tsx bench/profile-summary.ts FILE.cpuprofile [--top 30] [--match REGEX] [--under REGEX]
 *
 * `--under REGEX` keeps only the samples with a frame matching REGEX on their stack (one handler's
 * subtree, say), in % of those samples.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface Node { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }
interface Profile { nodes: Node[]; samples: number[]; timeDeltas: number[] }

const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '30' }, match: { type: 'string' }, under: { type: 'string' } } });
const profile = JSON.parse(readFileSync(positionals[0]!, 'utf8')) as Profile;
const top = Number(values.top);
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const name = (n: Node) => {
  const url = n.callFrame.url.replace(/^file:\/\//, '').replace(process.cwd() + '/', '');
  return `${n.callFrame.functionName || '(anonymous)'} ${url ? `${url}:${n.callFrame.lineNumber + 1}` : ''}`.trim();
};
const self = new Map<string, number>();
const inclusive = new Map<string, number>();
const under = values.under ? new RegExp(values.under) : null;
const stackOf = (id: number) => {
  const keys: string[] = [];
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) keys.push(name(byId.get(at)!));
  return keys;
};
let total = 0;
for (const id of profile.samples) {
  const stack = stackOf(id);
  if (under && !stack.some((key) => under.test(key))) continue;
  total++;
  self.set(stack[0]!, (self.get(stack[0]!) ?? 0) + 1);
  for (const key of new Set(stack)) inclusive.set(key, (inclusive.get(key) ?? 0) + 1);
}
const match = values.match ? new RegExp(values.match) : null;
const show = (title: string, map: Map<string, number>) => {
  process.stdout.write(`${title} (${total} samples)\n`);
  for (const [key, count] of [...map].filter(([k]) => !match || match.test(k)).sort((a, b) => b[1] - a[1]).slice(0, top)) {
    process.stdout.write(`${(count / total * 100).toFixed(1).padStart(6)}%  ${key}\n`);
  }
};
show('self', self);
show('inclusive', inclusive);
