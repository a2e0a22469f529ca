import { z } from 'zod';

/**
 * `<scenario>/dataset/elasticsearch.json`: one Elasticsearch deployment (an Elastic Cloud
 * cluster of three nodes), its API keys and its indices with their documents. A missing file
 * parses as `{}`: an empty cluster.
 */

/** A field mapping, as `PUT /{index}` takes it (the types the mock models; others are refused). */
export type FieldMapping = {
  type?: 'text' | 'keyword' | 'long' | 'integer' | 'short' | 'byte' | 'double' | 'float' | 'half_float' | 'scaled_float' | 'boolean' | 'date' | 'ip' | 'object' | 'match_only_text' | 'wildcard' | 'constant_keyword';
  fields?: Record<string, FieldMapping>;
  properties?: Record<string, FieldMapping>;
  ignore_above?: number;
  format?: string;
  scaling_factor?: number;
  value?: string;
};

export const FieldMappingSchema: z.ZodType<FieldMapping> = z.lazy(() => z.object({
  type: z.enum(['text', 'keyword', 'long', 'integer', 'short', 'byte', 'double', 'float', 'half_float', 'scaled_float', 'boolean', 'date', 'ip', 'object', 'match_only_text', 'wildcard', 'constant_keyword']).optional(),
  fields: z.record(FieldMappingSchema).optional(),
  properties: z.record(FieldMappingSchema).optional(),
  ignore_above: z.number().int().positive().optional(),
  format: z.string().optional(),
  scaling_factor: z.number().positive().optional(),
  value: z.string().optional(),
}).strict());

export const MappingsSchema = z.object({
  dynamic: z.union([z.boolean(), z.enum(['true', 'false', 'strict'])]).optional(),
  properties: z.record(FieldMappingSchema).default({}),
}).strict();
export type Mappings = z.infer<typeof MappingsSchema>;

export const IndexSettingsSchema = z.object({
  number_of_shards: z.number().int().min(1).max(8).default(1),
  number_of_replicas: z.number().int().min(0).max(2).default(1),
}).strict();

export const ElasticsearchDatasetSchema = z.object({
  cluster: z.object({
    name: z.string().min(1).default('acme-logs'),
    /** The Elastic Cloud deployment's region, shown in node names and attributes. */
    region: z.string().default('us-east-1'),
  }).strict().default({}),
  /**
   * API keys: `encoded` is what a client sends (`Authorization: ApiKey <encoded>`, base64 of
   * `id:api_key`); `read` keys may search but not write.
   */
  api_keys: z.array(z.object({
    id: z.string().min(1),
    name: z.string().min(1),
    encoded: z.string().min(1),
    role: z.enum(['read', 'write']).default('read'),
  }).strict()).default([]),
  indices: z.array(z.object({
    name: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/, 'index names are lower case, without \\ / * ? " < > | , # : or spaces'),
    aliases: z.array(z.string().min(1)).default([]),
    settings: IndexSettingsSchema.default({}),
    /** Explicit mappings; fields the documents bring beyond them are mapped dynamically. */
    mappings: MappingsSchema.default({}),
    /** Documents in insertion order (`_id` defaults to a seeded auto ID). */
    documents: z.array(z.record(z.unknown())).default([]),
  }).strict()).default([]),
}).strict();

export type ElasticsearchDataset = z.infer<typeof ElasticsearchDatasetSchema>;
