import { readFileSync, writeFileSync } from 'node:fs';
import { pruneSpec, stripNotes } from '../../kit/openapi.js';
import type { OpenApiDocument } from '../../kit/spec-fallback.js';

/**
 * Prunes Twilio's description of the 2010-04-01 API (twilio-oai's spec/json/twilio_api_v2010.json,
 * shipped inside @twilio-alpha/mcp@0.7.0: the spec its 197 tools come from) to what the mock uses:
 * every path (handlers take Accounts, Messages, Calls and IncomingPhoneNumbers; the spec fallback
 * the rest), success responses only, without prose, examples and Twilio's `x-` notes.
 * Usage: npx tsx mocks/twilio/spec/prune.ts SOURCE.json OUT.json (docs/provenance.md).
 */
const [source, out] = process.argv.slice(2);
if (!source || !out) {
  console.error('usage: prune.ts SOURCE.json OUT.json');
  process.exit(2);
}
const spec = JSON.parse(readFileSync(source, 'utf8')) as OpenApiDocument;
const pruned = stripNotes(pruneSpec(spec, () => true), ['tags', 'security']) as OpenApiDocument;
writeFileSync(out, JSON.stringify(pruned) + '\n');
const count = Object.values(pruned.paths).reduce((n, item) => n + Object.keys(item).filter((k) => ['get', 'post', 'delete'].includes(k)).length, 0);
console.log(`${Object.keys(pruned.paths).length} paths, ${count} operations, ${Object.keys(pruned.components?.schemas ?? {}).length} schemas`);
