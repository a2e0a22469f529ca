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
}
