import test from 'ava';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { parse as parseToml, stringify as stringifyToml } from 'smol-toml';
import { DEFAULT_CATALOG_PATH, loadCatalog } from '../catalog/load.js';
import { openWorld } from '../scenarios/world.js';
import { loadDataset } from '../mocks/core/dataset.js';
import { isToolbenchError } from '../mocks/core/errors.js';
import { githubService } from '../mocks/github/index.js';
import { loadScenarioManifest } from '../scenarios/manifest.js';
import { fcOptions, fuzzTimeout } from './helpers/fuzz.js';
import { tempDir } from './helpers/journal.js';
import { EXAMPLE_SCENARIO } from './helpers/world.js';

// Malformed catalog, scenario and dataset files, made from the real ones: bytes flipped, cut or
// inserted, and parsed documents with a value replaced, removed or retyped. Every loader either
// accepts the file or throws a ToolbenchError (which the CLI prints as one message, exit 2);
// nothing else ever escapes, and a world is never half-built.

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every path to a value in a parsed document (objects and arrays), up to `max` of them. */
function paths(value: unknown, max = 2_000): (string | number)[][] {
  const out: (string | number)[][] = [];
  const walk = (node: unknown, at: (string | number)[]) => {
    if (out.length >= max) return;
    out.push(at);
    if (Array.isArray(node)) node.forEach((child, i) => walk(child, [...at, i]));
    else if (node && typeof node === 'object' && !(node instanceof Date)) for (const [key, child] of Object.entries(node)) walk(child, [...at, key]);
  };
  walk(value, []);
  return out.slice(1);
}

const oddValue: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom<Json>(null, '', -1, 0, 1.5, 2 ** 53, -(2 ** 31), true, [], {}, 'x'.repeat(10_000), '2025-13-45T99:99:99Z', '../../etc/passwd', '\u0000', 'api.github.com'),
  fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>,
);

/** An edit of a parsed document: replace, delete or wrap the value at one path, or add a key. */
const edit = fc.record({ at: fc.double({ min: 0, max: 1, noNaN: true }), op: fc.constantFrom('replace', 'delete', 'wrap', 'add'), value: oddValue, key: fc.string({ maxLength: 10 }) });
type Edit = typeof edit extends fc.Arbitrary<infer T> ? T : never;

function applyEdits(doc: unknown, edits: Edit[]): unknown {
  const copy = structuredClone(doc) as Record<string, unknown>;
  for (const e of edits) {
    const all = paths(copy);
    if (all.length === 0) break;
    const path = all[Math.min(all.length - 1, Math.floor(e.at * all.length))]!;
    const parent = path.slice(0, -1).reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], copy) as Record<string | number, unknown>;
    const key = path.at(-1)!;
    // Generated values are fast-check's and are shown again (and reused) when shrinking: insert
    // copies, never the values themselves, or a later edit could mutate one into a cycle.
    if (e.op === 'replace') parent[key] = structuredClone(e.value);
    else if (e.op === 'wrap') parent[key] = [parent[key]];
    else if (e.op === 'add' && Array.isArray(parent[key])) (parent[key] as unknown[]).push(structuredClone(e.value));
    // An own property whatever the key, as JSON.parse makes it: assigning `length` or `__proto__`
    // would not add a key (a RangeError, a new prototype).
    else if (e.op === 'add' && parent[key] && typeof parent[key] === 'object') Object.defineProperty(parent[key], e.key, { value: structuredClone(e.value), enumerable: true, writable: true, configurable: true });
    else if (Array.isArray(parent)) parent.splice(Number(key), 1);
    else delete parent[key];
  }
  return copy;
}

/** Byte-level damage: flips, cuts, insertions. */
const byteDamage = fc.array(fc.record({ at: fc.double({ min: 0, max: 1, noNaN: true }), op: fc.constantFrom('flip', 'cut', 'insert', 'truncate'), bytes: fc.uint8Array({ minLength: 1, maxLength: 8 }) }), { minLength: 1, maxLength: 4 });
function damage(text: Buffer, edits: { at: number; op: string; bytes: Uint8Array }[]): Buffer {
  let out = Buffer.from(text);
  for (const e of edits) {
    const at = Math.floor(e.at * out.length);
    if (e.op === 'flip') out[at] = e.bytes[0]!;
    else if (e.op === 'cut') out = Buffer.concat([out.subarray(0, at), out.subarray(at + e.bytes.length * 7)]);
    else if (e.op === 'insert') out = Buffer.concat([out.subarray(0, at), Buffer.from(e.bytes), out.subarray(at)]);
    else out = out.subarray(0, at);
  }
  return out;
}

/** Runs `load`; anything but success or a ToolbenchError fails the property. */
function onlyToolbenchErrors(what: string, load: () => unknown, outcomes: Map<string, number>): void {
  try {
    load();
    outcomes.set('accepted', (outcomes.get('accepted') ?? 0) + 1);
  } catch (error) {
    if (!isToolbenchError(error)) throw new Error(`${what}: ${(error as Error)?.constructor?.name}: ${(error as Error)?.message}`.slice(0, 500), { cause: error });
    outcomes.set(error.code, (outcomes.get(error.code) ?? 0) + 1);
  }
}

