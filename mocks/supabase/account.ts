import { z } from 'zod';
import { emptyResponse, jsonResponse } from '../core/http.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import { canSee, projectOf, type SbCtx } from './context.js';
import { newProject, newProjectRef } from './load.js';
import { sbError, type ProjectDoc } from './model.js';

/** Organizations and projects: list, read, create, pause and restore. */

/** A new project answers COMING_UP, then ACTIVE_HEALTHY once this much logical time has passed. */
const STARTUP_MS = 5_000;

export function projectStatus(p: ProjectDoc, nowMs: number): string {
  if (p.status === 'COMING_UP' && nowMs - Date.parse(p.created_at) >= STARTUP_MS) return 'ACTIVE_HEALTHY';
  return p.status;
}

export function renderProject(p: ProjectDoc, nowMs: number, database = true) {
  return {
    id: p.ref, ref: p.ref, organization_id: p.organization_slug, organization_slug: p.organization_slug, name: p.name, region: p.region,
    created_at: p.created_at, status: projectStatus(p, nowMs),
    ...(database ? { database: { host: `db.${p.ref}.supabase.co`, version: p.db_version, postgres_engine: '15', release_channel: 'ga' } } : {}),
  };
}

const REGIONS = ['us-west-1', 'us-west-2', 'us-east-1', 'us-east-2', 'ca-central-1', 'eu-west-1', 'eu-west-2', 'eu-west-3', 'eu-central-1', 'eu-central-2', 'eu-north-1', 'ap-south-1', 'ap-southeast-1', 'ap-northeast-1', 'ap-northeast-2', 'ap-southeast-2', 'sa-east-1'] as const;

const CreateProject = z.object({
  name: z.string().min(1).max(256),
  organization_slug: z.string().optional(),
  organization_id: z.string().optional(),
  db_pass: z.string().min(1),
  region: z.enum(REGIONS).optional(),
  region_selection: z.unknown().optional(),
  plan: z.enum(['free', 'pro']).optional(),
  kps_enabled: z.boolean().optional(),
  desired_instance_size: z.string().optional(),
  template_url: z.string().optional(),
}).passthrough();

export const accountOperations: Operation<SbCtx>[] = [
  operation<SbCtx, '/v1/organizations'>('v1-list-all-organizations', rest('GET', '/v1/organizations'), (_call, c) => jsonResponse(200,
    c.db.organizations.values().filter((o) => canSee(c, o.slug)).map((o) => ({ id: o.slug, slug: o.slug, name: o.name })))),

  operation<SbCtx, '/v1/organizations/:slug'>('v1-get-an-organization', rest('GET', '/v1/organizations/:slug'), (call, c) => {
    const org = c.db.organizations.get(call.params.slug);
    if (!org || !canSee(c, org.slug)) throw sbError(404, 'Organization not found');
    return jsonResponse(200, { id: org.slug, name: org.name, plan: org.plan, opt_in_tags: org.opt_in_tags, allowed_release_channels: org.allowed_release_channels });
  }),

  operation<SbCtx, '/v1/projects'>('v1-list-all-projects', rest('GET', '/v1/projects'), (_call, c) => jsonResponse(200,
    c.db.projects.values().filter((p) => p.parent_ref === null && p.status !== 'REMOVED' && canSee(c, p.organization_slug)).map((p) => renderProject(p, c.ctx.nowMs)))),

  operation<SbCtx, '/v1/projects/:ref'>('v1-get-project', rest('GET', '/v1/projects/:ref'), (call, c) => jsonResponse(200, renderProject(projectOf(c, call.params.ref), c.ctx.nowMs))),

  operation<SbCtx, '/v1/projects', Record<string, string>, z.infer<typeof CreateProject>>('v1-create-a-project', rest('POST', '/v1/projects'), (call, c) => {
    const slug = call.body.organization_slug ?? call.body.organization_id;
    if (!slug) throw sbError(400, 'organization_slug must be provided');
    const org = c.db.organizations.get(slug);
    if (!org || !canSee(c, slug)) throw sbError(404, 'Organization not found');
    const active = c.db.projects.filter((p) => p.organization_slug === slug && p.parent_ref === null && !['INACTIVE', 'REMOVED', 'GOING_DOWN'].includes(p.status));
    if (org.plan === 'free' && active.length >= 2) {
      throw sbError(400, `The following organization members have reached their maximum limits for the number of active free projects within organizations where they are an administrator or owner: ${org.name}. Please upgrade the organization or pause an active project.`);
    }
    const ref = newProjectRef(c.ctx);
    const project = newProject(c.ctx, { ref, name: call.body.name, organization: slug, region: call.body.region ?? 'us-east-1', status: 'COMING_UP', createdMs: c.ctx.nowMs, parent: null });
    c.db.projects.put(ref, project);
    return jsonResponse(201, renderProject(project, c.ctx.nowMs, false));
  }, { input: { body: CreateProject } }),

  operation<SbCtx, '/v1/projects/:ref/pause'>('v1-pause-a-project', rest('POST', '/v1/projects/:ref/pause'), (call, c) => {
    const project = projectOf(c, call.params.ref);
    const org = c.db.organizations.get(project.organization_slug)!;
    if (org.plan !== 'free') throw sbError(400, 'Pausing is only available for projects on the Free Plan.');
    if (projectStatus(project, c.ctx.nowMs) !== 'ACTIVE_HEALTHY') throw sbError(400, `Project is not active (status: ${projectStatus(project, c.ctx.nowMs)}).`);
    c.db.projects.put(project.ref, { ...project, status: 'INACTIVE' });
    return emptyResponse(200);
  }),

  operation<SbCtx, '/v1/projects/:ref/restore'>('v1-restore-a-project', rest('POST', '/v1/projects/:ref/restore'), (call, c) => {
    const project = projectOf(c, call.params.ref);
    if (project.status !== 'INACTIVE') throw sbError(400, 'Project is not paused.');
    c.db.projects.put(project.ref, { ...project, status: 'ACTIVE_HEALTHY' });
    return emptyResponse(200);
  }),
];

