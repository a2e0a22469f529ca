/**
 * How the every-tool sweep calls a service's MCP servers (catalog/sweep.ts): part of what a
 * service declares (its `mocks/<service>/conformance.ts` exports `sweep`), so its types live in
 * the kit and a mock never imports the catalog.
 */

/** A JSON Schema, as a tool's input schema is. */
export type JsonSchema = { [key: string]: unknown };

export interface ArgOverrides {
  /** By property name, for every tool (`owner`, `repo`, `channel_id`). */
  readonly common?: Readonly<Record<string, unknown>>;
  /** By tool name: merged over the common ones and the generated arguments. */
  readonly tools?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

/** How to sweep one service: the world to run in and the argument values that must exist there. */
export interface SweepProfile {
  /** A scenario folder naming the service (its dataset and the endpoint's credential); relative to the toolbench folder. */
  readonly scenario: string;
  /** Values for properties that must name something in the world (see catalog/tool-args.ts). */
  readonly args?: ArgOverrides;
  /**
   * Tools to call first, in this order (a create before the reads that use it), the rest by name;
   * or a rank per tool (lower first, ties by name).
   */
  readonly order?: readonly string[] | ((tool: string) => number);
  /**
   * Arguments computed from the world as it is just before the call (ids of records earlier tools
   * created): the service's documents by collection. Replaces the generated ones when given.
   */
  readonly argsFor?: (tool: { name: string; inputSchema: JsonSchema }, state: Record<string, Record<string, unknown>>) => Record<string, unknown>;
  readonly seed?: number;
  /**
   * Tools that answer without calling the API (a local computation, a static list). Every other
   * tool must make at least one world request: a server that cannot reach the world answers
   * "failed" without one, which would otherwise pass for a tool error.
   */
  readonly offline?: readonly string[];
  /**
   * How long one tool call may take (default 30 s), for servers whose tools wait on their own
   * clock (mongodb-mcp-server's atlas-connect-cluster waits 30 s for a connection no world can give).
   */
  readonly toolTimeoutMs?: number;
  /**
   * Tools that wait that long before they answer: the test suite's normal run leaves them out of
   * its sample (they are idle lane time); its long run and `toolbench coverage` still call them.
   */
  readonly slow?: readonly string[];
}

/**
 * A value a JSON schema accepts, for sweep arguments no override names: an enum's first value, the
 * default, a number at its minimum, `sweep-<name>`; the first of `anyOf`/`oneOf` and of a type list.
 */
export function schemaExample(schema: JsonSchema, name: string, depth = 0): unknown {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  const alt = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (type === undefined && alt && alt.length > 0) return schemaExample(alt[0]!, name, depth);
  switch (type) {
    case 'number':
    case 'integer': return typeof schema.minimum === 'number' ? Math.max(1, schema.minimum) : 1;
    case 'boolean': return false;
    case 'array': return depth > 3 ? [] : [schemaExample((schema.items ?? {}) as JsonSchema, name.replace(/s$/, ''), depth + 1)];
    case 'object': {
      const out: Record<string, unknown> = {};
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      for (const k of (schema.required ?? []) as string[]) if (properties[k] && depth < 4) out[k] = schemaExample(properties[k]!, k, depth + 1);
      return out;
    }
    default: return `sweep-${name.replace(/[^A-Za-z0-9]+/g, '-').toLowerCase()}`;
  }
}
