import { z } from 'zod';
import { jsonResponse } from '../core/http.js';
import { uuidId } from '../kit/ids.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import { canSee, projectOf, type SbCtx } from './context.js';
import { applyStatements, pgMessage } from './database.js';
import { copyTable, defaultBranch, newProject, newProjectRef } from './load.js';
import { iso, sbError, tableKey, type BranchDoc, type ProjectDoc } from './model.js';
import { PgError } from './sql-parse.js';

/**
 * Preview branches: each is a project of its own (its ref answers every project endpoint) with
 * the parent's schema and migrations but none of its rows. Merge applies the branch's new
 * migrations to the parent, push (rebase) the parent's new ones to the branch, reset rebuilds
 * the branch from the parent's schema and replays its own migrations up to a version.
 */

function renderBranch(b: BranchDoc, status = b.status) {
  return {
    id: b.id, name: b.name, project_ref: b.project_ref, parent_project_ref: b.parent_project_ref, is_default: b.is_default,
    ...(b.git_branch ? { git_branch: b.git_branch } : {}), persistent: b.persistent, status, created_at: b.created_at, updated_at: b.updated_at, with_data: b.with_data,
    preview_project_status: 'ACTIVE_HEALTHY',
  };
}

function branchOf(c: SbCtx, idOrRef: string): { key: string; branch: BranchDoc } {
  for (const [key, branch] of c.db.branches.entries()) {
    if ((branch.id === idOrRef || (!branch.is_default && branch.project_ref === idOrRef)) && canSee(c, c.db.projects.get(branch.parent_project_ref)?.organization_slug ?? '')) return { key, branch };
  }
  throw sbError(404, 'Branch not found');
}

function migrationsOf(c: SbCtx, ref: string) {
  return c.db.migrations.filter((m) => m.project === ref).sort((a, b) => a.version.localeCompare(b.version));
}

function apply(c: SbCtx, ref: string, migrations: { version: string; name: string; statements: string }[]): void {
  for (const m of migrations) {
    try {
      applyStatements(c.db, c, ref, m.statements);
    } catch (error) {
      if (error instanceof PgError) throw sbError(400, pgMessage(error, m.statements, `Failed to apply migration ${m.version}_${m.name}: `));
      throw error;
    }
    c.db.migrations.put(`${ref}/${m.version}`, { project: ref, ...m });
  }
}

/** Drops the branch database and re-copies the parent's current schema (no rows). */
function reseed(c: SbCtx, parent: ProjectDoc, branchRef: string): void {
  for (const [key, t] of c.db.tables.entries()) if (t.project === branchRef) c.db.tables.delete(key);
  for (const [key, r] of c.db.rows.entries()) if (r.project === branchRef) c.db.rows.delete(key);
  for (const [key, m] of c.db.migrations.entries()) if (m.project === branchRef) c.db.migrations.delete(key);
  for (const t of c.db.tables.filter((x) => x.project === parent.ref)) c.db.tables.put(tableKey(branchRef, t.schema, t.name), copyTable(t, branchRef));
  for (const m of migrationsOf(c, parent.ref)) c.db.migrations.put(`${branchRef}/${m.version}`, { ...m, project: branchRef });
}

const CreateBranch = z.object({
  branch_name: z.string().min(1), git_branch: z.string().optional(), persistent: z.boolean().optional(), region: z.string().optional(),
  desired_instance_size: z.string().optional(), release_channel: z.string().optional(), postgres_engine: z.string().optional(), secrets: z.record(z.string()).optional(),
  with_data: z.boolean().optional(), notify_url: z.string().optional(), is_default: z.boolean().optional(),
}).strict();
const BranchAction = z.object({ migration_version: z.string().optional() }).passthrough();

const workflow = (c: SbCtx) => ({ workflow_run_id: uuidId(c.ctx, 'workflow-run'), message: 'ok' });

