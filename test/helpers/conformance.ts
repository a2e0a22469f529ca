import type { TestFn } from 'ava';
import type { z } from 'zod';
import { scenarioOf, sweepTools, type SweepProfile, type SweepResult } from '../../catalog/sweep.js';
import { prepareWorld } from './prepare-world.js';
import { FAULT_KINDS, FaultRuleSchema, type FaultKind } from '../../mocks/core/fault-plan.js';
import { genericFaultResponse } from '../../mocks/core/faults.js';
import type { HeaderList } from '../../mocks/core/http.js';
import type { JournalEntry } from '../../mocks/core/journal-format.js';
import { MemoryJournal } from '../../mocks/core/journal.js';
import type { ServiceDefinition } from '../../mocks/core/service.js';
import type { SpecOperation } from '../../mocks/kit/spec-fallback.js';
import { World } from '../../mocks/core/world.js';
import { volatileProblems } from '../../scenarios/grade/state.js';
import { testCaDir } from './proxy.js';
import { LONG } from './reliability.js';

/**
 * The conformance suite every service passes (docs/authoring-service.md, "Conformance"). A test
 * file calls `conformance(test, {...})` once per service, as Hono's common.case.test.ts does per
 * runtime; it registers these tests:
 *
 * 1. two fresh worlds answer a generated request sequence byte for byte alike;
 * 2. another seed changes only what `seeded` declares (IDs, and what derives from them);
 * 3. every fault kind, and a request no operation takes, answer in the service's error shape
 *    (`errorShape`), through the service's own fault rendering where it has one;
 * 4. every declared volatile collection and field exists in the loaded state (or after the sequence);
 * 5. every tool of every pinned MCP server of the service (catalog/snapshots/), called over MCP
 *    with arguments generated from its input schema (`sweep.args` for ids that must exist), is
 *    answered without a transport error, a 5xx, or a world request no operation matched; and
 *    each makes a world request (but the `sweep.offline` tools).
 *
 * The sequence is generated from the service's REST routes and its spec fallback's operations
 * (path parameters from `values`, bodies from `bodies`) and the caller's own `requests` makers
 * (GraphQL documents, actions), with a seeded generator.
 */
export interface ConformanceRequest {
  method: string;
  /** Origin-form target, `/path?query`. */
  target: string;
  /** Sent as is; an object is encoded with `encodeBody` (default JSON). */
  body?: string | Record<string, unknown>;
  headers?: HeaderList;
}

export interface Random {
  /** A float in [0, 1). */
  (): number;
  pick<T>(items: readonly T[]): T;
  int(min: number, max: number): number;
}

export interface ConformanceOptions {
  /** The catalog id. */
  service: string;
  /** The world every test runs in (its scenario, argument values for the tool sweep). */
  sweep: SweepProfile;
  /** Headers on every generated request (the service's credential). */
  headers?: HeaderList;
  /** Values for path parameters by name (`owner: ['acme']`); a parameter without values gets `conformance`. */
  values?: Readonly<Record<string, readonly string[]>>;
  /** Bodies for generated writes, by route (`POST /repos/:owner/:repo/issues`, or a spec template `POST /v1/coupons/{coupon}`); default `{}`. */
  bodies?: Readonly<Record<string, (random: Random, i: number) => Record<string, unknown>>>;
  /** More request makers (GraphQL documents, AWS actions, queries the routes cannot guess). */
  requests?: readonly ((random: Random, i: number) => ConformanceRequest)[];
  /** Routes left out of the generated sequence (`DELETE /repos/:owner/:repo/git/refs/*ref`). */
  skipRoutes?: readonly string[];
  /** How an object body is sent; default JSON (`formBody` for form APIs). */
  encodeBody?: (body: Record<string, unknown>) => { contentType: string; text: string };
  /** Length of the generated sequence (default 300). */
  count?: number;
  /** Seeds of the two-world and other-seed runs (default 42 and 43). */
  seeds?: readonly [number, number];
  /**
   * What a seed may change: values of these JSON fields, text matching these patterns (IDs, and
   * what embeds them), and these response headers (request ids, ETags over bodies, lengths).
   */
  seeded: { fields?: readonly string[]; patterns?: readonly RegExp[]; headers?: readonly string[] };
  /** The service's error envelope: every 4xx/5xx body of the sequence and every fault body parses with it. */
  errorShape: z.ZodTypeAny;
  /** Whether an answer is an error (default: status ≥ 400); Slack's errors are HTTP 200 `ok:false`. */
  isError?: (entry: JournalEntry) => boolean;
  /** Tool sweep: per call (default 30 s); the whole sweep gets `tools × timeout`. */
  toolTimeoutMs?: number;
  /** A test of the file reads every tool's outcome from `suite.sweep()`: sweep every tool in the normal run too. */
  fullSweep?: boolean;
}