const summary = (outcomes: Map<string, number>) => [...outcomes].map(([k, n]) => `${k} ×${n}`).join(', ');
let cases = 0;

test('catalog (services.toml): damaged bytes and edited documents load or give TB_ERR_CATALOG', (t) => {
  t.timeout(fuzzTimeout);
  const dir = tempDir('toolbench-fuzz-catalog-');
  const original = readFileSync(DEFAULT_CATALOG_PATH);
  const parsed = parseToml(original.toString('utf8'));
  const outcomes = new Map<string, number>();
  let n = 0;
  fc.assert(fc.property(fc.oneof(byteDamage.map((d) => ({ bytes: d })), fc.array(edit, { minLength: 1, maxLength: 3 }).map((e) => ({ edits: e }))), (mutation) => {
    cases += 1;
    const file = join(dir, `services-${n++}.toml`);
    if ('bytes' in mutation) writeFileSync(file, damage(original, mutation.bytes));
    else {
      let text: string;
      try {
        text = stringifyToml(applyEdits(parsed, mutation.edits) as Record<string, unknown>);
      } catch {
        return; // not representable in TOML (e.g. null): nothing to write
      }
      writeFileSync(file, text);
    }
    onlyToolbenchErrors(file, () => loadCatalog(file), outcomes);
  }), fcOptions(250));
  t.log(summary(outcomes));
  t.true((outcomes.get('TB_ERR_CATALOG') ?? 0) > 0);
});

test('scenario.toml: damaged and edited manifests load or give TB_ERR_SCENARIO (and a world from them, a ToolbenchError)', async (t) => {
  t.timeout(fuzzTimeout);
  const original = readFileSync(join(EXAMPLE_SCENARIO, 'scenario.toml'));
  const parsed = parseToml(original.toString('utf8'));
  const scenario = join(tempDir('toolbench-fuzz-scenario-'), 'basic');
  cpSync(EXAMPLE_SCENARIO, scenario, { recursive: true });
  const outcomes = new Map<string, number>();
  const worlds = new Map<string, number>();
  await fc.assert(fc.asyncProperty(fc.oneof(byteDamage.map((d) => ({ bytes: d })), fc.array(edit, { minLength: 1, maxLength: 3 }).map((e) => ({ edits: e }))), async (mutation) => {
    cases += 1;
    if ('bytes' in mutation) writeFileSync(join(scenario, 'scenario.toml'), damage(original, mutation.bytes));
    else {
      try {
        writeFileSync(join(scenario, 'scenario.toml'), stringifyToml(applyEdits(parsed, mutation.edits) as Record<string, unknown>));
      } catch {
        return;
      }
    }
    onlyToolbenchErrors('scenario.toml', () => loadScenarioManifest(scenario), outcomes);
    try {
      const { world } = await openWorld({ scenarioDir: scenario });
      await world.journal.close();
      worlds.set('built', (worlds.get('built') ?? 0) + 1);
    } catch (error) {
      if (!isToolbenchError(error)) throw new Error(`openWorld: ${(error as Error).message}`.slice(0, 500));
      worlds.set(error.code, (worlds.get(error.code) ?? 0) + 1);
    }
  }), fcOptions(200));
  t.log(`manifest: ${summary(outcomes)}; world: ${summary(worlds)}`);
  t.true((outcomes.get('TB_ERR_SCENARIO') ?? 0) > 0);
});

test('dataset (github.json): damaged and edited datasets load or give TB_ERR_DATASET, and so does building a world on them', async (t) => {
  t.timeout(fuzzTimeout);
  const original = readFileSync(join(EXAMPLE_SCENARIO, 'dataset', 'github.json'));
  const parsed = JSON.parse(original.toString('utf8')) as unknown;
  const scenario = join(tempDir('toolbench-fuzz-dataset-'), 'basic');
  cpSync(EXAMPLE_SCENARIO, scenario, { recursive: true });
  mkdirSync(join(scenario, 'dataset'), { recursive: true });
  const outcomes = new Map<string, number>();
  await fc.assert(fc.asyncProperty(fc.oneof(
    { weight: 1, arbitrary: byteDamage.map((d) => ({ bytes: d })) },
    { weight: 3, arbitrary: fc.array(edit, { minLength: 1, maxLength: 4 }).map((e) => ({ edits: e })) },
  ), async (mutation) => {
    cases += 1;
    const text = 'bytes' in mutation ? damage(original, mutation.bytes) : JSON.stringify(applyEdits(parsed, mutation.edits));
    writeFileSync(join(scenario, 'dataset', 'github.json'), text);
    onlyToolbenchErrors('loadDataset', () => loadDataset(scenario, githubService), new Map());
    try {
      const { world } = await openWorld({ scenarioDir: scenario });
      await world.journal.close();
      outcomes.set('built', (outcomes.get('built') ?? 0) + 1);
    } catch (error) {
      if (!isToolbenchError(error)) throw new Error(`openWorld: ${(error as Error)?.constructor?.name}: ${(error as Error).message}`.slice(0, 500), { cause: error });
      outcomes.set(error.code, (outcomes.get(error.code) ?? 0) + 1);
    }
  }), fcOptions(250));
  t.log(`world: ${summary(outcomes)}`);
  t.true((outcomes.get('TB_ERR_DATASET') ?? 0) > 0);
  t.log(`${cases} generated files so far`);
});
