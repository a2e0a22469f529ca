import { z } from 'zod';
import { ConfluenceDatasetSchema } from './confluence/dataset.js';
import { JiraDatasetSchema } from './jira/dataset.js';

/**
 * `dataset/atlassian.json`: one Atlassian Cloud site (`<site>.atlassian.net`), one tenant for
 * its products. The tenant part (the site, its people and their API tokens) is shared; each
 * product has its own section (`jira`; Confluence's would sit beside it). Missing parts default
 * to empty, so a missing file is an empty site.
 */
const Iso = z.string().datetime({ offset: true });

export const UserSchema = z.object({
  /** Atlassian account ID; seeded (24 hex digits) when left out. */
  account_id: z.string().regex(/^[0-9a-zA-Z:-]{6,128}$/, 'must be an Atlassian account ID such as 5b10ac8d82e05b22cc7d4ef5').optional(),
  display_name: z.string().min(1),
  email: z.string().email(),
  active: z.boolean().default(true),
  time_zone: z.string().default('Etc/UTC'),
  /** `atlassian` for people, `app` for bots and integrations. */
  account_type: z.enum(['atlassian', 'app', 'customer']).default('atlassian'),
}).strict();

/** An API token: basic auth with the account's email as the user name and the token as the password. */
export const TokenSchema = z.object({
  email: z.string().email(),
  token: z.string().min(8),
}).strict();

export const SiteSchema = z.object({
  /** The `{site}` of `{site}.atlassian.net`. */
  name: z.string().regex(/^[a-z0-9][a-z0-9-]{1,62}$/, 'must be a site name such as acme (acme.atlassian.net)').default('toolbench'),
  /** The cloud ID (a UUID) OAuth apps see; seeded when left out. */
  cloud_id: z.string().uuid().optional(),
  /** When the site was created: the default for records that give no date. */
  created: Iso.optional(),
}).strict();

export const AtlassianDatasetSchema = z.object({
  site: SiteSchema.default({}),
  users: z.array(UserSchema).default([]),
  tokens: z.array(TokenSchema).default([]),
  jira: JiraDatasetSchema.default({}),
  confluence: ConfluenceDatasetSchema.default({}),
}).strict();

export type AtlassianDataset = z.infer<typeof AtlassianDatasetSchema>;
export type UserInput = z.infer<typeof UserSchema>;