/**
 * The normal run sweeps every third tool of each server, plus every tool the profile orders
 * explicitly (catalog/sweep.ts); TOOLBENCH_LONG_TESTS=1 (CI) and `toolbench coverage` call every
 * one. Calling the tools is most of a sweep's cost; starting the real servers is paid either way.
 */
export const SWEEP_SAMPLE = LONG ? null : (_tool: string, index: number) => index % 3 === 0;

export interface ConformanceSuite {
  /**
   * The every-tool sweep, run once per file and shared: its own test and a file's tests about
   * particular tools read the same result (each sweep starts the service's real servers). Every
   * tool with `fullSweep` or TOOLBENCH_LONG_TESTS=1, else SWEEP_SAMPLE.
   */
  sweep(): Promise<SweepResult>;
}

/** Registers the conformance tests for one service on `test`. */
export function conformance(test: TestFn, options: ConformanceOptions): ConformanceSuite {
  const { service } = options;
  let swept: Promise<SweepResult> | undefined;
  const slow = new Set(options.sweep.slow ?? []);
  const include = options.fullSweep || !SWEEP_SAMPLE ? null : (tool: string, index: number) => !slow.has(tool) && SWEEP_SAMPLE!(tool, index);
  const sweep = () => (swept ??= sweepTools({
    service, profile: options.sweep, caDir: testCaDir(), ...(options.toolTimeoutMs ? { timeoutMs: options.toolTimeoutMs } : {}), ...(include ? { include } : {}),
  }));
  const [seedA, seedB] = options.seeds ?? [42, 43];
  const prepared = new Map<number, ReturnType<typeof prepareWorld>>();
  const worldFor = (seed: number, faults?: World['config']['faults']): World => {
    let ready = prepared.get(seed);
    if (!ready) prepared.set(seed, ready = prepareWorld({ scenarioDir: scenarioOf(options.sweep), seed }));
    const { header, services } = ready;
    return new World({ seed, epochMs: Date.parse(header.epoch), tickMs: header.tickMs, services, journal: new MemoryJournal(header), faults });
  };
  let cachedSequence: ConformanceRequest[] | null = null;
  const sequence = () => (cachedSequence ??= generateRequests(worldFor(seedA), options));
  const runs = new Map<number, JournalEntry[]>();
  const run = (seed: number, fresh = false): JournalEntry[] => {
    if (!fresh && runs.has(seed)) return runs.get(seed)!;
    const world = worldFor(seed);
    const entries = sequence().map((request) => send(world, service, request, options));
    if (!fresh) runs.set(seed, entries);
    return entries;
  };

  test(`${service} conformance: two fresh worlds answer ${options.count ?? 300} generated requests byte for byte alike`, (t) => {
    const a = run(seedA);
    const b = run(seedA, true);
    t.is(a.length, b.length);
    for (let i = 0; i < a.length; i++) {
      if (!sameAnswer(a[i]!, b[i]!)) return void t.fail(`answer ${i} (${a[i]!.method} ${a[i]!.target}) differs between two fresh worlds`);
    }
    const definition = worldFor(seedA).definition(service)!;
    const named = a.filter((entry) => entry.operation !== null);
    t.true(named.length > a.length / 2, `most generated requests reach an operation (${named.length} of ${a.length})`);
    t.true(a.some((entry) => entry.method !== 'GET' && entry.response.status < 300 && !(options.isError ?? defaultIsError)(entry)), 'some non-GET requests succeed');
    if ((definition as { kit?: { fallback?: unknown } }).kit?.fallback) {
      t.true(a.some((entry) => entry.operation?.via === 'spec' && !(options.isError ?? defaultIsError)(entry)), 'the spec fallback answers some of the sequence');
    }
  });

  test(`${service} conformance: another seed changes only IDs and what derives from them`, (t) => {
    const a = run(seedA);
    const b = run(seedB);
    t.is(a.length, b.length);
    const maskA = masker(options.seeded);
    const maskB = masker(options.seeded);
    let differ = 0;
    for (let i = 0; i < a.length; i++) {
      const x = maskA(a[i]!);
      const y = maskB(b[i]!);
      if (JSON.stringify(x) !== JSON.stringify(y)) {
        t.deepEqual(y, x, `answer ${i} (${a[i]!.method} ${a[i]!.target}) differs beyond the seeded values`);
        return;
      }
      if (!sameAnswer(a[i]!, b[i]!)) differ++;
    }
    if ((options.seeded.fields?.length ?? 0) + (options.seeded.patterns?.length ?? 0) + (options.seeded.headers?.length ?? 0) > 0) {
      t.true(differ > 0, 'the declared seeded values do change with the seed');
    }
    t.log(`${differ} of ${a.length} answers differ only in seeded values`);
  });

  test(`${service} conformance: faults and refusals answer in the service's error shape`, (t) => {
    const probe = sequence().find((request) => request.method === 'GET') ?? sequence()[0]!;
    const definition = worldFor(seedA).definition(service)!;
    for (const kind of FAULT_KINDS) {
      const rule = FaultRuleSchema.parse({ service, kind, nth: [1], ...(kind === '429' || kind === '503' ? { retry_after: 2 } : {}) });
      const entry = send(worldFor(seedA, { chaos: 'none', rules: [rule] }), service, probe, options);
      t.is(entry.fault?.kind, kind, `fault ${kind} applied`);
      checkShape(t, options.errorShape, entry, `fault ${kind}`);
      if (definition.fault) {
        const generic = genericFaultResponse({ kind: kind as FaultKind, retryAfter: 2 });
        const own = entry.response.headers.filter(([name]) => !/^(date|x-toolbench-seq|content-length)$/i.test(name));
        t.false(Buffer.compare(generic.body, entry.response.body) === 0 && JSON.stringify(own) === JSON.stringify(generic.headers),
          `fault ${kind} is the service's own rendering, not the generic one`);
      }
    }
    const unknown = send(worldFor(seedA), service, { method: 'GET', target: '/conformance/no/such/operation' }, options);
    t.is(unknown.operation, null, 'a path no operation takes names none');
    t.true((options.isError ?? defaultIsError)(unknown), 'a path no operation takes is an error');
    checkShape(t, options.errorShape, unknown, 'an unknown path');
    let errors = 0;
    for (const entry of run(seedA)) {
      if (!(options.isError ?? defaultIsError)(entry) || entry.method === 'HEAD') continue;
      errors++;
      checkShape(t, options.errorShape, entry, `${entry.method} ${entry.target} → ${entry.response.status}`);
    }
    t.true(errors > 0, 'the generated sequence includes errors');
  });

  test(`${service} conformance: declared volatile fields exist in the loaded state`, (t) => {
    const world = worldFor(seedA);
    const definition = world.definition(service)!;
    const volatile = definition.volatile ?? {};
    const initial = world.gradingState('initial')[service] ?? {};
    for (const request of sequence()) send(world, service, request, options);
    const after = world.gradingState('now')[service] ?? {};
    // The grader's own check (a dotted field reaches a nested one; `'*'` collections are not
    // checked), over the loaded state and after the sequence.
    t.true(Object.keys(volatile).length > 0, 'the service declares volatile fields');
    t.deepEqual(volatileProblems({ [service]: volatile }, [{ [service]: initial }, { [service]: after }], { strict: true }), []);
  });

  test(`${service} conformance: every tool of its MCP servers (a sample in the normal run), called with generated arguments, reaches operations without 5xx`, async (t) => {
    t.timeout(10 * 60_000);
    const result = await sweep();
    t.deepEqual(result.unsnapshotted, [], 'every endpoint has a tool snapshot (toolbench catalog capture)');
    for (const outcome of result.outcomes) {
      const label = `${outcome.endpoint} ${outcome.tool}(${JSON.stringify(outcome.arguments)})`;
      t.is(outcome.transportError, null, `${label}: no transport error`);
      if (!(options.sweep.offline ?? []).includes(outcome.tool)) {
        t.true(outcome.entries.length > 0, `${label}: made a world request (answered: ${outcome.text.slice(0, 120)}); list tools that never call the API in sweep.offline`);
      }
      for (const entry of outcome.entries) {
        t.true(entry.response.status < 500, `${label}: ${entry.method} ${entry.target} answered ${entry.response.status}`);
        if (entry.service === service) t.not(entry.operation, null, `${label}: ${entry.method} ${entry.target} reached an operation`);
      }
    }
    t.true(result.outcomes.length > 0 || result.unsnapshotted.length === 0, 'tools were called');
    t.log(`${result.outcomes.length} tools, ${result.outcomes.reduce((n, o) => n + o.entries.length, 0)} world requests, ${result.outcomes.filter((o) => o.isError).length} tool errors`);
  });
  return { sweep };
}

