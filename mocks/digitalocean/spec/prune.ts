import $RefParser from '@apidevtools/json-schema-ref-parser';
import { writeFileSync } from 'node:fs';
import { pruneSpec, stripNotes } from '../../kit/openapi.js';
import type { OpenApiDocument } from '../../kit/spec-fallback.js';

/**
 * Prunes DigitalOcean's description of its API v2 (github.com/digitalocean/openapi,
 * specification/DigitalOcean-public.v2.yaml and the YAML files it references) to what the mock
 * uses: every path of the API v2 and of the serverless inference API (`/v1/…` at
 * inference.do-ai.run; handlers take droplets, actions, sizes, regions, images, volumes, domains,
 * firewalls, tags, SSH keys, the account and projects; the spec fallback the rest), its `$ref`s
 * across files resolved in place (a schema that recurs inside itself cut to `{}` there), success responses only, without
 * prose, examples, tags, security and `x-` notes.
 * Usage: npx tsx mocks/digitalocean/spec/prune.ts CHECKOUT/specification/DigitalOcean-public.v2.yaml OUT.json
 * (docs/provenance.md).
 */
/** The dereferenced tree as plain JSON: a schema that contains itself (an agent's child agents) is `{}` where it recurs. */
function acyclic(node: unknown, ancestors: Set<object> = new Set()): unknown {
  if (!node || typeof node !== 'object') return node;
  if (ancestors.has(node)) return {};
  ancestors.add(node);
  const out = Array.isArray(node) ? node.map((item) => acyclic(item, ancestors)) : Object.fromEntries(Object.entries(node).map(([k, v]) => [k, acyclic(v, ancestors)]));
  ancestors.delete(node);
  return out;
}

const [source, out] = process.argv.slice(2);
if (!source || !out) {
  console.error('usage: prune.ts DigitalOcean-public.v2.yaml OUT.json');
  process.exit(2);
}
const spec = acyclic(await $RefParser.dereference(source)) as OpenApiDocument;
const pruned = stripNotes(pruneSpec(spec, (template) => template.startsWith('/v2/') || template.startsWith('/v1/')), ['tags', 'security']) as OpenApiDocument;
writeFileSync(out, JSON.stringify(pruned) + '\n');
const count = Object.values(pruned.paths).reduce((n, item) => n + Object.keys(item).filter((k) => ['get', 'put', 'post', 'patch', 'delete'].includes(k)).length, 0);
console.log(`${Object.keys(pruned.paths).length} paths, ${count} operations`);
