import { createHash } from 'node:crypto';
import { z } from 'zod';
import { emptyResponse, jsonResponse } from '../core/http.js';
import type { ServiceContext } from '../core/service.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import type { DoCtx } from './context.js';
import { imageOf, regionOf, sizeOf } from './load.js';
import { badRequest, iso, nextId, notFound, one, ORIGIN, pageOf, unprocessable, type ActionDoc, type Db, type DropletDoc } from './model.js';

/**
 * Droplets and their actions. An action is answered `in-progress` and completes on the logical
 * clock (`settleActions`, before every request): its effect on the Droplet (size, power state,
 * name, snapshot) is applied when it is accepted, as the API shows the target state as soon as the
 * event is queued for the cases modelled here.
 */

/** Logical seconds each action type takes to complete. */
const DURATION_S: Record<string, number> = {
  create: 30, resize: 60, snapshot: 120, power_off: 5, shutdown: 10, power_on: 5, reboot: 10, power_cycle: 10, rebuild: 60, restore: 60,
  destroy: 5, attach: 5, detach: 5,
};

type Stored = ActionDoc & { completes_at: number };

export function renderAction(a: Stored): ActionDoc {
  const { completes_at: _c, ...out } = a;
  return out;
}

/** A new action on a resource, `in-progress` until its duration has passed on the logical clock. */
export function newAction(db: Db, ctx: ServiceContext, type: string, resource: { id: number | null; type: string; region: DropletDoc['region'] | null }): ActionDoc {
  const id = nextId(ctx, 'action');
  const action: Stored = {
    id, status: 'in-progress', type, started_at: iso(ctx.nowMs), completed_at: null, resource_id: resource.id, resource_type: resource.type,
    region: resource.region, region_slug: resource.region?.slug ?? null, completes_at: ctx.nowMs + (DURATION_S[type] ?? 5) * 1000,
  };
  db.actions.put(id, action);
  return renderAction(action);
}

/** Completes every action whose time has come; a created Droplet becomes `active`. */
export function settleActions(db: Db, nowMs: number): void {
  for (const a of db.actions.values()) {
    if (a.status !== 'in-progress' || a.completes_at > nowMs) continue;
    db.actions.put(a.id, { ...a, status: 'completed', completed_at: iso(a.completes_at) });
    if (a.type === 'create' && a.resource_type === 'droplet' && a.resource_id !== null) {
      const d = db.droplets.get(a.resource_id);
      if (d && d.status === 'new') db.droplets.put(d.id, { ...d, status: 'active' });
    }
  }
}

export function dropletOf(db: Db, raw: string): DropletDoc {
  if (!/^\d+$/.test(raw)) throw notFound();
  const d = db.droplets.get(Number(raw));
  if (!d) throw notFound();
  return d;
}

/** A public address for a new Droplet, from its id (164.90.0.0/16, as DigitalOcean's blocks look). */
function publicIpv4(id: number): string {
  const h = createHash('sha256').update(`droplet:${id}`).digest();
  return `164.90.${h[0]! % 250 + 1}.${h[1]! % 250 + 2}`;
}

const Create = z.object({
  name: z.string().min(1).optional(),
  names: z.array(z.string().min(1)).min(1).max(10).optional(),
  region: z.string().optional(),
  size: z.string(),
  image: z.union([z.string(), z.number().int()]),
  ssh_keys: z.array(z.union([z.string(), z.number()])).nullable().optional(),
  backups: z.boolean().nullable().optional(),
  ipv6: z.boolean().nullable().optional(),
  monitoring: z.boolean().nullable().optional(),
  private_networking: z.boolean().nullable().optional(),
  tags: z.array(z.string()).nullable().optional(),
  user_data: z.string().nullable().optional(),
  vpc_uuid: z.string().nullable().optional(),
  volumes: z.array(z.string()).nullable().optional(),
  with_droplet_agent: z.boolean().nullable().optional(),
  backup_policy: z.record(z.unknown()).nullable().optional(),
}).passthrough();

const ListQuery = z.object({ tag_name: z.string().optional(), name: z.string().optional(), type: z.enum(['droplets', 'gpus']).optional() }).passthrough();

const ActionBody = z.object({
  type: z.string(),
  size: z.string().optional(),
  disk: z.boolean().optional(),
  name: z.string().optional(),
  image: z.union([z.string(), z.number()]).optional(),
  kernel: z.number().optional(),
}).passthrough();