/** Builds the request sequence: generated from the service's REST routes and the caller's makers. */
export function generateRequests(world: World, options: ConformanceOptions): ConformanceRequest[] {
  const definition: ServiceDefinition = world.definition(options.service)!;
  const random = seeded(options.seeds?.[0] ?? 42);
  const skip = new Set(options.skipRoutes ?? []);
  const makers: ((random: Random, i: number) => ConformanceRequest)[] = [];
  for (const route of definition.routes ?? []) {
    const key = `${route.method} ${route.pattern}`;
    if (skip.has(key)) continue;
    makers.push((r, i) => {
      const target = route.pattern.split('/').map((segment) => {
        if (!segment.startsWith(':') && !segment.startsWith('*')) return segment;
        const name = segment.slice(1);
        const values = options.values?.[name];
        return values && values.length > 0 ? values.map((v) => v)[Math.floor(r() * values.length)]! : 'conformance';
      }).join('/');
      const body = route.method === 'GET' || route.method === 'HEAD' ? undefined : options.bodies?.[key]?.(r, i) ?? {};
      return { method: route.method, target, ...(body === undefined ? {} : { body }) };
    });
  }
  // The long tail: the spec fallback's operations (`{param}` templates), when the service has one.
  const fallback = (definition as { kit?: { fallback?: { operations?: readonly SpecOperation[] } } }).kit?.fallback;
  for (const op of fallback?.operations ?? []) {
    const key = `${op.method} ${op.template}`;
    if (skip.has(key)) continue;
    makers.push((r, i) => {
      const target = op.template.replace(/\{([^}]+)\}/g, (_m, name: string) => {
        const values = options.values?.[name];
        return encodeURIComponent(values && values.length > 0 ? values[Math.floor(r() * values.length)]! : 'conformance');
      });
      const body = op.method === 'GET' || op.method === 'DELETE' ? undefined : options.bodies?.[key]?.(r, i) ?? {};
      return { method: op.method, target, ...(body === undefined ? {} : { body }) };
    });
  }
  makers.push(...(options.requests ?? []));
  if (makers.length === 0) throw new Error(`conformance ${options.service}: no routes and no request makers`);
  return Array.from({ length: options.count ?? 300 }, (_, i) => random.pick(makers)(random, i));
}