export const branchOperations: Operation<SbCtx>[] = [
  operation<SbCtx, '/v1/projects/:ref/branches'>('v1-list-all-branches', rest('GET', '/v1/projects/:ref/branches'), (call, c) => {
    const project = projectOf(c, call.params.ref);
    if (!project.branching_enabled) throw sbError(422, 'Preview branching is not enabled for this project.');
    return jsonResponse(200, c.db.branches.filter((b) => b.parent_project_ref === project.ref).map((b) => renderBranch(b)));
  }),

  operation<SbCtx, '/v1/projects/:ref/branches', Record<string, string>, z.infer<typeof CreateBranch>>('v1-create-a-branch', rest('POST', '/v1/projects/:ref/branches'), (call, c) => {
    const parent = projectOf(c, call.params.ref);
    if (parent.parent_ref !== null) throw sbError(400, 'Cannot create a branch of a preview branch.');
    const org = c.db.organizations.get(parent.organization_slug)!;
    if (org.plan === 'free') throw sbError(402, 'Branching is only available on the Pro Plan and above.');
    const name = call.body.branch_name;
    if (c.db.branches.get(`${parent.ref}/${name}`)) throw sbError(409, `A branch named ${name} already exists.`);
    if (!parent.branching_enabled) {
      c.db.projects.put(parent.ref, { ...parent, branching_enabled: true });
      c.db.branches.put(`${parent.ref}/main`, defaultBranch(c.ctx, parent));
    }
    const ref = newProjectRef(c.ctx);
    c.db.projects.put(ref, { ...newProject(c.ctx, { ref, name, organization: parent.organization_slug, region: parent.region, status: 'ACTIVE_HEALTHY', createdMs: c.ctx.nowMs, parent: parent.ref }), enums: parent.enums, schemas: parent.schemas, extensions: parent.extensions });
    reseed(c, parent, ref);
    const branch: BranchDoc = {
      id: uuidId(c.ctx, 'branch'), name, project_ref: ref, parent_project_ref: parent.ref, is_default: false, git_branch: call.body.git_branch ?? null,
      persistent: call.body.persistent ?? false, status: 'FUNCTIONS_DEPLOYED', created_at: iso(c.ctx.nowMs), updated_at: iso(c.ctx.nowMs), with_data: call.body.with_data ?? false,
    };
    c.db.branches.put(`${parent.ref}/${name}`, branch);
    return jsonResponse(201, renderBranch(branch, 'CREATING_PROJECT'));
  }, { input: { body: CreateBranch } }),

  operation<SbCtx, '/v1/branches/:branch_id_or_ref'>('v1-get-a-branch-config', rest('GET', '/v1/branches/:branch_id_or_ref'), (call, c) => {
    const { branch } = branchOf(c, call.params.branch_id_or_ref);
    const project = c.db.projects.get(branch.project_ref)!;
    return jsonResponse(200, {
      ref: project.ref, postgres_version: project.db_version, postgres_engine: '15', release_channel: 'ga', status: 'ACTIVE_HEALTHY',
      db_host: `db.${project.ref}.supabase.co`, db_port: 5432, jwt_secret: undefined, is_default: branch.is_default, persistent: branch.persistent,
    });
  }),

  operation<SbCtx, '/v1/branches/:branch_id_or_ref'>('v1-delete-a-branch', rest('DELETE', '/v1/branches/:branch_id_or_ref'), (call, c) => {
    const { key, branch } = branchOf(c, call.params.branch_id_or_ref);
    if (branch.is_default) throw sbError(400, 'Cannot delete the default branch.');
    c.db.branches.delete(key);
    const project = c.db.projects.get(branch.project_ref)!;
    c.db.projects.put(project.ref, { ...project, status: 'REMOVED' });
    for (const [k, t] of c.db.tables.entries()) if (t.project === project.ref) c.db.tables.delete(k);
    for (const [k, r] of c.db.rows.entries()) if (r.project === project.ref) c.db.rows.delete(k);
    return jsonResponse(200, { message: 'ok' });
  }),

  operation<SbCtx, '/v1/branches/:branch_id_or_ref/merge', Record<string, string>, z.infer<typeof BranchAction>>('v1-merge-a-branch', rest('POST', '/v1/branches/:branch_id_or_ref/merge'), (call, c) => {
    const { key, branch } = branchOf(c, call.params.branch_id_or_ref);
    if (branch.is_default) throw sbError(400, 'Cannot merge the default branch into itself.');
    const have = new Set(migrationsOf(c, branch.parent_project_ref).map((m) => m.version));
    apply(c, branch.parent_project_ref, migrationsOf(c, branch.project_ref).filter((m) => !have.has(m.version)));
    c.db.branches.put(key, { ...branch, updated_at: iso(c.ctx.nowMs) });
    return jsonResponse(201, workflow(c));
  }, { input: { body: BranchAction } }),

  operation<SbCtx, '/v1/branches/:branch_id_or_ref/push', Record<string, string>, z.infer<typeof BranchAction>>('v1-push-a-branch', rest('POST', '/v1/branches/:branch_id_or_ref/push'), (call, c) => {
    const { key, branch } = branchOf(c, call.params.branch_id_or_ref);
    if (branch.is_default) throw sbError(400, 'Cannot push the default branch.');
    const have = new Set(migrationsOf(c, branch.project_ref).map((m) => m.version));
    apply(c, branch.project_ref, migrationsOf(c, branch.parent_project_ref).filter((m) => !have.has(m.version)));
    c.db.branches.put(key, { ...branch, updated_at: iso(c.ctx.nowMs) });
    return jsonResponse(201, workflow(c));
  }, { input: { body: BranchAction } }),

  operation<SbCtx, '/v1/branches/:branch_id_or_ref/reset', Record<string, string>, z.infer<typeof BranchAction>>('v1-reset-a-branch', rest('POST', '/v1/branches/:branch_id_or_ref/reset'), (call, c) => {
    const { key, branch } = branchOf(c, call.params.branch_id_or_ref);
    if (branch.is_default) throw sbError(400, 'Cannot reset the default branch.');
    const parent = c.db.projects.get(branch.parent_project_ref)!;
    const parentVersions = new Set(migrationsOf(c, parent.ref).map((m) => m.version));
    const target = call.body.migration_version;
    const own = migrationsOf(c, branch.project_ref).filter((m) => !parentVersions.has(m.version));
    if (target !== undefined && !own.some((m) => m.version === target) && !parentVersions.has(target)) throw sbError(400, `Migration version ${target} not found.`);
    const keep = target === undefined ? own : own.filter((m) => m.version <= target);
    const statements = keep.map(({ version, name, statements }) => ({ version, name, statements }));
    reseed(c, parent, branch.project_ref);
    apply(c, branch.project_ref, statements);
    c.db.branches.put(key, { ...branch, updated_at: iso(c.ctx.nowMs) });
    return jsonResponse(201, workflow(c));
  }, { input: { body: BranchAction } }),
];
