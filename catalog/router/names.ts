/**
 * The router's id in the catalog and in MCP configs, and the qualified tool names it speaks:
 * `<endpoint>__<tool>` (`github__create_issue`). Endpoint ids are `[a-z][a-z0-9-]*` (no
 * underscore), so the first `__` always ends the endpoint, whatever the tool's own name holds.
 */
export const ROUTER_ID = 'router';

const SEPARATOR = '__';

export function qualifiedName(endpoint: string, tool: string): string {
  return `${endpoint}${SEPARATOR}${tool}`;
}

/** The endpoint and tool of a qualified name; null when it has no `__` or an empty part. */
export function splitQualifiedName(name: string): { endpoint: string; tool: string } | null {
  const at = name.indexOf(SEPARATOR);
  if (at <= 0 || at + SEPARATOR.length >= name.length) return null;
  return { endpoint: name.slice(0, at), tool: name.slice(at + SEPARATOR.length) };
}

/**
 * The `_meta` key of a `tools/call` the router forwards to an endpoint's bridge: the bridge
 * passes it on to the endpoint, whose MCP record then says `via: "router"`.
 */
export const VIA_META_KEY = 'toolbench/via';