function send(world: World, service: string, request: ConformanceRequest, options: ConformanceOptions): JournalEntry {
  const host = world.config.services.find((s) => s.id === service)!.hostnames[0]!;
  const headers: HeaderList = [['Host', host], ...(options.headers ?? []), ...(request.headers ?? [])];
  let text = '';
  if (typeof request.body === 'string') text = request.body;
  else if (request.body !== undefined) {
    const encoded = options.encodeBody ? options.encodeBody(request.body) : { contentType: 'application/json', text: JSON.stringify(request.body) };
    text = encoded.text;
    if (!headers.some(([name]) => name.toLowerCase() === 'content-type')) headers.push(['Content-Type', encoded.contentType]);
  }
  return world.process({ service, host, method: request.method, target: request.target, headers, body: new TextEncoder().encode(text) });
}

function sameAnswer(a: JournalEntry, b: JournalEntry): boolean {
  return a.response.status === b.response.status && JSON.stringify(a.response.headers) === JSON.stringify(b.response.headers)
    && Buffer.compare(a.response.body, b.response.body) === 0;
}

function defaultIsError(entry: JournalEntry): boolean {
  return entry.response.status >= 400;
}

function checkShape(t: { true(value: boolean, message?: string): void }, shape: z.ZodTypeAny, entry: JournalEntry, label: string): void {
  const text = new TextDecoder().decode(entry.response.body);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    t.true(false, `${label}: the error body is not JSON: ${text.slice(0, 120)}`);
    return;
  }
  const parsed = shape.safeParse(body);
  t.true(parsed.success, `${label}: the error body has the service's shape: ${parsed.success ? '' : parsed.error.issues[0]?.message} in ${text.slice(0, 200)}`);
}