/** Applies one action to a Droplet (checks first, then writes); returns the action. */
function act(c: DoCtx, droplet: DropletDoc, body: z.infer<typeof ActionBody>): ActionDoc {
  const { db, ctx } = c;
  let d = droplet;
  switch (body.type) {
    case 'resize': {
      const size = body.size ? sizeOf(db, body.size) : undefined;
      if (!size) throw unprocessable('You specified an invalid size for Droplet creation.');
      if (d.status === 'active') throw unprocessable('Droplet is currently on. Please power it off to run this event.');
      if (size.slug === d.size_slug) throw unprocessable('Droplet is already this size.');
      if (!body.disk && size.disk < d.disk) throw unprocessable('This size is not available because it has a smaller disk.');
      d = { ...d, size, size_slug: size.slug, memory: size.memory, vcpus: size.vcpus, disk: body.disk ? size.disk : d.disk };
      break;
    }
    case 'power_off':
    case 'shutdown':
      if (d.status === 'off') throw unprocessable('Droplet is already powered off.');
      d = { ...d, status: 'off' };
      break;
    case 'power_on':
      if (d.status === 'active') throw unprocessable('Droplet is already powered on.');
      d = { ...d, status: 'active' };
      break;
    case 'reboot':
    case 'power_cycle':
      d = { ...d, status: 'active' };
      break;
    case 'rename':
      if (!body.name) throw unprocessable('Name is required.');
      d = { ...d, name: body.name };
      break;
    case 'snapshot': {
      const id = nextId(ctx, 'image');
      const name = body.name ?? `${d.name}-${ctx.nowMs}`;
      db.images.put(String(id), {
        id, name, type: 'snapshot', distribution: d.image.distribution, slug: null, public: false, regions: [d.region.slug], created_at: iso(ctx.nowMs),
        min_disk_size: d.disk, size_gigabytes: Math.round(d.disk * 0.1 * 100) / 100, description: '', tags: [], status: 'available', error_message: '',
      });
      d = { ...d, snapshot_ids: [...d.snapshot_ids, id] };
      break;
    }
    case 'enable_backups':
      d = { ...d, features: [...new Set([...d.features, 'backups'])], next_backup_window: { start: iso(ctx.nowMs + 86_400_000), end: iso(ctx.nowMs + 90_000_000) } };
      break;
    case 'disable_backups':
      d = { ...d, features: d.features.filter((f) => f !== 'backups'), next_backup_window: null };
      break;
    case 'enable_ipv6':
      d = { ...d, features: [...new Set([...d.features, 'ipv6'])] };
      break;
    case 'enable_private_networking':
      d = { ...d, features: [...new Set([...d.features, 'private_networking'])] };
      break;
    case 'rebuild':
    case 'restore': {
      const image = body.image === undefined ? undefined : imageOf(db, body.image);
      if (!image) throw unprocessable('You specified an invalid image for Droplet creation.');
      if (body.type === 'rebuild') d = { ...d, image };
      break;
    }
    case 'password_reset':
    case 'change_kernel':
    case 'change_backup_policy':
      break;
    default:
      throw unprocessable(`${body.type} is not a valid action type.`);
  }
  if (d !== droplet) db.droplets.put(d.id, d);
  return newAction(db, ctx, body.type, { id: d.id, type: 'droplet', region: d.region });
}

const withTag = (db: Db, tag: string) => db.droplets.values().filter((d) => d.tags.includes(tag));

