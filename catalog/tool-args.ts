import type { ArgOverrides, JsonSchema } from '../mocks/kit/sweep-profile.js';
/**
 * Valid arguments for an MCP tool, built from its input schema (JSON Schema as the server lists
 * it): every required property, filled deterministically (an enum's first value, a number at its
 * minimum, one array item, a string from the property's name), then the caller's overrides for
 * values that must name something in the world (an owner, a repository, a channel id).
 */

/** Arguments for `tool` that its input schema accepts (as far as the schema can say). */
export function toolArguments(tool: string, inputSchema: JsonSchema, overrides: ArgOverrides = {}): Record<string, unknown> {
  const common = overrides.common ?? {};
  const own = overrides.tools?.[tool] ?? {};
  const generated = valueFor(inputSchema, tool, 0, (name) => (name in own ? { value: own[name] } : name in common ? { value: common[name] } : null));
  const args = (generated && typeof generated === 'object' && !Array.isArray(generated) ? generated : {}) as Record<string, unknown>;
  // A tool-specific override may add optional properties the generator left out.
  return { ...args, ...own };
}

type Lookup = (name: string) => { value: unknown } | null;

/** A value `schema` accepts; `name` is the property it is for (strings are made from it). */
export function valueFor(schema: JsonSchema, name: string, depth = 0, lookup: Lookup = () => null): unknown {
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if ('default' in schema && schema.default !== undefined) return schema.default;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options) && options.length > 0) {
      const concrete = (options as JsonSchema[]).find((option) => option.type !== 'null') ?? options[0];
      return valueFor(concrete as JsonSchema, name, depth, lookup);
    }
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0) {
    return valueFor(Object.assign({}, ...(schema.allOf as JsonSchema[])), name, depth, lookup);
  }
  const type = Array.isArray(schema.type) ? (schema.type as string[]).find((t) => t !== 'null') : schema.type as string | undefined;
  switch (type ?? (schema.properties ? 'object' : 'string')) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const required = new Set(Array.isArray(schema.required) ? schema.required as string[] : []);
      const out: Record<string, unknown> = {};
      for (const [key, property] of Object.entries(properties)) {
        const given = depth === 0 ? lookup(key) : null;
        if (given) out[key] = given.value;
        else if (required.has(key) && depth < 6) out[key] = valueFor(property, key, depth + 1);
      }
      return out;
    }
    case 'array': {
      const items = (Array.isArray(schema.items) ? schema.items[0] : schema.items) as JsonSchema | undefined;
      const count = Math.max(1, Number(schema.minItems ?? 1));
      return Array.from({ length: count }, () => valueFor(items ?? {}, singular(name), depth + 1));
    }
    case 'integer':
    case 'number': {
      const min = typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : 1;
      const max = typeof schema.maximum === 'number' ? schema.maximum : Infinity;
      return Math.min(Math.max(1, Math.ceil(min)), max);
    }
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return stringFor(schema, name);
  }
}

function stringFor(schema: JsonSchema, name: string): string {
  switch (schema.format) {
    case 'date-time': return '2025-01-01T00:00:00Z';
    case 'date': return '2025-01-01';
    case 'email': return 'conformance@example.com';
    case 'uri':
    case 'url': return 'https://example.com/conformance';
    case 'uuid': return '00000000-0000-4000-8000-000000000000';
  }
  let text = `conformance-${name.replace(/[^A-Za-z0-9]+/g, '-').toLowerCase()}`;
  const min = Number(schema.minLength ?? 0);
  const max = Number(schema.maxLength ?? Infinity);
  while (text.length < min) text += 'x';
  return text.slice(0, max);
}

function singular(name: string): string {
  return name.endsWith('s') ? name.slice(0, -1) : name;
}
