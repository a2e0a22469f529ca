import { z } from 'zod';
import { hostClashes, HostPatternError, parseHostPattern } from '../mocks/core/hosts.js';
import { ROUTER_ID } from './router/names.js';

/** Scenario groups; every service and scenario belongs to one. */
export const GroupSchema = z.enum(['search', 'code', 'ops', 'cloud', 'business', 'collab']);

/** DNS name as it appears in a TLS certificate: lower case labels, no port, no wildcard. */
const HostnameSchema = z.string().regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$/,
  'must be a lower-case DNS name such as api.github.com');

/**
 * A hostname, or a host pattern whose `{name}` placeholders each match one DNS label
 * (`{site}.atlassian.net`, `{bucket}.s3.{region}.amazonaws.com`; mocks/core/hosts.ts).
 */
const HostPatternSchema = z.string().superRefine((text, ctx) => {
  try {
    parseHostPattern(text);
  } catch (error) {
    if (!(error instanceof HostPatternError)) throw error;
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: `${error.message} (a lower-case DNS name such as api.github.com, or a pattern such as {site}.atlassian.net)` });
  }
});

export const AuthSchemeSchema = z.enum(['bearer', 'basic', 'api-key-header', 'none']);

export const ServiceEntrySchema = z.object({
  id: z.string().regex(/^[a-z][a-z0-9-]*$/, 'must be lower case letters, digits and dashes'),
  group: GroupSchema,
  description: z.string().default(''),
  hostnames: z.array(HostPatternSchema).min(1),
  /** Plain-HTTP port of `toolbench world --ports catalog`. */
  port: z.number().int().min(1).max(65535),
  auth: AuthSchemeSchema,
  /**
   * The credential its endpoints act with in a world that loads the service's baseline dataset
   * (a capture, a scenario that does not name the service): one of the baseline's tokens, as a
   * scenario would give it. Without it they get placeholders, which a server that logs in at
   * startup refuses.
   */
  baseline_credential: z.union([z.string().min(1), z.record(z.string().min(1))]).optional(),
}).strict();
export type ServiceEntry = z.infer<typeof ServiceEntrySchema>;

/** How an endpoint's server traffic reaches the proxy. */
export const ReachSchema = z.enum([
  /** Node server with hard-coded hostnames: NODE_OPTIONS preload + NODE_EXTRA_CA_CERTS. */
  'preload',
  /** The server takes a base URL from its environment (set in `env` from `{{service_url}}`). */
  'base-url',
  /** The server honours HTTPS_PROXY itself. */
  'https-proxy',
]);

/** Environment values may use `{{name}}` placeholders, filled by the supervisor (catalog/env-template.ts). */
const EnvTemplateSchema = z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name'), z.string());

/** One MCP endpoint: a real server pinned on npm (`upstream`) or one of ours (`native`). */
export const EndpointEntrySchema = z.object({
  id: z.string().regex(/^[a-z][a-z0-9-]*$/, 'must be lower case letters, digits and dashes'),
  service: z.string(),
  kind: z.enum(['upstream', 'native']),
  description: z.string().default(''),
  /** npm package and its exact version (no ranges: a benchmark pins what it measures); upstream only. */
  package: z.string().regex(/^(@[a-z0-9._-]+\/)?[a-z0-9._-]+$/, 'must be an npm package name').optional(),
  version: z.string().regex(/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/, 'must be an exact version such as 2025.4.8').optional(),
  /**
   * Command and args. `{{node}}` is this Node binary, `{{bin}}` the package's bin script,
   * `{{toolbench_root}}` toolbench's folder (for native servers).
   */
  command: z.string().default('{{node}}'),
  args: z.array(z.string()).default(['{{bin}}']),
  env: EnvTemplateSchema.default({}),
  reach: ReachSchema,
  /** Port of this endpoint's Streamable HTTP bridge. */
  bridge_port: z.number().int().min(1).max(65535),
  /**
   * The credential to start it with when no scenario gives one (`catalog capture`), for servers
   * that refuse a malformed one before listing their tools (Twilio checks its SIDs' shape); a
   * string or a table, as a scenario's. Default: `toolbench-capture-only` in every field.
   */
  capture_credential: z.union([z.string(), z.record(z.string())]).optional(),
  /**
   * Started only for scenarios that name it in their `endpoints` (a second server of a service
   * whose scenarios were written for the first, and whose credentials they do not give).
   */
  opt_in: z.boolean().default(false),
  /**
   * Safe to keep running from one trial of a `toolbench run` to the next (default false): the
   * server keeps nothing of the world in memory (no cache filled at startup, as slack-mcp-server's
   * users and channels or client-go's discovery), takes nothing per trial in its environment or
   * arguments (a `{{service_url}}` port, a kubeconfig), and is started with a credential that
   * does not change between trials. docs/trials.md says why for each endpoint.
   */
  warm_safe: z.boolean().default(false),
}).strict();
export type EndpointEntry = z.infer<typeof EndpointEntrySchema>;

/**
 * `[[noise]]`: hosts a server calls that are no API (telemetry, update checks) but must be
 * answered for it to keep running: the world answers with this canned response and journals
 * the request as `noise`, outside every count of API calls. Never forwarded anywhere.
 */
