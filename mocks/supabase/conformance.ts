import { createHash } from 'node:crypto';
import type { SweepProfile } from '../kit/sweep-profile.js';

/**
 * How the conformance suite and `toolbench coverage` call all 31 tools of Supabase's MCP server
 * in the conformance world (mocks/supabase/conformance): Acme's storefront (Pro plan) and Nimbus
 * Labs' analytics project (Free). Cost confirmations are the server's own hash of the quoted
 * cost; the branch tools act on the branch the sweep creates, deleted last.
 */
const PROD = 'qzvhtkcwmfyrplxdnsoa';
const ANALYTICS = 'hxlrcudjgtwoabnqzmef';

/** The server's `hashObject`: SHA-256 of the key-sorted JSON, base64. */
function costId(cost: Record<string, unknown>): string {
  const sorted = Object.fromEntries(Object.keys(cost).sort().map((k) => [k, cost[k]]));
  return createHash('sha256').update(JSON.stringify(sorted)).digest('base64');
}

const ARGS: Record<string, Record<string, unknown>> = {
  list_organizations: {}, list_projects: {},
  get_organization: { id: 'acme-corp' },
  get_project: { id: PROD },
  get_cost: { type: 'project', organization_id: 'nimbus-labs' },
  confirm_cost: { type: 'project', recurrence: 'monthly', amount: 0 },
  create_project: { name: 'sweep-project', region: 'us-east-1', organization_id: 'nimbus-labs', confirm_cost_id: costId({ type: 'project', recurrence: 'monthly', amount: 0 }) },
  pause_project: { project_id: ANALYTICS },
  restore_project: { project_id: ANALYTICS },
  list_tables: { project_id: PROD, schemas: ['public'], verbose: true },
  list_extensions: { project_id: PROD },
  list_migrations: { project_id: PROD },
  apply_migration: { project_id: PROD, name: 'sweep_add_weight', query: 'alter table products add column if not exists weight_grams integer' },
  execute_sql: { project_id: PROD, query: "select id, status, total_cents from orders where status = 'paid' order by id limit 3" },
  query_logs: { project_id: PROD, sql: "select id, timestamp, event_message from logs where source = 'edge_logs' order by timestamp desc limit 5" },
  get_advisors: { project_id: PROD, type: 'security' },
  get_project_url: { project_id: PROD },
  get_publishable_keys: { project_id: PROD },
  generate_typescript_types: { project_id: PROD },
  list_edge_functions: { project_id: PROD },
  get_edge_function: { project_id: PROD, function_slug: 'send-order-email' },
  deploy_edge_function: { project_id: PROD, name: 'sweep-fn', entrypoint_path: 'index.ts', verify_jwt: true, files: [{ name: 'index.ts', content: "Deno.serve(() => new Response('ok'));\n" }] },
  list_storage_buckets: { project_id: PROD },
  get_storage_config: { project_id: PROD },
  update_storage_config: { project_id: PROD, config: { fileSizeLimit: 104857600, features: { imageTransformation: { enabled: true }, s3Protocol: { enabled: true } } } },
  list_branches: { project_id: PROD },
  create_branch: { project_id: PROD, name: 'sweep-branch', confirm_cost_id: costId({ type: 'branch', recurrence: 'hourly', amount: 0.01344 }) },
};

const BRANCH_TOOLS = ['rebase_branch', 'merge_branch', 'reset_branch', 'delete_branch'];

export function rank(tool: string): number {
  if (tool === 'create_branch' || tool === 'create_project' || tool === 'pause_project') return 0;
  if (tool === 'restore_project') return 2;
  if (BRANCH_TOOLS.includes(tool)) return 3 + BRANCH_TOOLS.indexOf(tool);
  return 1;
}

export const sweep: SweepProfile = {
  scenario: 'mocks/supabase/conformance',
  order: rank,
  // confirm_cost hashes locally; get_cost for a branch would too, so the sweep asks for a project's.
  offline: ['confirm_cost', 'get_project_url'],
  argsFor: (tool, state) => {
    if (BRANCH_TOOLS.includes(tool.name)) {
      const branch = Object.values(state.branches ?? {}).find((b) => (b as { name: string }).name === 'sweep-branch') as { id: string } | undefined;
      return { branch_id: branch?.id ?? 'missing' };
    }
    return ARGS[tool.name] ?? {};
  },
};
