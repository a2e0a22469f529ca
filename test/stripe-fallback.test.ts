import { readFileSync } from 'node:fs';
import test from 'ava';
import { startStack, type Stack } from '../catalog/stack.js';
import type { JournalEntry } from '../mocks/core/journal-format.js';
import type { Schema, SpecOperation } from '../mocks/kit/spec-fallback.js';
import { stripeSpecFallback } from '../mocks/stripe/fallback.js';
import { testCaDir } from './helpers/proxy.js';
import { specValidator } from './helpers/spec-validate.js';
import { sourceUrl } from '../mocks/core/source-url.js';

// Every operation of Stripe's description that no handler takes (mocks/stripe/spec/
// stripe-fallback.openapi.json), answered by the kit's spec fallback: each is called with its
// required parameters over HTTP and its answer validated against the spec's response schema;
// creates are then read back and listed; an unknown ID is Stripe's 404 `resource_missing`.

const spec = JSON.parse(readFileSync(new URL('../mocks/stripe/spec/stripe-fallback.openapi.json', sourceUrl(import.meta.url)), 'utf8'));
const validate = specValidator(spec);
const operations = stripeSpecFallback().operations;
const KEY = 'sk_test_51ExampleAcmeKey0000000';
let stack: Stack;
let base: string;

test.before(async () => {
  stack = await startStack({ scenarioDir: 'scenarios/example/stripe/basic', ports: 'ephemeral', caDir: testCaDir(), endpoints: false, proxy: false });
  base = stack.addresses().services.stripe!.replace(/\/$/, '');
});
test.after.always(() => stack?.close());

const resolve = (schema: Schema): Schema => {
  let current = schema;
  while (current?.$ref) current = spec.components.schemas[current.$ref.split('/').at(-1)];
  return current ?? {};
};

/** A value for a schema: an enum's first value, one of `anyOf`, a required field of an object. */
function sample(raw: Schema, depth = 0): unknown {
  const schema = resolve(raw);
  if (Array.isArray(schema.enum)) return schema.enum.find((v: unknown) => v !== '') ?? schema.enum[0];
  if (schema.anyOf) return sample(schema.anyOf[0], depth);
  switch (schema.type) {
    case 'integer': case 'number': return 1;
    case 'boolean': return true;
    case 'array': return [sample(schema.items ?? {}, depth + 1)];
    case 'object': {
      const props = schema.properties ?? {};
      const names: string[] = schema.required?.length ? schema.required : Object.keys(props).slice(0, 1);
      if (names.length === 0 || depth > 4) return { key: 'value' };
      return Object.fromEntries(names.map((name) => [name, sample(props[name] ?? {}, depth + 1)]));
    }
    default: return schema.format === 'unix-time' ? 1 : 'x';
  }
}

/** Stripe's form encoding with brackets: `a[b][0]=x`. */
function encode(value: unknown, prefix: string, out: URLSearchParams): URLSearchParams {
  if (Array.isArray(value)) value.forEach((item, i) => encode(item, `${prefix}[${i}]`, out));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) encode(v, prefix ? `${prefix}[${k}]` : k, out);
  else out.append(prefix, String(value));
  return out;
}

function rawOp(op: SpecOperation): Schema {
  return spec.paths[op.template][op.method.toLowerCase()];
}

function requiredBody(op: SpecOperation): Record<string, unknown> {
  const schema = resolve(rawOp(op).requestBody?.content?.['application/x-www-form-urlencoded']?.schema ?? {});
  return Object.fromEntries(((schema.required ?? []) as string[]).map((name) => [name, sample(schema.properties?.[name] ?? {})]));
}

function requiredQuery(op: SpecOperation): URLSearchParams {
  const out = new URLSearchParams();
  for (const p of rawOp(op).parameters ?? []) if (p.in === 'query' && p.required) encode(sample(p.schema ?? {}), p.name, out);
  return out;
}

/** The concrete path: the item's ID where one was created, `<name>_fallback` for any other parameter. */
function pathOf(op: SpecOperation, ids: Map<string, string>, itemId?: string): string {
  const segments = op.template.split('/');
  const itemAt = op.kind === 'action' ? segments.length - 2 : segments.length - 1;
  return segments.map((s, i) => {
    if (!/^\{.+\}$/.test(s)) return s;
    if (i === itemAt && op.collection) return itemId ?? ids.get(op.collection) ?? `${s.slice(1, -1)}_missing`;
    return `${s.slice(1, -1)}_fallback`;
  }).join('/');
}

