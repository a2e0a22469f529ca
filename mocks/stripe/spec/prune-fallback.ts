import { readFileSync, writeFileSync } from 'node:fs';
import { pruneSpec, stripNotes } from '../../kit/openapi.js';
import type { OpenApiDocument } from '../../kit/spec-fallback.js';
import { billingOperations } from '../billing.js';
import { catalogOperations } from '../catalog.js';
import { customerOperations } from '../customers.js';
import { paymentOperations } from '../payments.js';

/**
 * Prunes Stripe's OpenAPI description (the APIs.guru bundle's stripe.com.json) to the long tail the
 * spec fallback answers: every /v1 path no hand-written handler routes, except file uploads
 * (files.stripe.com, multipart) and test helpers. Descriptions, examples and Stripe's `x-` notes are
 * dropped. Usage: npx tsx mocks/stripe/spec/prune-fallback.ts SOURCE.json OUT.json (docs/provenance.md).
 */
const [source, out] = process.argv.slice(2);
if (!source || !out) {
  console.error('usage: prune-fallback.ts SOURCE.json OUT.json');
  process.exit(2);
}
const handlers = [...customerOperations, ...catalogOperations, ...paymentOperations, ...billingOperations]
  .flatMap((op) => (op.matcher.kind === 'rest' ? [{ method: op.matcher.method.toLowerCase(), segments: op.matcher.pattern.split('/') }] : []));
const isParam = (segment: string) => /^\{.*\}$/.test(segment) || segment.startsWith(':');
// A handler's path: the whole path is the handler's (`/v1/customers/{customer}`).
const sameShape = (template: string) => handlers.some(({ segments }) => {
  const t = template.split('/');
  return t.length === segments.length && t.every((s, i) => (isParam(s) && isParam(segments[i]!)) || s === segments[i]);
});
// A request the handler takes first (`GET /v1/customers/search` is `customers.retrieve`'s).
const shadowed = (template: string, method: string) => handlers.some(({ method: m, segments }) => {
  const t = template.split('/');
  return m === method && t.length === segments.length && t.every((s, i) => segments[i]!.startsWith(':') || s === segments[i]);
});
const keep = (template: string) => template.startsWith('/v1/') && !sameShape(template)
  && !/^\/v1\/(files|file_links|test_helpers)(\/|$)/.test(template);

const spec = JSON.parse(readFileSync(source, 'utf8')) as OpenApiDocument;
const unshadowed: OpenApiDocument = { ...spec, paths: Object.fromEntries(Object.entries(spec.paths)
  .map(([template, item]) => [template, Object.fromEntries(Object.entries(item).filter(([method]) => !shadowed(template, method)))] as const)
  .filter(([, item]) => Object.keys(item).some((key) => ['get', 'post', 'put', 'patch', 'delete'].includes(key)))) };
const pruned = stripNotes(pruneSpec(unshadowed, keep)) as OpenApiDocument;
writeFileSync(out, JSON.stringify(pruned) + '\n');
const count = Object.values(pruned.paths).reduce((n, item) => n + Object.keys(item).length, 0);
console.log(`${Object.keys(pruned.paths).length} paths, ${count} operations, ${Object.keys(pruned.components?.schemas ?? {}).length} schemas`);