export const NoiseEntrySchema = z.object({
  id: z.string().regex(/^[a-z][a-z0-9-]*$/, 'must be lower case letters, digits and dashes'),
  description: z.string().default(''),
  hostnames: z.array(HostPatternSchema).min(1),
  status: z.number().int().min(200).max(599).default(200),
  content_type: z.string().default('application/json'),
  body: z.string().default(''),
}).strict();
export type NoiseEntry = z.infer<typeof NoiseEntrySchema>;

/**
 * `[router]`: toolbench's own MCP endpoint over all the others (`search_tools`, `call_tool`;
 * catalog/router/, docs/catalog.md). Not an `[[endpoints]]` entry: it serves no service, takes no
 * credential, calls no API and runs no server process (it is served beside the bridges, from the
 * tool snapshots); its id is always `router`.
 */
export const RouterEntrySchema = z.object({
  description: z.string().default(''),
  /** Port of its Streamable HTTP bridge. */
  bridge_port: z.number().int().min(1).max(65535),
}).strict();
export type RouterEntry = z.infer<typeof RouterEntrySchema>;

export const DEFAULT_ROUTER: RouterEntry = { description: '', bridge_port: 7100 };

export const CatalogSchema = z.object({
  services: z.array(ServiceEntrySchema).min(1),
  endpoints: z.array(EndpointEntrySchema).default([]),
  /**
   * Hosts the proxy tunnels raw (undecrypted, unjournaled) to the real internet: the model APIs
   * an agent needs. Every other host outside `services` is refused and journaled as blocked.
   */
  passthrough: z.array(HostnameSchema).default([]),
  noise: z.array(NoiseEntrySchema).default([]),
  router: RouterEntrySchema.default(DEFAULT_ROUTER),
}).strict().superRefine((catalog, ctx) => {
  const seen = { id: new Map<string, string>(), port: new Map<number, string>(), endpoint: new Map<string, string>() };
  const clash = (kind: keyof typeof seen, value: string | number, path: (string | number)[]) => {
    const map = seen[kind] as Map<string | number, string>;
    const other = map.get(value);
    const here = typeof path[1] === 'number' ? `${path[0]}[${path[1]}]` : String(path[0]);
    if (other !== undefined) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path, message: `${kind === 'endpoint' ? 'id' : kind} ${value} is already used by ${other}` });
    } else map.set(value, here);
  };
  catalog.services.forEach((service, index) => {
    clash('id', service.id, ['services', index, 'id']);
    clash('port', service.port, ['services', index, 'port']);
  });
  hostIssues(catalog, ctx);
  clash('port', catalog.router.bridge_port, ['router', 'bridge_port']);
  catalog.endpoints.forEach((endpoint, index) => {
    clash('endpoint', endpoint.id, ['endpoints', index, 'id']);
    if (endpoint.id === ROUTER_ID) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['endpoints', index, 'id'], message: `id ${ROUTER_ID} is the router's (MCP configs and qualified tool names would be ambiguous)` });
    }
    clash('port', endpoint.bridge_port, ['endpoints', index, 'bridge_port']);
    if (endpoint.kind === 'upstream' && (!endpoint.package || !endpoint.version)) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['endpoints', index, endpoint.package ? 'version' : 'package'], message: 'an upstream endpoint names its npm package and exact version' });
    }
    if (!seen.id.has(endpoint.service)) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['endpoints', index, 'service'], message: `no service "${endpoint.service}" in this catalog` });
    }
  });
});
export type Catalog = z.infer<typeof CatalogSchema>;

/**
 * Every host is claimed once: by a service, a noise entry or passthrough. The same concrete host
 * twice, or two patterns that can match one host, is an error naming both. (A concrete host under
 * a pattern is fine: it wins.) Malformed patterns were reported by their own field.
 */
function hostIssues(catalog: z.infer<typeof CatalogSchema>, ctx: z.RefinementCtx): void {
  const where: { host: string; path: (string | number)[]; owner: string }[] = [
    ...catalog.services.flatMap((service, i) => service.hostnames.map((host, h) => ({ host, path: ['services', i, 'hostnames', h], owner: `services[${i}] (${service.id})` }))),
    ...catalog.noise.flatMap((noise, i) => noise.hostnames.map((host, h) => ({ host, path: ['noise', i, 'hostnames', h], owner: `noise[${i}] (${noise.id})` }))),
    ...catalog.passthrough.map((host, i) => ({ host, path: ['passthrough', i], owner: 'passthrough' })),
  ];
  const wellFormed = where.filter(({ host }) => {
    try {
      parseHostPattern(host);
      return true;
    } catch {
      return false;
    }
  });
  for (const clash of hostClashes(wellFormed.map(({ host }) => host))) {
    const first = wellFormed[clash.first]!;
    const second = wellFormed[clash.second]!;
    const message = clash.a === clash.b
      ? `hostname ${clash.a} is already claimed by ${first.owner}; a host is mocked, answered as noise or passed through, once`
      : `host pattern ${clash.b} can match the same host as ${clash.a} of ${first.owner}; make one of them concrete or more specific`;
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: second.path, message });
  }
}