/**
 * Replaces the values a seed may change by placeholders numbered in order of first appearance
 * (the same ID gets the same placeholder everywhere), and drops the seeded headers. One masker
 * per run, so both runs number their IDs alike when they use them alike.
 */
function masker(seeded: ConformanceOptions['seeded']): (entry: JournalEntry) => unknown {
  const numbers = new Map<string, number>();
  const dropped = new Set((seeded.headers ?? []).map((name) => name.toLowerCase()));
  const fields = new Set(seeded.fields ?? []);
  return (entry) => {
    let text = new TextDecoder().decode(entry.response.body);
    const tokens = new Set<string>();
    if (fields.size > 0 && /^\s*[[{]/.test(text)) {
      try {
        collect(JSON.parse(text), fields, tokens);
      } catch { /* not JSON: patterns only */ }
    }
    for (const pattern of seeded.patterns ?? []) {
      for (const match of text.matchAll(new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : pattern.flags + 'g'))) tokens.add(match[0]);
    }
    const ordered = [...tokens].filter((token) => token.length > 0).sort((x, y) => text.indexOf(x) - text.indexOf(y));
    for (const token of ordered) if (!numbers.has(token)) numbers.set(token, numbers.size + 1);
    for (const token of [...ordered].sort((x, y) => y.length - x.length)) text = text.split(token).join(`<seeded#${numbers.get(token)}>`);
    return {
      status: entry.response.status,
      headers: entry.response.headers.filter(([name]) => !dropped.has(name.toLowerCase())),
      body: text,
    };
  };
}

function collect(value: unknown, fields: ReadonlySet<string>, out: Set<string>): void {
  if (Array.isArray(value)) for (const item of value) collect(item, fields, out);
  else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      // Strings only, and not tiny ones: a counter's `1` would mask every digit.
      if (fields.has(key) && typeof child === 'string' && child.length >= 4) out.add(child);
      else collect(child, fields, out);
    }
  }
}

/** A seeded generator (mulberry32): the same seed, the same sequence. */
export function seeded(seed: number): Random {
  let state = seed >>> 0;
  const next = (() => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  }) as Random;
  next.pick = (items) => items[Math.floor(next() * items.length)]!;
  next.int = (min, max) => min + Math.floor(next() * (max - min + 1));
  return next;
}

/**
 * `encodeBody` for form APIs (Stripe, Twilio): nested objects and arrays as `a[b][0]=x`, the way
 * stripe-node sends them.
 */
export function formBody(body: Record<string, unknown>): { contentType: string; text: string } {
  const pairs: string[] = [];
  const add = (key: string, value: unknown): void => {
    if (value === undefined) return;
    if (Array.isArray(value)) value.forEach((item, i) => add(`${key}[${i}]`, item));
    else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) add(`${key}[${k}]`, v);
    else pairs.push(`${encodeURIComponent(key)}=${encodeURIComponent(value === null ? '' : String(value))}`);
  };
  for (const [key, value] of Object.entries(body)) add(key, value);
  return { contentType: 'application/x-www-form-urlencoded', text: pairs.join('&') };
}
