import { readFileSync, writeFileSync } from 'node:fs';
import { parse } from 'yaml';
import { pruneSpec, stripNotes } from '../../kit/openapi.js';
import type { OpenApiDocument, Schema } from '../../kit/spec-fallback.js';

/**
 * Prunes Exa's OpenAPI description (exa-labs/openapi-spec, exa-openapi-spec.yaml) to the paths
 * exa-mcp-server and exa-js reach (/search, /findSimilar, /contents, /answer, /research/v1), for
 * mocks/exa/spec/exa.json. The operations' `$ref` responses (`#/components/responses/…`) are
 * inlined, since the kit's pruner keeps component schemas only; code samples and examples go.
 * Usage: npx tsx mocks/exa/spec/prune.ts SOURCE.yaml OUT.json (docs/provenance.md).
 */
const [source, out] = process.argv.slice(2);
if (!source || !out) {
  console.error('usage: prune.ts SOURCE.yaml OUT.json');
  process.exit(2);
}
const KEEP = new Set(['/search', '/findSimilar', '/contents', '/answer', '/research/v1', '/research/v1/{researchId}']);
const full = parse(readFileSync(source, 'utf8')) as OpenApiDocument & { components: { responses?: Record<string, Schema> } };
const sharedResponses = full.components.responses ?? {};
for (const item of Object.values(full.paths)) {
  for (const op of Object.values(item)) {
    if (!op || typeof op !== 'object' || !op.responses) continue;
    for (const [code, response] of Object.entries(op.responses as Record<string, Schema>)) {
      const name = typeof response.$ref === 'string' ? /^#\/components\/responses\/(.+)$/.exec(response.$ref)?.[1] : undefined;
      if (name) (op.responses as Record<string, Schema>)[code] = sharedResponses[name]!;
    }
  }
}
const pruned = pruneSpec(full, (template) => KEEP.has(template));
delete (pruned as Schema).security;
writeFileSync(out, `${JSON.stringify(stripNotes(pruned), null, 1)}\n`);
console.log(`${Object.keys(pruned.paths).length} paths, ${Object.keys(pruned.components?.schemas ?? {}).length} schemas`);
