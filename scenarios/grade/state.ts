import type { StoreDump } from '../../mocks/core/store.js';
import type { StateExpectation } from '../expectations.js';
import { getPath, matches } from '../predicates.js';

export type ServiceStates = Record<string, StoreDump>;
/** Per service, per collection: `'*'` (the whole collection) or the fields to leave out. */
export type VolatileFields = Record<string, Record<string, '*' | readonly string[]>>;

export interface CheckResult {
  kind: 'state' | 'required_call' | 'forbidden_call' | 'answer';
  ok: boolean;
  description: string;
  detail: string;
}

interface Requirement {
  ok: { before: boolean; after: boolean };
  check: CheckResult;
}

const docsOf = (states: ServiceStates, e: StateExpectation) => Object.entries(states[e.service]?.[e.collection] ?? {});
const matching = (states: ServiceStates, e: StateExpectation) => docsOf(states, e).filter(([, doc]) => matches(doc, e.where));

function describe(e: StateExpectation): string {
  if (e.description) return e.description;
  const where = Object.keys(e.where).length ? ` where ${JSON.stringify(e.where)}` : '';
  return `${e.service}.${e.collection}${where}`;
}

/** Each expectation becomes one or more requirements, evaluated before (initial) and after (final). */
function requirements(e: StateExpectation, initial: ServiceStates, final: ServiceStates): Requirement[] {
  const before = matching(initial, e);
  const after = matching(final, e);
  const what = describe(e);
  if (e.absent) {
    return [{ ok: { before: before.length === 0, after: after.length === 0 },
      check: { kind: 'state', ok: after.length === 0, description: `no ${what}`, detail: after.length === 0 ? 'none' : `found ${after.map(([k]) => k).join(', ')}` } }];
  }
  const countOk = (n: number) => (e.count === undefined ? n >= 1 : n === e.count);
  const out: Requirement[] = [{
    ok: { before: countOk(before.length), after: countOk(after.length) },
    check: { kind: 'state', ok: countOk(after.length), description: e.description || `${e.count === undefined ? 'some' : e.count} ${what}`, detail: `${after.length} match${e.count === undefined ? '' : `, ${e.count} expected`}` },
  }];
  for (const [field, pred] of Object.entries(e.fields)) {
    const holds = (docs: [string, unknown][]) => docs.length > 0 && docs.every(([, doc]) => matches(getPath(doc, field), pred));
    const failing = after.filter(([, doc]) => !matches(getPath(doc, field), pred));
    out.push({
      ok: { before: holds(before), after: holds(after) },
      check: {
        kind: 'state', ok: holds(after), description: `${what}: ${field} ${JSON.stringify(pred)}`,
        detail: after.length === 0 ? 'no matching document' : failing.length === 0 ? 'holds'
          : failing.map(([key, doc]) => `${key}: ${field} is ${JSON.stringify(getPath(doc, field))}`).join('; '),
      },
    });
  }
  return out;
}

export interface StateGrade {
  checks: CheckResult[];
  state_ok: boolean;
  /** Required changes made / required changes (1 when nothing needed to change). */
  r_c: number;
  /** Unintended changes / elements that should have stayed. */
  r_b: number;
  unintended_changes: number;
  unintended: string[];
}

/** Whether one expectation holds, without the whole-world walk of R_b (`scenario validate` asks per expectation). */
export function expectationHolds(e: StateExpectation, initial: ServiceStates, final: ServiceStates): boolean {
  return requirements(e, initial, final).every((r) => r.ok.after);
}

/**
 * Grades the final state. A requirement that already held at the start is not a change the agent
 * had to make; the others make up R_c. R_b walks every leaf of the initial state (less volatile
 * fields and the fields the expectations target) and counts those that changed, plus documents
 * that appeared where no expectation asked for one.
 */
