import { z } from 'zod';

/** Scenario groups; every service and scenario belongs to one. */
export const GroupSchema = z.enum(['search', 'code', 'ops', 'cloud', 'business', 'collab']);

/** DNS name as it appears in a TLS certificate: lower case labels, no port, no wildcard. */
const HostnameSchema = z.string().regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$/,
  'must be a lower-case DNS name such as api.github.com');

export const AuthSchemeSchema = z.enum(['bearer', 'basic', 'api-key-header', 'none']);

export const ServiceEntrySchema = z.object({
  id: z.string().regex(/^[a-z][a-z0-9-]*$/, 'must be lower case letters, digits and dashes'),
  group: GroupSchema,
  description: z.string().default(''),
  hostnames: z.array(HostnameSchema).min(1),
  /** Plain-HTTP port of `toolbench world --ports catalog`. */
  port: z.number().int().min(1).max(65535),
  auth: AuthSchemeSchema,
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
}).strict();
export type EndpointEntry = z.infer<typeof EndpointEntrySchema>;

export const CatalogSchema = z.object({
  services: z.array(ServiceEntrySchema).min(1),
  endpoints: z.array(EndpointEntrySchema).default([]),
  /**
   * Hosts the proxy tunnels raw (undecrypted, unjournaled) to the real internet: the model APIs
   * an agent needs. Every other host outside `services` is refused and journaled as blocked.
   */
  passthrough: z.array(HostnameSchema).default([]),
}).strict().superRefine((catalog, ctx) => {
  const seen = { id: new Map<string, string>(), port: new Map<number, string>(), hostname: new Map<string, string>(), endpoint: new Map<string, string>() };
  const clash = (kind: keyof typeof seen, value: string | number, path: (string | number)[]) => {
    const map = seen[kind] as Map<string | number, string>;
    const other = map.get(value);
    const here = `${path[0]}[${path[1]}]`;
    if (other !== undefined) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path, message: `${kind === 'endpoint' ? 'id' : kind} ${value} is already used by ${other}` });
    } else map.set(value, here);
  };
  catalog.services.forEach((service, index) => {
    clash('id', service.id, ['services', index, 'id']);
    clash('port', service.port, ['services', index, 'port']);
    service.hostnames.forEach((hostname, h) => clash('hostname', hostname, ['services', index, 'hostnames', h]));
  });
  catalog.passthrough.forEach((hostname, index) => {
    const owner = seen.hostname.get(hostname);
    if (owner !== undefined) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['passthrough', index], message: `hostname ${hostname} is served by ${owner}; a host is either mocked or passed through` });
    }
  });
  catalog.endpoints.forEach((endpoint, index) => {
    clash('endpoint', endpoint.id, ['endpoints', index, 'id']);
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
