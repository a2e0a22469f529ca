import { readFileSync } from 'node:fs';
import type { OpenApiDocument, Schema } from './spec-fallback.js';
import { sourceUrl } from '../core/source-url.js';

/**
 * Working with vendored OpenAPI 3 descriptions: prune a vendor's spec to the paths a service
 * uses (vendor only that, with its licence in docs/provenance.md), and read OpenAPI 3.0's
 * `nullable` as JSON Schema for validators (ajv).
 */

/**
 * The paths `keep` selects, every component schema they reach through `$ref`s, and the
 * document's `openapi`, `info` and `servers`. Prose `description`s are dropped (they are most of
 * the bytes); `keepDescriptions` keeps them. Only success (2xx) responses are kept unless
 * `keepErrors`: a mock renders errors in its own envelope, and an error schema can reach much of
 * the spec (Stripe's `error` embeds payment intents, and through them nearly every schema).
 */
export function pruneSpec(spec: OpenApiDocument, keep: (template: string) => boolean, options: { keepDescriptions?: boolean; keepErrors?: boolean } = {}): OpenApiDocument {
  const paths = Object.fromEntries(Object.entries(spec.paths).filter(([template]) => keep(template)).map(([template, item]) => [template,
    options.keepErrors ? item : Object.fromEntries(Object.entries(item).map(([method, op]) => [method,
      op && typeof op === 'object' && op.responses ? { ...op, responses: Object.fromEntries(Object.entries(op.responses as Schema).filter(([code]) => /^2/.test(code))) } : op])),
  ]));
  const schemas = spec.components?.schemas ?? {};
  const reached = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/')) {
        const name = value.slice('#/components/schemas/'.length);
        if (!reached.has(name) && schemas[name]) {
          reached.add(name);
          visit(schemas[name]);
        }
      } else visit(value);
    }
  };
  visit(paths);
  const kept = Object.fromEntries(Object.keys(schemas).filter((name) => reached.has(name)).sort().map((name) => [name, schemas[name]!]));
  const out: OpenApiDocument = {
    openapi: spec.openapi,
    ...(spec.info ? { info: spec.info } : {}),
    ...(spec.servers ? { servers: spec.servers } : {}),
    paths,
    components: { schemas: kept },
  };
  return options.keepDescriptions ? out : stripDescriptions(out) as OpenApiDocument;
}

/** Drops prose: `description` (and `summary`) strings; a property *named* description stays. */
function stripDescriptions(node: unknown, underProperties = false): unknown {
  if (Array.isArray(node)) return node.map((item) => stripDescriptions(item));
  if (!node || typeof node !== 'object') return node;
  const out: Schema = {};
  for (const [key, value] of Object.entries(node)) {
    if (!underProperties && (key === 'description' || key === 'summary') && typeof value === 'string') continue;
    out[key] = stripDescriptions(value, key === 'properties' && !underProperties);
  }
  return out;
}

/**
 * A description without vendor notes (`x-…`) and examples, and without any of `alsoDrop` (keys such
 * as `tags`), for vendoring a pruned copy; names under `properties` are data, never dropped.
 */
export function stripNotes(node: unknown, alsoDrop: readonly string[] = [], underProperties = false): unknown {
  if (Array.isArray(node)) return node.map((item) => stripNotes(item, alsoDrop));
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(Object.entries(node)
    .filter(([key]) => underProperties || !(key.startsWith('x-') || key === 'example' || key === 'examples' || alsoDrop.includes(key)))
    .map(([key, value]) => [key, stripNotes(value, alsoDrop, key === 'properties' && !underProperties)]));
}

/** OpenAPI 3.0's `nullable: true` as JSON Schema: `type: [t, 'null']`, or `anyOf` with null. */
export function openapiToJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(openapiToJsonSchema);
  if (!node || typeof node !== 'object') return node;
  const out: Schema = {};
  for (const [key, value] of Object.entries(node)) out[key] = key === 'example' || key === 'examples' ? value : openapiToJsonSchema(value);
  if (out.nullable !== true) return out;
  delete out.nullable;
  if (typeof out.type === 'string') {
    out.type = [out.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    return out;
  }
  return { anyOf: [out, { type: 'null' }] };
}

/**
 * Reads a vendored spec beside a service's module, at module load (never in a handler):
 * `loadSpec(import.meta.url, './spec/stripe.json')`. From the build (`dist/`), the path is read
 * in the source tree, where the JSON lives.
 */
export function loadSpec(moduleUrl: string, relativePath: string): OpenApiDocument {
  return lazySpec(moduleUrl, relativePath)();
}

/**
 * Like `loadSpec`, but only the file's text is read at module load; it is parsed on the first
 * call (pure, so a handler may call it). For large specs: world start does not pay for parsing.
 */
export function lazySpec(moduleUrl: string, relativePath: string): () => OpenApiDocument {
  const url = new URL(relativePath, sourceUrl(moduleUrl));
  const text = readFileSync(url, 'utf8');
  let spec: OpenApiDocument | undefined;
  return () => (spec ??= JSON.parse(text) as OpenApiDocument);
}