async function call(op: SpecOperation, path: string, body?: Record<string, unknown>) {
  const query = op.method === 'GET' || op.method === 'DELETE' ? requiredQuery(op).toString() : '';
  const res = await fetch(`${base}${path}${query ? `?${query}` : ''}`, {
    method: op.method,
    headers: { authorization: `Bearer ${KEY}`, ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
    body: body ? encode(body, '', new URLSearchParams()).toString() : undefined,
  });
  return { status: res.status, json: await res.json() as Schema };
}

test('every operation the spec fallback answers: required parameters in, the spec\'s shape out; creates are readable and listable; unknown IDs are Stripe\'s 404', async (t) => {
  t.true(operations.length >= 350, `${operations.length} operations`);
  const ids = new Map<string, string>();
  const problems: string[] = [];
  const check = (op: SpecOperation, path: string, r: { status: number; json: Schema }) => {
    if (r.status < 200 || r.status > 299) return problems.push(`${op.method} ${path}: ${r.status} ${JSON.stringify(r.json).slice(0, 200)}`);
    const problem = op.response ? validate(op.id, r.json) : null;
    if (problem) problems.push(`${op.method} ${path} (${op.id}): ${problem.slice(0, 300)}`);
  };
  const missing = (op: SpecOperation, path: string, r: { status: number; json: Schema }) => {
    if (r.status !== 404 || r.json.error?.code !== 'resource_missing' || r.json.error?.type !== 'invalid_request_error') {
      problems.push(`${op.method} ${path}: expected Stripe's 404, got ${r.status} ${JSON.stringify(r.json).slice(0, 200)}`);
    }
  };
  const find = (collection: string | null, kind: string) => operations.find((o) => o.collection === collection && o.kind === kind);

  // Creates first: each is then read back by ID and found in its list.
  for (const op of operations.filter((o) => o.kind === 'create')) {
    const path = pathOf(op, ids);
    const r = await call(op, path, requiredBody(op));
    check(op, path, r);
    if (typeof r.json.id !== 'string') continue;
    ids.set(op.collection!, r.json.id);
    const read = find(op.collection, 'read');
    if (read) {
      const got = await call(read, pathOf(read, ids));
      if (got.status !== 200 || JSON.stringify(got.json) !== JSON.stringify(r.json)) problems.push(`${read.id}: the created ${r.json.id} reads back as ${got.status}`);
    }
    const list = find(op.collection, 'list');
    if (list) {
      const got = await call(list, pathOf(list, ids));
      check(list, pathOf(list, ids), got);
      if (!(got.json.data as Schema[] | undefined)?.some((item) => item.id === r.json.id)) problems.push(`${list.id}: the created ${r.json.id} is not listed`);
    }
  }
  // Then every other operation; an item no create made is Stripe's 404. Deletes last.
  const rest = [...operations.filter((o) => o.kind !== 'create' && o.kind !== 'delete'), ...operations.filter((o) => o.kind === 'delete')];
  for (const op of rest) {
    const path = pathOf(op, ids);
    const body = op.method === 'POST' ? requiredBody(op) : undefined;
    const r = await call(op, path, body);
    const onItem = op.kind === 'read' || op.kind === 'update' || op.kind === 'delete' || (op.kind === 'action' && op.collection !== null);
    if (onItem && !ids.has(op.collection!)) missing(op, path, r);
    else check(op, path, r);
    if (op.kind === 'read' && ids.has(op.collection!)) {
      const unknown = pathOf(op, ids, 'unknown_0000');
      missing(op, unknown, await call(op, unknown));
    }
  }
  t.deepEqual(problems, []);
  t.true(ids.size >= 40, `${ids.size} collections created into`);

  await stack.world.journal.flush();
  const entries: JournalEntry[] = [];
  for await (const entry of stack.world.journal.entries()) entries.push(entry);
  const names = new Set(entries.filter((e) => e.operation?.via === 'spec').map((e) => e.operation!.name));
  t.deepEqual(operations.filter((o) => !names.has(o.id)).map((o) => o.id), [], 'every operation reached the fallback');
});
