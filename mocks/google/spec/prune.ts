import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pruneSpec } from '../../kit/openapi.js';
import type { OpenApiDocument } from '../../kit/spec-fallback.js';

/**
 * Prunes Google's Drive v3, Calendar v3, Slides v1, Docs v1 and Sheets v4 descriptions (the
 * APIs.guru bundle's api/googleapis.com/*.json, converted from Google's discovery documents) for
 * mocks/google/spec/: paths get their API's base path (`/drive/v3/files`, as requests carry it),
 * prose, the shared `$ref` parameters (alt, fields, key…), security and tags are dropped, and
 * only success responses stay. The spec fallback answers from drive, calendar and slides (without
 * the `:batchUpdate` custom method, which a handler owns); docs and sheets are read only by
 * test/google-sdk.test.ts to validate answers.
 * Usage: npx tsx mocks/google/spec/prune.ts SOURCE_DIR OUT_DIR (docs/provenance.md).
 */
const [source, out] = process.argv.slice(2);
if (!source || !out) {
  console.error('usage: prune.ts SOURCE_DIR OUT_DIR');
  process.exit(2);
}
type Item = Record<string, unknown> & { parameters?: { $ref?: string }[] };
const withoutSharedParameters = (spec: OpenApiDocument): OpenApiDocument => {
  const drop = (list: unknown) => (Array.isArray(list) ? list.filter((p: { $ref?: string }) => !p.$ref) : list);
  for (const item of Object.values(spec.paths) as Item[]) {
    if (item.parameters) item.parameters = drop(item.parameters) as Item['parameters'];
    for (const op of Object.values(item)) {
      if (!op || typeof op !== 'object' || Array.isArray(op)) continue;
      const o = op as Record<string, unknown>;
      if (o.parameters) o.parameters = drop(o.parameters);
      delete o.security;
      delete o.tags;
    }
  }
  const components = spec.components as Record<string, unknown> | undefined;
  delete components?.parameters;
  delete components?.securitySchemes;
  delete (spec as { security?: unknown }).security;
  return spec;
};
const apis: [name: string, base: string, keep: (template: string) => boolean][] = [
  ['drive', '/drive/v3', () => true],
  ['calendar', '/calendar/v3', () => true],
  ['slides', '', (t) => !t.includes(':')],
  ['docs', '', () => true],
  ['sheets', '', () => true],
];
for (const [name, base, keep] of apis) {
  const spec = JSON.parse(readFileSync(join(source, `${name}.json`), 'utf8')) as OpenApiDocument;
  spec.paths = Object.fromEntries(Object.entries(spec.paths).map(([template, item]) => [base + template, item]));
  if (base && spec.servers?.[0]) spec.servers = [{ url: spec.servers[0].url.slice(0, -base.length) }];
  const pruned = withoutSharedParameters(pruneSpec(spec, keep));
  writeFileSync(join(out, `${name}.json`), JSON.stringify(pruned));
  console.log(`${name}: ${Object.keys(pruned.paths).length} paths, ${JSON.stringify(pruned).length} bytes`);
}
