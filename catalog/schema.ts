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

export const CatalogSchema = z.object({
  services: z.array(ServiceEntrySchema).min(1),
}).strict().superRefine((catalog, ctx) => {
  const seen = { id: new Map<string, number>(), port: new Map<number, number>(), hostname: new Map<string, number>() };
  catalog.services.forEach((service, index) => {
    const clash = (kind: 'id' | 'port' | 'hostname', value: string | number, path: (string | number)[]) => {
      const map = seen[kind] as Map<string | number, number>;
      const other = map.get(value);
      if (other !== undefined) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, path, message: `${kind} ${value} is already used by services[${other}]` });
      } else map.set(value, index);
    };
    clash('id', service.id, ['services', index, 'id']);
    clash('port', service.port, ['services', index, 'port']);
    service.hostnames.forEach((hostname, h) => clash('hostname', hostname, ['services', index, 'hostnames', h]));
  });
});
export type Catalog = z.infer<typeof CatalogSchema>;
