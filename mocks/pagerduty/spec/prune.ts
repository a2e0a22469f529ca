import { readFileSync, writeFileSync } from 'node:fs';
import { pruneSpec, stripNotes } from '../../kit/openapi.js';
import type { OpenApiDocument, Schema } from '../../kit/spec-fallback.js';

/**
 * Prunes PagerDuty's REST API v2 description (PagerDuty/api-schema, reference/REST/openapiv3.json)
 * to the paths toolbench's PagerDuty MCP server and @pagerduty/pdjs tests reach, for
 * mocks/pagerduty/spec/pagerduty.json. Shared `$ref` parameters, request bodies and responses
 * are inlined (the kit's pruner keeps only component schemas); headers such as `From` and
 * `Accept`, security and tags are dropped; only success responses stay.
 * Usage: npx tsx mocks/pagerduty/spec/prune.ts SOURCE OUT (docs/provenance.md).
 */
const [source, out] = process.argv.slice(2);
if (!source || !out) {
  console.error('usage: prune.ts SOURCE OUT');
  process.exit(2);
}
const PREFIXES = [
  '/incidents', '/log_entries', '/services', '/service_dependencies/technical_services', '/escalation_policies',
  '/schedules', '/v3/schedules', '/oncalls', '/users', '/teams', '/event_orchestrations', '/alert_grouping_settings',
  '/change_events', '/incident_workflows', '/status_pages', '/analytics/metrics/incidents', '/analytics/metrics/responders', '/priorities',
];
const full = JSON.parse(readFileSync(source, 'utf8')) as OpenApiDocument & { components: Record<string, Record<string, Schema>> };
// Any shared component but a schema (responses sometimes point at request bodies).
const deref = (node: Schema | undefined, _kind: string): Schema | undefined => {
  const ref = node?.$ref;
  const m = typeof ref === 'string' ? /^#\/components\/(requestBodies|responses|parameters)\/(.+)$/.exec(ref) : null;
  return m ? deref(full.components[m[1]!]?.[m[2]!], _kind) : node;
};
for (const item of Object.values(full.paths)) {
  for (const [method, op] of Object.entries(item)) {
    if (!op || typeof op !== 'object' || Array.isArray(op)) continue;
    if (method === 'parameters') continue;
    const params = ((op.parameters ?? []) as Schema[]).map((p) => deref(p, 'parameters')!).filter((p) => p && p.in !== 'header');
    op.parameters = params;
    if (op.requestBody) op.requestBody = deref(op.requestBody, 'requestBodies');
    for (const [code, response] of Object.entries((op.responses ?? {}) as Schema)) op.responses[code] = deref(response, 'responses');
    delete op.security;
    delete op.tags;
  }
  delete (item as Schema).parameters;
}
// Inline whatever shared non-schema component is left anywhere under the paths.
const inline = (node: unknown): unknown => {
  if (Array.isArray(node)) return node.map(inline);
  if (!node || typeof node !== 'object') return node;
  const resolved = deref(node as Schema, '');
  if (resolved !== node) return inline(resolved);
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, inline(v)]));
};
full.paths = inline(full.paths) as OpenApiDocument['paths'];
// Licence, audit-record and schedule-preview paths use deep JSON-pointer $refs the kit does not resolve; no tool reaches them.
const pruned = pruneSpec(full, (template) => PREFIXES.some((p) => template === p || template.startsWith(`${p}/`)) && !/license|audit|preview/.test(template));
delete (pruned as Schema).security;
writeFileSync(out, `${JSON.stringify(stripNotes(pruned, ['examples', 'example']))}\n`);
console.log(`${Object.keys(pruned.paths).length} paths, ${Object.keys(pruned.components?.schemas ?? {}).length} schemas`);