export const dropletOperations: Operation<DoCtx>[] = [
  operation<DoCtx, '/v2/droplets', z.infer<typeof ListQuery>>('droplets_list', rest('GET', '/v2/droplets'), (call, c) => {
    const q = call.query;
    if (q.tag_name !== undefined && q.name !== undefined) throw badRequest('You may only filter by one of tag_name or name.');
    const items = c.db.droplets.values()
      .filter((d) => q.tag_name === undefined || d.tags.includes(q.tag_name))
      .filter((d) => q.name === undefined || d.name === q.name)
      .filter((d) => q.type !== 'gpus' || d.size_slug.startsWith('gpu-'))
      .sort((a, b) => a.id - b.id);
    const extra = Object.fromEntries(['tag_name', 'name', 'type'].flatMap((k) => { const v = one(call.query as Record<string, string>, k); return v === undefined ? [] : [[k, v]]; }));
    return jsonResponse(200, pageOf(items, 'droplets', '/v2/droplets', call.query as Record<string, string>, extra));
  }, { input: { query: ListQuery } }),

  operation<DoCtx, '/v2/droplets/:droplet_id'>('droplets_get', rest('GET', '/v2/droplets/:droplet_id'), (call, c) =>
    jsonResponse(200, { droplet: dropletOf(c.db, call.params.droplet_id) })),

  operation<DoCtx, '/v2/droplets', Record<string, string>, z.infer<typeof Create>>('droplets_create', rest('POST', '/v2/droplets'), (call, c) => {
    const b = call.body;
    const names = b.names ?? (b.name ? [b.name] : []);
    if (names.length === 0) throw unprocessable('Name is required.');
    if (b.name && b.names) throw unprocessable('You may only specify one of name or names.');
    for (const name of names) if (!/^[a-zA-Z0-9.-]+$/.test(name)) throw unprocessable('Only valid hostname characters are allowed. (a-z, A-Z, 0-9, . and -)');
    const size = sizeOf(c.db, b.size);
    if (!size) throw unprocessable('You specified an invalid size for Droplet creation.');
    const image = imageOf(c.db, b.image);
    if (!image) throw unprocessable('You specified an invalid image for Droplet creation.');
    const region = regionOf(c.db, b.region ?? 'nyc3');
    if (!region) throw unprocessable('You specified an invalid region for Droplet creation.');
    const account = c.db.account.get('account')!;
    if (c.db.droplets.values().length + names.length > account.droplet_limit) throw unprocessable(`creating this/these droplet(s) will exceed your droplet limit`);
    const tags = b.tags ?? [];
    for (const tag of tags) if (!c.db.tags.has(tag)) c.db.tags.put(tag, { name: tag });
    const vpc = b.vpc_uuid ?? c.db.droplets.values().find((d) => d.region.slug === region.slug)?.vpc_uuid ?? '00000000-0000-4000-8000-000000000000';
    const made: DropletDoc[] = [];
    const actions: { id: number; rel: string; href: string }[] = [];
    for (const name of names) {
      const id = nextId(c.ctx, 'droplet');
      const droplet: DropletDoc = {
        id, name, memory: size.memory, vcpus: size.vcpus, disk: size.disk, locked: false, status: 'new', kernel: null, created_at: iso(c.ctx.nowMs),
        features: [...(b.backups ? ['backups'] : []), ...(b.ipv6 ? ['ipv6'] : []), ...(b.monitoring ? ['monitoring'] : []), 'private_networking'],
        backup_ids: [], next_backup_window: null, snapshot_ids: [], image, volume_ids: b.volumes ?? [], size, size_slug: size.slug,
        networks: { v4: [{ ip_address: publicIpv4(id), netmask: '255.255.240.0', gateway: publicIpv4(id).replace(/\.\d+$/, '.1'), type: 'public' }], v6: [] },
        region, tags, vpc_uuid: vpc,
      };
      c.db.droplets.put(id, droplet);
      made.push(droplet);
      const action = newAction(c.db, c.ctx, 'create', { id, type: 'droplet', region });
      actions.push({ id: action.id, rel: 'create', href: `${ORIGIN}/v2/actions/${action.id}` });
    }
    return jsonResponse(202, b.names ? { droplets: made, links: { actions } } : { droplet: made[0], links: { actions } });
  }, { input: { body: Create } }),

  operation<DoCtx, '/v2/droplets/:droplet_id'>('droplets_destroy', rest('DELETE', '/v2/droplets/:droplet_id'), (call, c) => {
    destroy(c.db, dropletOf(c.db, call.params.droplet_id));
    return emptyResponse(204);
  }),

  operation<DoCtx, '/v2/droplets', { tag_name?: string }>('droplets_destroy_byTag', rest('DELETE', '/v2/droplets'), (call, c) => {
    if (!call.query.tag_name) throw badRequest('tag_name is required');
    for (const d of withTag(c.db, call.query.tag_name)) destroy(c.db, d);
    return emptyResponse(204);
  }, { input: { query: z.object({ tag_name: z.string().optional() }).passthrough() } }),

  operation<DoCtx, '/v2/droplets/:droplet_id/actions', Record<string, string>, z.infer<typeof ActionBody>>('dropletActions_post', rest('POST', '/v2/droplets/:droplet_id/actions'), (call, c) => {
    const d = dropletOf(c.db, call.params.droplet_id);
    return jsonResponse(201, { action: act(c, d, call.body) });
  }, { input: { body: ActionBody } }),

  operation<DoCtx, '/v2/droplets/actions', { tag_name?: string }, z.infer<typeof ActionBody>>('dropletActions_post_byTag', rest('POST', '/v2/droplets/actions'), (call, c) => {
    if (!call.query.tag_name) throw badRequest('tag_name is required');
    const allowed = ['enable_backups', 'disable_backups', 'power_cycle', 'power_on', 'power_off', 'shutdown', 'enable_private_networking', 'enable_ipv6', 'snapshot'];
    if (!allowed.includes(call.body.type)) throw unprocessable(`${call.body.type} is not a valid action type for tagged Droplets.`);
    // Each Droplet in its state: the ones already in the target state are left as they are.
    const actions = withTag(c.db, call.query.tag_name).flatMap((d) => {
      if ((call.body.type === 'power_off' || call.body.type === 'shutdown') && d.status === 'off') return [];
      if (call.body.type === 'power_on' && d.status === 'active') return [];
      return [act(c, d, call.body)];
    });
    return jsonResponse(201, { actions });
  }, { input: { query: z.object({ tag_name: z.string().optional() }).passthrough(), body: ActionBody } }),

  operation<DoCtx, '/v2/droplets/:droplet_id/actions'>('dropletActions_list', rest('GET', '/v2/droplets/:droplet_id/actions'), (call, c) => {
    const d = dropletOf(c.db, call.params.droplet_id);
    const items = c.db.actions.values().filter((a) => a.resource_type === 'droplet' && a.resource_id === d.id).sort((a, b) => b.id - a.id).map(renderAction);
    return jsonResponse(200, pageOf(items, 'actions', `/v2/droplets/${d.id}/actions`, call.query));
  }),

  operation<DoCtx, '/v2/droplets/:droplet_id/actions/:action_id'>('dropletActions_get', rest('GET', '/v2/droplets/:droplet_id/actions/:action_id'), (call, c) => {
    const d = dropletOf(c.db, call.params.droplet_id);
    const a = c.db.actions.get(call.params.action_id);
    if (!a || a.resource_type !== 'droplet' || a.resource_id !== d.id) throw notFound();
    return jsonResponse(200, { action: renderAction(a) });
  }),

  operation<DoCtx, '/v2/actions'>('actions_list', rest('GET', '/v2/actions'), (call, c) => {
    const items = c.db.actions.values().sort((a, b) => b.id - a.id).map(renderAction);
    return jsonResponse(200, pageOf(items, 'actions', '/v2/actions', call.query));
  }),

  operation<DoCtx, '/v2/actions/:action_id'>('actions_get', rest('GET', '/v2/actions/:action_id'), (call, c) => {
    const a = c.db.actions.get(call.params.action_id);
    if (!a) throw notFound();
    return jsonResponse(200, { action: renderAction(a) });
  }),

  operation<DoCtx, '/v2/droplets/:droplet_id/snapshots'>('droplets_list_snapshots', rest('GET', '/v2/droplets/:droplet_id/snapshots'), (call, c) => {
    const d = dropletOf(c.db, call.params.droplet_id);
    const items = d.snapshot_ids.flatMap((id) => {
      const image = c.db.images.get(String(id));
      return image ? [{ id: image.id, name: image.name, distribution: image.distribution, slug: null, public: false, regions: image.regions, created_at: image.created_at, min_disk_size: image.min_disk_size, size_gigabytes: image.size_gigabytes, type: 'snapshot' }] : [];
    });
    return jsonResponse(200, pageOf(items, 'snapshots', `/v2/droplets/${d.id}/snapshots`, call.query));
  }),

  operation<DoCtx, '/v2/droplets/:droplet_id/firewalls'>('droplets_list_firewalls', rest('GET', '/v2/droplets/:droplet_id/firewalls'), (call, c) => {
    const d = dropletOf(c.db, call.params.droplet_id);
    const items = c.db.firewalls.values().filter((f) => f.droplet_ids.includes(d.id) || f.tags.some((t) => d.tags.includes(t)));
    return jsonResponse(200, pageOf(items, 'firewalls', `/v2/droplets/${d.id}/firewalls`, call.query));
  }),
];

/** Removes a Droplet and every reference to it (firewalls, volumes, projects); its actions stay. */
function destroy(db: Db, d: DropletDoc): void {
  db.droplets.delete(d.id);
  for (const f of db.firewalls.values()) if (f.droplet_ids.includes(d.id)) db.firewalls.put(f.id, { ...f, droplet_ids: f.droplet_ids.filter((x) => x !== d.id) });
  for (const v of db.volumes.values()) if (v.droplet_ids.includes(d.id)) db.volumes.put(v.id, { ...v, droplet_ids: v.droplet_ids.filter((x) => x !== d.id) });
  db.project_resources.delete(`do:droplet:${d.id}`);
}
