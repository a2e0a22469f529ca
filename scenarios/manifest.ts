import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { GroupSchema } from '../catalog/schema.js';
import { readTomlFile, TomlFileError } from '../catalog/toml-file.js';
import { ToolbenchError } from '../mocks/core/errors.js';
import { FaultRuleSchema } from '../mocks/core/fault-plan.js';
import { ExpectSchema, OracleSchema } from './expectations.js';

/** One service's credential: a string, or a table of named strings. */
export const CredentialSchema = z.union([
  z.string().min(1),
  z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a field name such as key_id'), z.string().min(1))
    .refine((table) => Object.keys(table).length > 0, 'a credential table needs at least one field'),
]);
export type Credential = z.infer<typeof CredentialSchema>;

/** `scenario.toml`: what a scenario is and how its world starts. */
export const ScenarioManifestSchema = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9/_-]*$/, 'must be lower case path-like, e.g. example/github/basic'),
  group: GroupSchema,
  description: z.string().default(''),
  /** Catalog ids of the services this scenario uses; each may have `dataset/<id>.json`. */
  services: z.array(z.string()).min(1),
  seed: z.number().int().min(0).max(2 ** 31 - 1).default(1),
  /** Logical time of the world's start, ISO 8601 with zone. */
  epoch: z.string().datetime({ offset: true }),
  /** Logical milliseconds each request advances the clock. */
  tick_ms: z.number().int().positive().default(1000),
  /**
   * The credential each service's MCP endpoint acts with, by service id: a string (a GitHub
   * token of one of the dataset's users; `{{credential}}` in the catalog's env), or a table of
   * strings for services that need several values (`aws = { key_id = "…", secret = "…" }`;
   * `{{credential.key_id}}`).
   */
  credentials: z.record(CredentialSchema).default({}),
  /**
   * The MCP endpoints to start, by catalog id, each serving one of `services`. Default: every
   * endpoint of those services except the catalog's `opt_in` ones.
   */
  endpoints: z.array(z.string().min(1)).min(1).optional(),
  expect: ExpectSchema.default({}),
  /** A trial fails when any API call bypassed MCP (`mcp_bypass > 0`), as with `record --strict`. */
  strict: z.boolean().default(false),
  oracle: OracleSchema.default({}),
  /** `[[faults]]`: the world's fault plan, before any `--chaos` preset (docs/faults.md). */
  faults: z.array(FaultRuleSchema).default([]),
}).strict();
export type ScenarioManifest = z.infer<typeof ScenarioManifestSchema>;

export function loadScenarioManifest(dir: string): ScenarioManifest {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new ToolbenchError('TB_ERR_SCENARIO', `scenario directory ${dir} does not exist`);
  }
  try {
    return readTomlFile(join(dir, 'scenario.toml'), ScenarioManifestSchema);
  } catch (error) {
    if (error instanceof TomlFileError) throw new ToolbenchError('TB_ERR_SCENARIO', `scenario ${error.message}`, { cause: error });
    throw error;
  }
}
