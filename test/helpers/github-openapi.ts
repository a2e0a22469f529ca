import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { Journal } from '../../mocks/core/journal.js';
import type { JournalEntry } from '../../mocks/core/journal-format.js';
import { openapiToJsonSchema } from '../../mocks/kit/openapi.js';

/**
 * Validates GitHub mock responses against GitHub's own OpenAPI description (@octokit/openapi,
 * api.github.com): finds the operation for (method, path), then checks the body against the
 * response schema for the status. Errors without a documented schema are checked against
 * `basic-error` (`validation-error` for 422). Legacy routes the description lacks are mapped:
 * `GET /git/refs/{prefix}` is `git/get-ref` (an object) or `git/list-matching-refs` (an array),
 * and `/repositories/{id}/…` is `/repos/{owner}/{repo}/…`.
 */
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const require = createRequire(import.meta.url);

type Json = Record<string, any>;

interface Operation {
  method: string;
  template: string;
  regex: RegExp;
  params: number;
  op: Json;
}

/** Path parameters that may contain slashes. */
const GREEDY = new Set(['path', 'ref', 'branch', 'basehead']);

let loaded: { spec: Json; ajv: Ajv; operations: Operation[]; cache: Map<string, ValidateFunction> } | undefined;

function load() {
  if (loaded) return loaded;
  const file = require.resolve('@octokit/openapi/generated/api.github.com.json');
  // Every in-document reference is made absolute so components can live in one added schema.
  const spec = openapiToJsonSchema(JSON.parse(readFileSync(file, 'utf8').replaceAll('"#/components/', '"gh#/components/'))) as Json;
  const ajv = addFormats(new Ajv({ allErrors: true, strict: false, validateSchema: false, validateFormats: true }));
  ajv.addSchema({ $id: 'gh', components: spec.components }, 'gh');
  const operations: Operation[] = [];
  for (const [template, item] of Object.entries(spec.paths as Json)) {
    const names: string[] = [];
    const pattern = template.replace(/\{([^}]+)\}/g, (_m, name: string) => {
      names.push(name);
      return GREEDY.has(name) ? '(.*)' : '([^/]+)';
    });
    for (const [method, op] of Object.entries(item as Json)) {
      if (method === 'parameters') continue;
      operations.push({ method: method.toUpperCase(), template, regex: new RegExp(`^${pattern}$`), params: names.length, op: op as Json });
    }
  }
  // Most specific first: fewer parameters, then longer templates.
  operations.sort((a, b) => a.params - b.params || b.template.length - a.template.length);
  loaded = { spec, ajv, operations, cache: new Map() };
  return loaded;
}

export function findOperation(method: string, path: string): Operation | undefined {
  const { operations } = load();
  const m = method === 'HEAD' ? 'GET' : method;
  return operations.find((o) => o.method === m && o.regex.test(path));
}

function byId(operationId: string): Operation {
  return load().operations.find((o) => o.op.operationId === operationId)!;
}

function componentSchema(name: string): Json {
  return { $ref: `gh#/components/schemas/${name}` };
}

/** The JSON schema for a status of an operation, or a fallback for undocumented errors. */
function responseSchema(operation: Operation | undefined, status: number): { key: string; schema: Json } | null {
  const { spec } = load();
  let response = operation?.op.responses?.[String(status)] as Json | undefined;
  if (response?.$ref) response = spec.components.responses[String(response.$ref).split('/').pop()!];
  const schema = response?.content?.['application/json']?.schema as Json | undefined;
  // GitHub documents some errors as `oneOf` two error shapes that one body always both matches.
  if (schema?.oneOf && status >= 400) return { key: `${operation!.op.operationId}:${status}`, schema: { anyOf: schema.oneOf } };
  if (schema) return { key: `${operation!.op.operationId}:${status}`, schema };
  if (status >= 400) return { key: `error:${status === 422 ? 'validation' : 'basic'}`, schema: componentSchema(status === 422 ? 'validation-error' : 'basic-error') };
  return null;
}

export interface Verdict {
  ok: boolean;
  operation: string;
  errors: string;
}

/** Validates one response; `ok` with operation `-` when there is nothing to check (no body, raw). */
export function validateGitHubResponse(method: string, target: string, status: number, contentType: string | undefined, body: Uint8Array): Verdict {
  const { ajv, cache } = load();
  if (body.length === 0 || !/json/.test(contentType ?? '')) return { ok: true, operation: '-', errors: '' };
  const path = target.split('?')[0]!.replace(/^\/repositories\/\d+/, '/repos/o/r');
  const data = JSON.parse(new TextDecoder().decode(body)) as unknown;
  let operation = findOperation(method, path);
  const legacyRefs = /^\/repos\/[^/]+\/[^/]+\/git\/refs(\/.*)?$/.exec(path);
  if ((method === 'GET' || method === 'HEAD') && legacyRefs) operation = byId(Array.isArray(data) ? 'git/list-matching-refs' : 'git/get-ref');
  const found = responseSchema(operation, status);
  if (!found) return { ok: status < 400, operation: operation?.op.operationId ?? 'unknown', errors: status < 400 ? '' : `no schema for ${status}` };
  let validate = cache.get(found.key);
  if (!validate) {
    validate = ajv.compile(found.schema);
    cache.set(found.key, validate);
  }
  const ok = validate(data);
  return {
    ok,
    operation: operation?.op.operationId ?? found.key,
    errors: ok ? '' : ajv.errorsText(validate.errors?.slice(0, 5), { separator: '\n  ' }),
  };
}

/** Every GitHub entry of a journal that fails its schema, as readable lines. */
export async function invalidJournalEntries(journal: Journal): Promise<string[]> {
  const entries: JournalEntry[] = [];
  for await (const entry of journal.entries()) entries.push(entry);
  return invalidEntries(entries);
}

/** The entries (GitHub's only) that fail their schema, as readable lines. */
export function invalidEntries(entries: Iterable<JournalEntry>): string[] {
  const problems: string[] = [];
  for (const entry of entries) {
    if (entry.service !== 'github') continue;
    const contentType = entry.response.headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1];
    const verdict = validateGitHubResponse(entry.method, entry.target, entry.response.status, contentType, entry.response.body);
    if (!verdict.ok) problems.push(`#${entry.seq} ${entry.method} ${entry.target} → ${entry.response.status} (${verdict.operation}):\n  ${verdict.errors}`);
  }
  return problems;
}
