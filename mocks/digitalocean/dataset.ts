import { z } from 'zod';

/**
 * `dataset/digitalocean.json`: one DigitalOcean team's account. Regions, sizes and distribution
 * images default to the public catalogue (catalogue.ts). Every id the dataset leaves out is
 * seeded; numeric ids the dataset gives are reserved so new ones come after them.
 */

const Iso = z.string().datetime({ offset: true });
const Ipv4 = z.string().ip({ version: 'v4' });

const Targets = z.object({
  addresses: z.array(z.string()).optional(), droplet_ids: z.array(z.number().int()).optional(),
  load_balancer_uids: z.array(z.string()).optional(), kubernetes_ids: z.array(z.string()).optional(), tags: z.array(z.string()).optional(),
}).strict();

export const DigitalOceanDatasetSchema = z.object({
  /** Personal access tokens; `read` ones may only GET. */
  tokens: z.array(z.object({ token: z.string().min(1), scope: z.enum(['read', 'write']).default('write') }).strict()).default([]),
  account: z.object({
    email: z.string().email(), name: z.string().default(''), uuid: z.string().uuid().optional(), team: z.string().default('My Team'),
    droplet_limit: z.number().int().default(25), volume_limit: z.number().int().default(100), floating_ip_limit: z.number().int().default(3),
    status: z.enum(['active', 'warning', 'locked']).default('active'),
  }).strict().default({ email: 'owner@example.com' }),
  regions: z.array(z.object({ slug: z.string(), name: z.string(), available: z.boolean().default(true), features: z.array(z.string()).default([]), sizes: z.array(z.string()).default([]) }).strict()).optional(),
  sizes: z.array(z.object({
    slug: z.string(), memory: z.number().int(), vcpus: z.number().int(), disk: z.number().int(), transfer: z.number(),
    price_monthly: z.number(), price_hourly: z.number(), regions: z.array(z.string()), available: z.boolean().default(true), description: z.string().default('Basic'),
  }).strict()).optional(),
  /** Snapshots, backups and custom images of the account (distribution images come from the catalogue). */
  images: z.array(z.object({
    id: z.number().int(), name: z.string(), type: z.enum(['snapshot', 'backup', 'custom']).default('snapshot'), distribution: z.string().default('Ubuntu'),
    regions: z.array(z.string()).default(['nyc3']), created_at: Iso.optional(), size_gigabytes: z.number().default(2.5), min_disk_size: z.number().int().default(25),
    description: z.string().default(''), tags: z.array(z.string()).default([]),
  }).strict()).default([]),
  droplets: z.array(z.object({
    id: z.number().int().positive(),
    name: z.string().min(1),
    size: z.string().default('s-1vcpu-1gb'),
    region: z.string().default('nyc3'),
    /** A catalogue slug or an image id of `images`. */
    image: z.union([z.string(), z.number().int()]).default('ubuntu-24-04-x64'),
    status: z.enum(['new', 'active', 'off', 'archive']).default('active'),
    tags: z.array(z.string()).default([]),
    public_ipv4: Ipv4,
    private_ipv4: Ipv4.optional(),
    ipv6: z.boolean().default(false),
    backups: z.boolean().default(false),
    monitoring: z.boolean().default(true),
    volume_ids: z.array(z.string()).default([]),
    snapshot_ids: z.array(z.number().int()).default([]),
    vpc_uuid: z.string().uuid().optional(),
    created_at: Iso.optional(),
    locked: z.boolean().default(false),
  }).strict()).default([]),
  volumes: z.array(z.object({
    id: z.string().uuid().optional(), name: z.string().min(1), size_gigabytes: z.number().int().positive(), region: z.string().default('nyc3'),
    droplet_ids: z.array(z.number().int()).default([]), description: z.string().default(''), filesystem_type: z.string().default('ext4'),
    filesystem_label: z.string().default(''), tags: z.array(z.string()).default([]), created_at: Iso.optional(),
  }).strict()).default([]),
  domains: z.array(z.object({
    name: z.string().min(1), ttl: z.number().int().default(1800),
    records: z.array(z.object({
      id: z.number().int().positive(), type: z.string(), name: z.string(), data: z.string(), ttl: z.number().int().default(3600),
      priority: z.number().int().nullable().default(null), port: z.number().int().nullable().default(null), weight: z.number().int().nullable().default(null),
      flags: z.number().int().nullable().default(null), tag: z.string().nullable().default(null),
    }).strict()).default([]),
  }).strict()).default([]),
  firewalls: z.array(z.object({
    id: z.string().uuid().optional(), name: z.string().min(1), created_at: Iso.optional(),
    inbound_rules: z.array(z.object({ protocol: z.string(), ports: z.string(), sources: Targets }).strict()).default([]),
    outbound_rules: z.array(z.object({ protocol: z.string(), ports: z.string(), destinations: Targets }).strict()).default([]),
    droplet_ids: z.array(z.number().int()).default([]), tags: z.array(z.string()).default([]),
  }).strict()).default([]),
  /** Tags with no resource yet (tags on droplets and volumes exist without being listed here). */
  tags: z.array(z.string()).default([]),
  ssh_keys: z.array(z.object({ id: z.number().int().positive(), name: z.string(), public_key: z.string(), fingerprint: z.string().optional() }).strict()).default([]),
  projects: z.array(z.object({
    id: z.string().uuid().optional(), name: z.string().min(1), description: z.string().default(''), purpose: z.string().default('Web Application'),
    environment: z.enum(['Development', 'Staging', 'Production']).default('Production'), is_default: z.boolean().default(false),
    created_at: Iso.optional(),
    /** URNs of the resources in the project (`do:droplet:4521`, `do:domain:example.com`). */
    resources: z.array(z.string().regex(/^do:[a-z_]+:.+$/)).default([]),
  }).strict()).default([]),
  /** Records of the spec fallback's collections, by collection path (`/v2/reserved_ips`). */
  spec: z.record(z.array(z.record(z.unknown()))).default({}),
}).strict();

export type DigitalOceanDataset = z.infer<typeof DigitalOceanDatasetSchema>;