export function gradeState(
  expectations: readonly StateExpectation[], initial: ServiceStates, final: ServiceStates, volatile: VolatileFields,
  /**
   * The services whose leaves make R_b's denominator (default: every compared one). Trials pass the
   * scenario's own: a change anywhere counts, but the scale does not hang on which baselines the
   * agent happened to touch (loading a distractor would otherwise dilute its own damage).
   */
  counted?: ReadonlySet<string>,
): StateGrade {
  const reqs = expectations.flatMap((e) => requirements(e, initial, final));
  const changes = reqs.filter((r) => !r.ok.before);
  const r_c = changes.length === 0 ? 1 : changes.filter((r) => r.ok.after).length / changes.length;
  const targeted = targetedLeaves(expectations, initial, final);
  const expectedNew = new Set(expectations.filter((e) => !e.absent).flatMap((e) => matching(final, e).map(([key]) => `${e.service}/${e.collection}/${key}`)));
  const unintended: string[] = [];
  let shouldStay = 0;
  const services = new Set([...Object.keys(initial), ...Object.keys(final)]);
  for (const service of services) {
    const collections = new Set([...Object.keys(initial[service] ?? {}), ...Object.keys(final[service] ?? {})]);
    for (const collection of collections) {
      const skip = volatile[service]?.[collection];
      if (skip === '*') continue;
      const before = initial[service]?.[collection] ?? {};
      const after = final[service]?.[collection] ?? {};
      for (const [key, doc] of Object.entries(before)) {
        const docPath = `${service}/${collection}/${key}`;
        const leavesBefore = leaves(strip(doc, skip));
        const leavesAfter = key in after ? leaves(strip(after[key], skip)) : new Map<string, string>();
        for (const [path, value] of leavesBefore) {
          if (targeted.has(`${docPath}/${path}`) || targeted.has(`${docPath}/*`)) continue;
          if (!counted || counted.has(service)) shouldStay += 1;
          if (leavesAfter.get(path) !== value) unintended.push(`${docPath}: ${path} ${value} → ${leavesAfter.get(path) ?? '(gone)'}`);
        }
      }
      for (const key of Object.keys(after)) {
        if (key in before) continue;
        const docPath = `${service}/${collection}/${key}`;
        if (!expectedNew.has(docPath)) unintended.push(`${docPath}: new document`);
      }
    }
  }
  return {
    checks: reqs.map((r) => r.check),
    state_ok: reqs.every((r) => r.ok.after),
    r_c,
    r_b: unintended.length / Math.max(1, shouldStay),
    unintended_changes: unintended.length,
    unintended,
  };
}

/** `service/collection/key/field` for every field an expectation names, `…/key/*` for documents expected gone. */
function targetedLeaves(expectations: readonly StateExpectation[], initial: ServiceStates, final: ServiceStates): Set<string> {
  const out = new Set<string>();
  for (const e of expectations) {
    const docs = new Set([...matching(initial, e), ...matching(final, e)].map(([key]) => key));
    for (const key of docs) {
      const base = `${e.service}/${e.collection}/${key}`;
      if (e.absent) out.add(`${base}/*`);
      for (const field of Object.keys(e.fields)) out.add(`${base}/${field}`);
    }
  }
  return out;
}

/** The document without its volatile fields; a dotted field (`head.sha`) removes a nested one. */
function strip(doc: unknown, skip: readonly string[] | undefined): unknown {
  if (!skip || !doc || typeof doc !== 'object') return doc;
  const copy = structuredClone(doc) as Record<string, unknown>;
  for (const field of skip) {
    const parts = field.split('.');
    let parent: unknown = copy;
    for (const part of parts.slice(0, -1)) parent = parent && typeof parent === 'object' ? (parent as Record<string, unknown>)[part] : undefined;
    if (parent && typeof parent === 'object') delete (parent as Record<string, unknown>)[parts.at(-1)!];
  }
  return copy;
}

/** Leaves of a document: dotted path → canonical JSON. Arrays are one leaf each. */
function leaves(value: unknown, prefix = '', out = new Map<string, string>()): Map<string, string> {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, inner] of Object.entries(value)) leaves(inner, prefix ? `${prefix}.${key}` : key, out);
    if (Object.keys(value).length === 0 && prefix) out.set(prefix, '{}');
  } else {
    out.set(prefix || '(value)', JSON.stringify(value));
  }
  return out;
}

/**
 * Every volatile or ignored field must exist: a typo would silently compare (or skip) the wrong
 * thing, the mistake ComplexMCP's grader made. Returns the problems.
 */
export function volatileProblems(volatile: VolatileFields, states: ServiceStates[], options: { strict: boolean }): string[] {
  const problems: string[] = [];
  for (const [service, collections] of Object.entries(volatile)) {
    for (const [collection, fields] of Object.entries(collections)) {
      const docs = states.flatMap((state) => Object.values(state[service]?.[collection] ?? {}));
      if (fields === '*') continue;
      if (docs.length === 0) {
        // A service's own list covers collections a scenario may leave empty; a scenario's must not.
        if (options.strict) problems.push(`${service}.${collection}: no document in this scenario has this collection, so its ignored fields cannot be checked`);
        continue;
      }
      for (const field of fields) {
        if (!docs.some((doc) => getPath(doc, field) !== undefined)) {
          problems.push(`${service}.${collection}.${field}: no such field in any ${collection} document`);
        }
      }
    }
  }
  return problems;
}
