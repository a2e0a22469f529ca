import { z } from 'zod';
import { emptyResponse, jsonResponse } from '../core/http.js';
import { uuidId } from '../kit/ids.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import type { DoCtx } from './context.js';
import { dropletOf, newAction, renderAction } from './droplets.js';
import { fingerprintOf, imageOf, regionOf } from './load.js';
import { badRequest, doError, iso, nextId, notFound, one, pageOf, unprocessable, type Db, type FirewallDoc, type RecordDoc, type Targets, type VolumeDoc } from './model.js';

/** Catalogue (sizes, regions, images), volumes, domains and records, firewalls, tags, SSH keys, the account and projects. */

const TagName = /^[a-zA-Z0-9_\-:]{1,255}$/;

function ensureTags(db: Db, tags: readonly string[]): void {
  for (const tag of tags) {
    if (!TagName.test(tag)) throw unprocessable(`tag name "${tag}" is invalid`);
    if (!db.tags.has(tag)) db.tags.put(tag, { name: tag });
  }
}

function volumeOf(db: Db, id: string): VolumeDoc {
  const v = db.volumes.get(id);
  if (!v) throw notFound();
  return v;
}

function domainOf(db: Db, name: string) {
  const d = db.domains.get(name);
  if (!d) throw notFound();
  return d;
}

/** A domain's zone file, from its records, as DigitalOcean renders it. */
function zoneFile(db: Db, name: string): string {
  const records = db.records.values().filter((r) => r.domain === name).sort((a, b) => a.id - b.id);
  const lines = records.map((r) => `${r.name === '@' ? `${name}.` : r.name}\t${r.ttl}\tIN\t${r.type}\t${r.priority !== null ? `${r.priority} ` : ''}${r.type === 'CNAME' || r.type === 'NS' || r.type === 'MX' ? (r.data === '@' ? `${name}.` : r.data.endsWith('.') ? r.data : `${r.data}.`) : r.data}`);
  return `$ORIGIN ${name}.\n$TTL 1800\n${lines.join('\n')}\n`;
}

function renderDomain(db: Db, name: string) {
  const d = domainOf(db, name);
  return { ...d, zone_file: zoneFile(db, name) };
}

const firewallOf = (db: Db, id: string): FirewallDoc => {
  const f = db.firewalls.get(id);
  if (!f) throw notFound();
  return f;
};

function renderFirewall(f: FirewallDoc) {
  return f;
}

/** The droplet ids a request names must exist (422 otherwise, as the API answers). */
function checkDroplets(db: Db, ids: readonly number[]): void {
  for (const id of ids) if (!db.droplets.has(id)) throw unprocessable(`droplet ${id} does not exist`);
}

const RecordBody = z.object({
  type: z.string().optional(), name: z.string().optional(), data: z.string().optional(), priority: z.number().int().nullable().optional(),
  port: z.number().int().nullable().optional(), ttl: z.number().int().min(30).optional(), weight: z.number().int().nullable().optional(),
  flags: z.number().int().nullable().optional(), tag: z.string().nullable().optional(),
}).passthrough();

const RECORD_TYPES = ['A', 'AAAA', 'CAA', 'CNAME', 'MX', 'NS', 'SOA', 'SRV', 'TXT'];

/** Fields a record type does not use are null, as the API shows them (clients such as godo send 0). */
function normalized<T extends Omit<RecordDoc, 'id' | 'domain'>>(r: T): T {
  return {
    ...r,
    priority: r.type === 'MX' || r.type === 'SRV' ? r.priority : null,
    port: r.type === 'SRV' ? r.port : null,
    weight: r.type === 'SRV' ? r.weight : null,
    flags: r.type === 'CAA' ? r.flags : null,
    tag: r.type === 'CAA' ? r.tag : null,
  };
}

function checkRecord(r: Omit<RecordDoc, 'id' | 'domain'>): void {
  if (!RECORD_TYPES.includes(r.type)) throw unprocessable('Type is not a valid record type');
  if (r.data === '') throw unprocessable('Data needs to be provided');
  if (r.type === 'A' && !/^(\d{1,3})(\.\d{1,3}){3}$/.test(r.data)) throw unprocessable('Data is not a valid IPv4 address');
  if ((r.type === 'MX' || r.type === 'SRV') && r.priority === null) throw unprocessable('Priority needs to be provided');
}

const Rule = z.object({ protocol: z.enum(['tcp', 'udp', 'icmp']), ports: z.string().default('0'), sources: z.record(z.unknown()).optional(), destinations: z.record(z.unknown()).optional() }).passthrough();
const FirewallBody = z.object({
  name: z.string().optional(), droplet_ids: z.array(z.number().int()).nullable().optional(), tags: z.array(z.string()).nullable().optional(),
  inbound_rules: z.array(Rule).nullable().optional(), outbound_rules: z.array(Rule).nullable().optional(),
}).passthrough();
const RulesBody = z.object({ inbound_rules: z.array(Rule).nullable().optional(), outbound_rules: z.array(Rule).nullable().optional() }).passthrough();

const sameRule = (a: { protocol: string; ports: string }, b: { protocol: string; ports: string }, x: unknown, y: unknown) =>
  a.protocol === b.protocol && (a.ports === b.ports || (a.ports === 'all' && b.ports === '0') || (a.ports === '0' && b.ports === 'all')) && JSON.stringify(x) === JSON.stringify(y);

function targets(value: Record<string, unknown> | undefined): Targets {
  const out: Targets = {};
  for (const key of ['addresses', 'droplet_ids', 'load_balancer_uids', 'kubernetes_ids', 'tags'] as const) {
    const v = value?.[key];
    if (Array.isArray(v) && v.length > 0) (out as Record<string, unknown>)[key] = v;
  }
  return out;
}

function inbound(rules: z.infer<typeof Rule>[] | null | undefined) {
  return (rules ?? []).map((r) => ({ protocol: r.protocol, ports: r.ports === 'all' ? '0' : r.ports, sources: targets(r.sources) }));
}
function outbound(rules: z.infer<typeof Rule>[] | null | undefined) {
  return (rules ?? []).map((r) => ({ protocol: r.protocol, ports: r.ports === 'all' ? '0' : r.ports, destinations: targets(r.destinations) }));
}

const ProjectBody = z.object({
  name: z.string().max(175).optional(), description: z.string().max(255).optional(), purpose: z.string().max(255).optional(),
  environment: z.enum(['Development', 'Staging', 'Production']).optional(), is_default: z.boolean().optional(),
}).passthrough();

function projectIdOf(c: DoCtx, raw: string): string {
  if (raw === 'default') return c.db.projects.values().find((p) => p.is_default)!.id;
  if (!c.db.projects.has(raw)) throw notFound();
  return raw;
}

/** A URN's resource exists (droplet, volume, domain, …); kinds this mock does not keep are taken as they come. */
function urnExists(db: Db, urn: string): boolean {
  const [, kind, id] = /^do:([a-z_]+):(.+)$/.exec(urn) ?? [];
  if (!kind || !id) return false;
  if (kind === 'droplet') return db.droplets.has(id);
  if (kind === 'volume') return db.volumes.has(id);
  if (kind === 'domain') return db.domains.has(id);
  return true;
}

function renderResource(r: { urn: string; assigned_at: string; status: string }) {
  const [, kind, id] = /^do:([a-z_]+):(.+)$/.exec(r.urn) ?? [];
  return { urn: r.urn, assigned_at: r.assigned_at, links: { self: `https://api.digitalocean.com/v2/${kind}s/${id}` }, status: r.status };
}

function patchProject(c: DoCtx, id: string, body: z.infer<typeof ProjectBody>, full: boolean) {
  const p = c.db.projects.get(id)!;
  if (full && (body.name === undefined || body.description === undefined || body.purpose === undefined || body.environment === undefined || body.is_default === undefined)) {
    throw badRequest('name, description, purpose, environment and is_default are required');
  }
  if (body.is_default === false && p.is_default) throw unprocessable('cannot unset the default project; make another project the default instead');
  if (body.is_default === true && !p.is_default) {
    for (const other of c.db.projects.values()) if (other.is_default) c.db.projects.put(other.id, { ...other, is_default: false });
  }
  const { name, description, purpose, environment, is_default } = body;
  const updated = { ...p, ...(name === undefined ? {} : { name }), ...(description === undefined ? {} : { description }), ...(purpose === undefined ? {} : { purpose }), ...(environment === undefined ? {} : { environment }), ...(is_default === undefined ? {} : { is_default }), updated_at: iso(c.ctx.nowMs) };
  c.db.projects.put(id, updated);
  return jsonResponse(200, { project: updated });
}

const VolumeActionBody = z.object({ type: z.enum(['attach', 'detach', 'resize']), droplet_id: z.number().int().optional(), size_gigabytes: z.number().int().optional(), region: z.string().optional(), volume_name: z.string().optional(), tags: z.array(z.string()).nullable().optional() }).passthrough();

function volumeAct(c: DoCtx, v: VolumeDoc, body: z.infer<typeof VolumeActionBody>) {
  let updated = v;
  if (body.type === 'attach' || body.type === 'detach') {
    if (body.droplet_id === undefined) throw unprocessable('droplet_id is required');
    const d = dropletOf(c.db, String(body.droplet_id));
    if (d.region.slug !== v.region.slug) throw unprocessable('Droplet and volume must be in the same region');
    if (body.type === 'attach') {
      if (v.droplet_ids.length > 0) throw unprocessable('This volume is already attached to a Droplet.');
      updated = { ...v, droplet_ids: [d.id] };
      c.db.droplets.put(d.id, { ...d, volume_ids: [...new Set([...d.volume_ids, v.id])] });
    } else {
      if (!v.droplet_ids.includes(d.id)) throw unprocessable('This volume is not attached to this Droplet.');
      updated = { ...v, droplet_ids: [] };
      c.db.droplets.put(d.id, { ...d, volume_ids: d.volume_ids.filter((x) => x !== v.id) });
    }
  } else {
    if (body.size_gigabytes === undefined || body.size_gigabytes <= v.size_gigabytes) throw unprocessable('The new size must be larger than the current size.');
    updated = { ...v, size_gigabytes: body.size_gigabytes };
  }
  c.db.volumes.put(v.id, updated);
  const action = newAction(c.db, c.ctx, body.type === 'resize' ? 'resize' : `${body.type}_volume`, { id: null, type: 'volume', region: v.region });
  c.db.volume_actions.put(action.id, { volume: v.id });
  return { action: { ...action } };
}


export const resourceOperations: Operation<DoCtx>[] = [
  operation<DoCtx, '/v2/sizes'>('sizes_list', rest('GET', '/v2/sizes'), (call, c) => jsonResponse(200, pageOf(c.db.sizes.values(), 'sizes', '/v2/sizes', call.query))),
  operation<DoCtx, '/v2/regions'>('regions_list', rest('GET', '/v2/regions'), (call, c) => jsonResponse(200, pageOf(c.db.regions.values(), 'regions', '/v2/regions', call.query))),

  operation<DoCtx, '/v2/images'>('images_list', rest('GET', '/v2/images'), (call, c) => {
    const type = one(call.query, 'type');
    const priv = one(call.query, 'private') === 'true';
    const tag = one(call.query, 'tag_name');
    const items = c.db.images.values()
      .filter((i) => type === undefined || (type === 'distribution' ? i.type === 'base' && i.public : type === 'application' ? false : !i.public))
      .filter((i) => !priv || !i.public)
      .filter((i) => tag === undefined || i.tags.includes(tag))
      .sort((a, b) => a.id - b.id);
    return jsonResponse(200, pageOf(items, 'images', '/v2/images', call.query, Object.fromEntries([['type', type], ['private', priv ? 'true' : undefined], ['tag_name', tag]].filter((e): e is [string, string] => e[1] !== undefined))));
  }),
  operation<DoCtx, '/v2/images/:image_id'>('images_get', rest('GET', '/v2/images/:image_id'), (call, c) => {
    const image = imageOf(c.db, /^\d+$/.test(call.params.image_id) ? Number(call.params.image_id) : call.params.image_id);
    if (!image) throw notFound();
    return jsonResponse(200, { image });
  }),
  operation<DoCtx, '/v2/images/:image_id', Record<string, string>, { name?: string; description?: string; distribution?: string }>('images_update', rest('PUT', '/v2/images/:image_id'), (call, c) => {
    const image = c.db.images.get(call.params.image_id);
    if (!image) throw notFound();
    if (image.public) throw doError(403, 'forbidden', 'You do not have access for the attempted action.');
    const updated = { ...image, ...call.body };
    c.db.images.put(String(image.id), updated);
    return jsonResponse(200, { image: updated });
  }, { input: { body: z.object({ name: z.string().optional(), description: z.string().optional(), distribution: z.string().optional() }).passthrough() } }),
  operation<DoCtx, '/v2/images/:image_id'>('images_delete', rest('DELETE', '/v2/images/:image_id'), (call, c) => {
    const image = c.db.images.get(call.params.image_id);
    if (!image) throw notFound();
    if (image.public) throw doError(403, 'forbidden', 'You do not have access for the attempted action.');
    c.db.images.delete(String(image.id));
    for (const d of c.db.droplets.values()) if (d.snapshot_ids.includes(image.id)) c.db.droplets.put(d.id, { ...d, snapshot_ids: d.snapshot_ids.filter((x) => x !== image.id) });
    return emptyResponse(204);
  }),

  // Volumes
  operation<DoCtx, '/v2/volumes'>('volumes_list', rest('GET', '/v2/volumes'), (call, c) => {
    const name = one(call.query, 'name');
    const region = one(call.query, 'region');
    const items = c.db.volumes.values().filter((v) => (name === undefined || v.name === name) && (region === undefined || v.region.slug === region));
    return jsonResponse(200, pageOf(items, 'volumes', '/v2/volumes', call.query));
  }),
  operation<DoCtx, '/v2/volumes/:volume_id'>('volumes_get', rest('GET', '/v2/volumes/:volume_id'), (call, c) => jsonResponse(200, { volume: volumeOf(c.db, call.params.volume_id) })),
  operation<DoCtx, '/v2/volumes', Record<string, string>, { name: string; size_gigabytes: number; region?: string; description?: string; filesystem_type?: string; filesystem_label?: string; tags?: string[] | null; snapshot_id?: string }>('volumes_create', rest('POST', '/v2/volumes'), (call, c) => {
    const b = call.body;
    const region = regionOf(c.db, b.region ?? '');
    if (!region) throw unprocessable('region is required');
    if (!/^[a-z0-9][a-z0-9-]{0,62}$/.test(b.name)) throw unprocessable('name must be lowercase letters, numbers and hyphens');
    if (c.db.volumes.values().some((v) => v.name === b.name && v.region.slug === region.slug)) throw doError(409, 'conflict', 'a volume with that name already exists');
    ensureTags(c.db, b.tags ?? []);
    const id = uuidId(c.ctx, 'volume');
    const volume: VolumeDoc = {
      id, name: b.name, description: b.description ?? '', size_gigabytes: b.size_gigabytes, region, droplet_ids: [], created_at: iso(c.ctx.nowMs),
      filesystem_type: b.filesystem_type ?? '', filesystem_label: b.filesystem_label ?? '', tags: b.tags ?? [],
    };
    c.db.volumes.put(id, volume);
    return jsonResponse(201, { volume });
  }, { input: { body: z.object({ name: z.string(), size_gigabytes: z.number().int().min(1).max(16384), region: z.string().optional(), description: z.string().optional(), filesystem_type: z.string().optional(), filesystem_label: z.string().optional(), tags: z.array(z.string()).nullable().optional(), snapshot_id: z.string().optional() }).passthrough() } }),
  operation<DoCtx, '/v2/volumes/:volume_id'>('volumes_delete', rest('DELETE', '/v2/volumes/:volume_id'), (call, c) => {
    const v = volumeOf(c.db, call.params.volume_id);
    if (v.droplet_ids.length > 0) throw doError(409, 'conflict', 'This volume is attached to a Droplet. Detach it first.');
    c.db.volumes.delete(v.id);
    return emptyResponse(204);
  }),
  operation<DoCtx, '/v2/volumes'>('volumes_delete_byName', rest('DELETE', '/v2/volumes'), (call, c) => {
    const name = one(call.query, 'name');
    const region = one(call.query, 'region');
    if (!name || !region) throw badRequest('name and region are required');
    const v = c.db.volumes.values().find((x) => x.name === name && x.region.slug === region);
    if (!v) throw notFound();
    if (v.droplet_ids.length > 0) throw doError(409, 'conflict', 'This volume is attached to a Droplet. Detach it first.');
    c.db.volumes.delete(v.id);
    return emptyResponse(204);
  }),
  operation<DoCtx, '/v2/volumes/:volume_id/actions', Record<string, string>, z.infer<typeof VolumeActionBody>>('volumeActions_post_byId', rest('POST', '/v2/volumes/:volume_id/actions'), (call, c) =>
    jsonResponse(202, volumeAct(c, volumeOf(c.db, call.params.volume_id), call.body)), { input: { body: VolumeActionBody } }),
  operation<DoCtx, '/v2/volumes/actions', Record<string, string>, z.infer<typeof VolumeActionBody>>('volumeActions_post', rest('POST', '/v2/volumes/actions'), (call, c) => {
    const v = c.db.volumes.values().find((x) => x.name === call.body.volume_name && x.region.slug === call.body.region);
    if (!v) throw notFound();
    return jsonResponse(202, volumeAct(c, v, call.body));
  }, { input: { body: VolumeActionBody } }),
  operation<DoCtx, '/v2/volumes/:volume_id/actions'>('volumeActions_list', rest('GET', '/v2/volumes/:volume_id/actions'), (call, c) => {
    const v = volumeOf(c.db, call.params.volume_id);
    const owners = c.db.volume_actions;
    const items = c.db.actions.values().filter((a) => owners.get(a.id)?.volume === v.id).sort((a, b) => b.id - a.id).map(renderAction);
    return jsonResponse(200, pageOf(items, 'actions', `/v2/volumes/${v.id}/actions`, call.query));
  }),
  operation<DoCtx, '/v2/volumes/:volume_id/actions/:action_id'>('volumeActions_get', rest('GET', '/v2/volumes/:volume_id/actions/:action_id'), (call, c) => {
    const v = volumeOf(c.db, call.params.volume_id);
    const a = c.db.actions.get(call.params.action_id);
    if (!a || c.db.volume_actions.get(a.id)?.volume !== v.id) throw notFound();
    return jsonResponse(200, { action: renderAction(a) });
  }),

  // Domains and records
  operation<DoCtx, '/v2/domains'>('domains_list', rest('GET', '/v2/domains'), (call, c) =>
    jsonResponse(200, pageOf(c.db.domains.values().map((d) => renderDomain(c.db, d.name)), 'domains', '/v2/domains', call.query))),
  operation<DoCtx, '/v2/domains/:domain_name'>('domains_get', rest('GET', '/v2/domains/:domain_name'), (call, c) => jsonResponse(200, { domain: renderDomain(c.db, call.params.domain_name) })),
  operation<DoCtx, '/v2/domains', Record<string, string>, { name: string; ip_address?: string }>('domains_create', rest('POST', '/v2/domains'), (call, c) => {
    const { name, ip_address } = call.body;
    if (!/^([a-z0-9-]+\.)+[a-z]{2,}$/.test(name)) throw unprocessable('Name is invalid');
    if (c.db.domains.has(name)) throw unprocessable('Name already exists');
    c.db.domains.put(name, { name, ttl: 1800, zone_file: '' });
    const add = (type: string, rname: string, data: string, ttl: number) => {
      const id = nextId(c.ctx, 'record');
      c.db.records.put(id, { id, domain: name, type, name: rname, data, priority: null, port: null, ttl, weight: null, flags: null, tag: null });
    };
    for (const ns of ['ns1.digitalocean.com', 'ns2.digitalocean.com', 'ns3.digitalocean.com']) add('NS', '@', ns, 1800);
    if (ip_address) add('A', '@', ip_address, 1800);
    return jsonResponse(201, { domain: { name, ttl: 1800, zone_file: null } });
  }, { input: { body: z.object({ name: z.string(), ip_address: z.string().optional() }).passthrough() } }),
  operation<DoCtx, '/v2/domains/:domain_name'>('domains_delete', rest('DELETE', '/v2/domains/:domain_name'), (call, c) => {
    domainOf(c.db, call.params.domain_name);
    c.db.domains.delete(call.params.domain_name);
    for (const r of c.db.records.values()) if (r.domain === call.params.domain_name) c.db.records.delete(r.id);
    c.db.project_resources.delete(`do:domain:${call.params.domain_name}`);
    return emptyResponse(204);
  }),
  operation<DoCtx, '/v2/domains/:domain_name/records'>('domains_list_records', rest('GET', '/v2/domains/:domain_name/records'), (call, c) => {
    const domain = domainOf(c.db, call.params.domain_name);
    const name = one(call.query, 'name');
    const type = one(call.query, 'type');
    // `name` is the fully qualified name (`www.example.com`; the apex is the domain itself).
    const fqdn = (r: RecordDoc) => (r.name === '@' ? domain.name : `${r.name}.${domain.name}`);
    const items = c.db.records.values().filter((r) => r.domain === domain.name && (name === undefined || fqdn(r) === name) && (type === undefined || r.type === type))
      .sort((a, b) => a.id - b.id).map(({ domain: _d, ...r }) => r);
    return jsonResponse(200, pageOf(items, 'domain_records', `/v2/domains/${domain.name}/records`, call.query, Object.fromEntries([['name', name], ['type', type]].filter((e): e is [string, string] => e[1] !== undefined))));
  }),
  operation<DoCtx, '/v2/domains/:domain_name/records/:domain_record_id'>('domains_get_record', rest('GET', '/v2/domains/:domain_name/records/:domain_record_id'), (call, c) => {
    domainOf(c.db, call.params.domain_name);
    const r = c.db.records.get(call.params.domain_record_id);
    if (!r || r.domain !== call.params.domain_name) throw notFound();
    const { domain: _d, ...out } = r;
    return jsonResponse(200, { domain_record: out });
  }),
  operation<DoCtx, '/v2/domains/:domain_name/records', Record<string, string>, z.infer<typeof RecordBody>>('domains_create_record', rest('POST', '/v2/domains/:domain_name/records'), (call, c) => {
    const domain = domainOf(c.db, call.params.domain_name);
    const b = call.body;
    const rec = normalized({ type: b.type ?? '', name: b.name ?? '', data: b.data ?? '', priority: b.priority ?? null, port: b.port ?? null, ttl: b.ttl ?? 1800, weight: b.weight ?? null, flags: b.flags ?? null, tag: b.tag ?? null });
    if (rec.name === '') throw unprocessable('Name needs to be provided');
    checkRecord(rec);
    const id = nextId(c.ctx, 'record');
    c.db.records.put(id, { id, domain: domain.name, ...rec });
    return jsonResponse(201, { domain_record: { id, ...rec } });
  }, { input: { body: RecordBody } }),
  ...(['PUT', 'PATCH'] as const).map((method) => operation<DoCtx, '/v2/domains/:domain_name/records/:domain_record_id', Record<string, string>, z.infer<typeof RecordBody>>(method === 'PUT' ? 'domains_update_record' : 'domains_patch_record', rest(method, '/v2/domains/:domain_name/records/:domain_record_id'), (call, c) => {
    domainOf(c.db, call.params.domain_name);
    const r = c.db.records.get(call.params.domain_record_id);
    if (!r || r.domain !== call.params.domain_name) throw notFound();
    const b = call.body;
    const { domain, id, ...current } = r;
    const next = normalized({ ...current, ...Object.fromEntries(Object.entries(b).filter(([k, v]) => k in current && v !== undefined)) } as typeof current);
    if (b.type !== undefined && b.type !== r.type) throw unprocessable('Type cannot be changed');
    checkRecord(next);
    c.db.records.put(id, { id, domain, ...next });
    return jsonResponse(200, { domain_record: { id, ...next } });
  }, { input: { body: RecordBody } })),
  operation<DoCtx, '/v2/domains/:domain_name/records/:domain_record_id'>('domains_delete_record', rest('DELETE', '/v2/domains/:domain_name/records/:domain_record_id'), (call, c) => {
    const r = c.db.records.get(call.params.domain_record_id);
    if (!c.db.domains.has(call.params.domain_name) || !r || r.domain !== call.params.domain_name) throw notFound();
    c.db.records.delete(r.id);
    return emptyResponse(204);
  }),

  // Firewalls
  operation<DoCtx, '/v2/firewalls'>('firewalls_list', rest('GET', '/v2/firewalls'), (call, c) => jsonResponse(200, pageOf(c.db.firewalls.values().map(renderFirewall), 'firewalls', '/v2/firewalls', call.query))),
  operation<DoCtx, '/v2/firewalls/:firewall_id'>('firewalls_get', rest('GET', '/v2/firewalls/:firewall_id'), (call, c) => jsonResponse(200, { firewall: renderFirewall(firewallOf(c.db, call.params.firewall_id)) })),
  operation<DoCtx, '/v2/firewalls', Record<string, string>, z.infer<typeof FirewallBody>>('firewalls_create', rest('POST', '/v2/firewalls'), (call, c) => {
    const b = call.body;
    if (!b.name || !/^[a-zA-Z0-9.-]{1,255}$/.test(b.name)) throw unprocessable('name: Only valid hostname characters are allowed. (a-z, A-Z, 0-9, . and -)');
    checkDroplets(c.db, b.droplet_ids ?? []);
    ensureTags(c.db, b.tags ?? []);
    const id = uuidId(c.ctx, 'firewall');
    const f: FirewallDoc = {
      id, name: b.name, status: 'succeeded', created_at: iso(c.ctx.nowMs), pending_changes: [], inbound_rules: inbound(b.inbound_rules), outbound_rules: outbound(b.outbound_rules),
      droplet_ids: b.droplet_ids ?? [], tags: b.tags ?? [],
    };
    c.db.firewalls.put(id, f);
    return jsonResponse(202, { firewall: f });
  }, { input: { body: FirewallBody } }),
  operation<DoCtx, '/v2/firewalls/:firewall_id', Record<string, string>, z.infer<typeof FirewallBody>>('firewalls_update', rest('PUT', '/v2/firewalls/:firewall_id'), (call, c) => {
    const f = firewallOf(c.db, call.params.firewall_id);
    const b = call.body;
    if (!b.name) throw unprocessable('name is required');
    checkDroplets(c.db, b.droplet_ids ?? []);
    ensureTags(c.db, b.tags ?? []);
    const updated: FirewallDoc = { ...f, name: b.name, inbound_rules: inbound(b.inbound_rules), outbound_rules: outbound(b.outbound_rules), droplet_ids: b.droplet_ids ?? [], tags: b.tags ?? [] };
    c.db.firewalls.put(f.id, updated);
    return jsonResponse(200, { firewall: updated });
  }, { input: { body: FirewallBody } }),
  operation<DoCtx, '/v2/firewalls/:firewall_id'>('firewalls_delete', rest('DELETE', '/v2/firewalls/:firewall_id'), (call, c) => {
    firewallOf(c.db, call.params.firewall_id);
    c.db.firewalls.delete(call.params.firewall_id);
    return emptyResponse(204);
  }),
  ...(['POST', 'DELETE'] as const).flatMap((method) => [
    operation<DoCtx, '/v2/firewalls/:firewall_id/droplets', Record<string, string>, { droplet_ids: number[] }>(method === 'POST' ? 'firewalls_assign_droplets' : 'firewalls_delete_droplets', rest(method, '/v2/firewalls/:firewall_id/droplets'), (call, c) => {
      const f = firewallOf(c.db, call.params.firewall_id);
      checkDroplets(c.db, call.body.droplet_ids);
      const ids = method === 'POST' ? [...new Set([...f.droplet_ids, ...call.body.droplet_ids])] : f.droplet_ids.filter((id) => !call.body.droplet_ids.includes(id));
      c.db.firewalls.put(f.id, { ...f, droplet_ids: ids });
      return emptyResponse(204);
    }, { input: { body: z.object({ droplet_ids: z.array(z.number().int()).min(1) }).passthrough() } }),
    operation<DoCtx, '/v2/firewalls/:firewall_id/tags', Record<string, string>, { tags: string[] }>(method === 'POST' ? 'firewalls_add_tags' : 'firewalls_delete_tags', rest(method, '/v2/firewalls/:firewall_id/tags'), (call, c) => {
      const f = firewallOf(c.db, call.params.firewall_id);
      if (method === 'POST') ensureTags(c.db, call.body.tags);
      const tags = method === 'POST' ? [...new Set([...f.tags, ...call.body.tags])] : f.tags.filter((t) => !call.body.tags.includes(t));
      c.db.firewalls.put(f.id, { ...f, tags });
      return emptyResponse(204);
    }, { input: { body: z.object({ tags: z.array(z.string()).min(1) }).passthrough() } }),
    operation<DoCtx, '/v2/firewalls/:firewall_id/rules', Record<string, string>, z.infer<typeof RulesBody>>(method === 'POST' ? 'firewalls_add_rules' : 'firewalls_delete_rules', rest(method, '/v2/firewalls/:firewall_id/rules'), (call, c) => {
      const f = firewallOf(c.db, call.params.firewall_id);
      const inb = inbound(call.body.inbound_rules);
      const outb = outbound(call.body.outbound_rules);
      const updated = method === 'POST'
        ? { ...f, inbound_rules: [...f.inbound_rules, ...inb.filter((r) => !f.inbound_rules.some((x) => sameRule(x, r, x.sources, r.sources)))], outbound_rules: [...f.outbound_rules, ...outb.filter((r) => !f.outbound_rules.some((x) => sameRule(x, r, x.destinations, r.destinations)))] }
        : { ...f, inbound_rules: f.inbound_rules.filter((x) => !inb.some((r) => sameRule(x, r, x.sources, r.sources))), outbound_rules: f.outbound_rules.filter((x) => !outb.some((r) => sameRule(x, r, x.destinations, r.destinations))) };
      c.db.firewalls.put(f.id, updated);
      return emptyResponse(204);
    }, { input: { body: RulesBody } }),
  ]),

  // Tags
  operation<DoCtx, '/v2/tags'>('tags_list', rest('GET', '/v2/tags'), (call, c) => jsonResponse(200, pageOf(c.db.tags.values().map((t) => renderTag(c.db, t.name)), 'tags', '/v2/tags', call.query))),
  operation<DoCtx, '/v2/tags/:tag_id'>('tags_get', rest('GET', '/v2/tags/:tag_id'), (call, c) => {
    if (!c.db.tags.has(call.params.tag_id)) throw notFound();
    return jsonResponse(200, { tag: renderTag(c.db, call.params.tag_id) });
  }),
  operation<DoCtx, '/v2/tags', Record<string, string>, { name: string }>('tags_create', rest('POST', '/v2/tags'), (call, c) => {
    ensureTags(c.db, [call.body.name]);
    return jsonResponse(201, { tag: renderTag(c.db, call.body.name) });
  }, { input: { body: z.object({ name: z.string() }).passthrough() } }),
  operation<DoCtx, '/v2/tags/:tag_id'>('tags_delete', rest('DELETE', '/v2/tags/:tag_id'), (call, c) => {
    const name = call.params.tag_id;
    if (!c.db.tags.has(name)) throw notFound();
    c.db.tags.delete(name);
    for (const d of c.db.droplets.values()) if (d.tags.includes(name)) c.db.droplets.put(d.id, { ...d, tags: d.tags.filter((t) => t !== name) });
    for (const v of c.db.volumes.values()) if (v.tags.includes(name)) c.db.volumes.put(v.id, { ...v, tags: v.tags.filter((t) => t !== name) });
    for (const f of c.db.firewalls.values()) if (f.tags.includes(name)) c.db.firewalls.put(f.id, { ...f, tags: f.tags.filter((t) => t !== name) });
    return emptyResponse(204);
  }),
  ...(['POST', 'DELETE'] as const).map((method) => operation<DoCtx, '/v2/tags/:tag_id/resources', Record<string, string>, { resources: { resource_id: string; resource_type: string }[] }>(method === 'POST' ? 'tags_assign_resources' : 'tags_unassign_resources', rest(method, '/v2/tags/:tag_id/resources'), (call, c) => {
    const name = call.params.tag_id;
    if (!c.db.tags.has(name)) throw notFound();
    for (const r of call.body.resources) {
      if (r.resource_type === 'droplet') {
        const d = c.db.droplets.get(r.resource_id);
        if (!d) throw unprocessable(`droplet ${r.resource_id} does not exist`);
        c.db.droplets.put(d.id, { ...d, tags: method === 'POST' ? [...new Set([...d.tags, name])] : d.tags.filter((t) => t !== name) });
      } else if (r.resource_type === 'volume') {
        const v = c.db.volumes.get(r.resource_id);
        if (!v) throw unprocessable(`volume ${r.resource_id} does not exist`);
        c.db.volumes.put(v.id, { ...v, tags: method === 'POST' ? [...new Set([...v.tags, name])] : v.tags.filter((t) => t !== name) });
      } else if (r.resource_type === 'image') {
        const i = c.db.images.get(r.resource_id);
        if (!i) throw unprocessable(`image ${r.resource_id} does not exist`);
        c.db.images.put(String(i.id), { ...i, tags: method === 'POST' ? [...new Set([...i.tags, name])] : i.tags.filter((t) => t !== name) });
      } else if (!['volume_snapshot', 'database'].includes(r.resource_type)) {
        throw unprocessable(`${r.resource_type} is not a taggable resource type`);
      }
    }
    return emptyResponse(204);
  }, { input: { body: z.object({ resources: z.array(z.object({ resource_id: z.coerce.string(), resource_type: z.string() }).passthrough()).min(1) }).passthrough() } })),

  // SSH keys
  operation<DoCtx, '/v2/account/keys'>('sshKeys_list', rest('GET', '/v2/account/keys'), (call, c) => jsonResponse(200, pageOf(c.db.keys.values().sort((a, b) => a.id - b.id), 'ssh_keys', '/v2/account/keys', call.query))),
  operation<DoCtx, '/v2/account/keys/:ssh_key_identifier'>('sshKeys_get', rest('GET', '/v2/account/keys/:ssh_key_identifier'), (call, c) => jsonResponse(200, { ssh_key: keyOf(c.db, call.params.ssh_key_identifier) })),
  operation<DoCtx, '/v2/account/keys', Record<string, string>, { name: string; public_key: string }>('sshKeys_create', rest('POST', '/v2/account/keys'), (call, c) => {
    const { name, public_key } = call.body;
    if (!/^(ssh-(rsa|ed25519|dss)|ecdsa-sha2-nistp\d+) [A-Za-z0-9+/=]+/.test(public_key)) throw unprocessable('Key invalid, key should be of the format `type key [comment]`');
    const fingerprint = fingerprintOf(public_key);
    if (c.db.keys.values().some((k) => k.fingerprint === fingerprint)) throw unprocessable('SSH Key is already in use on your account');
    const id = nextId(c.ctx, 'ssh_key');
    const key = { id, fingerprint, public_key, name };
    c.db.keys.put(id, key);
    return jsonResponse(201, { ssh_key: key });
  }, { input: { body: z.object({ name: z.string().min(1), public_key: z.string() }).passthrough() } }),
  operation<DoCtx, '/v2/account/keys/:ssh_key_identifier', Record<string, string>, { name?: string }>('sshKeys_update', rest('PUT', '/v2/account/keys/:ssh_key_identifier'), (call, c) => {
    const key = keyOf(c.db, call.params.ssh_key_identifier);
    const updated = { ...key, ...(call.body.name ? { name: call.body.name } : {}) };
    c.db.keys.put(key.id, updated);
    return jsonResponse(200, { ssh_key: updated });
  }, { input: { body: z.object({ name: z.string().optional() }).passthrough() } }),
  operation<DoCtx, '/v2/account/keys/:ssh_key_identifier'>('sshKeys_delete', rest('DELETE', '/v2/account/keys/:ssh_key_identifier'), (call, c) => {
    c.db.keys.delete(keyOf(c.db, call.params.ssh_key_identifier).id);
    return emptyResponse(204);
  }),

  operation<DoCtx, '/v2/account'>('account_get', rest('GET', '/v2/account'), (_call, c) => jsonResponse(200, { account: c.db.account.get('account') })),

  // Projects
  operation<DoCtx, '/v2/projects'>('projects_list', rest('GET', '/v2/projects'), (call, c) => jsonResponse(200, pageOf(c.db.projects.values(), 'projects', '/v2/projects', call.query))),
  operation<DoCtx, '/v2/projects/:project_id'>('projects_get', rest('GET', '/v2/projects/:project_id'), (call, c) => jsonResponse(200, { project: c.db.projects.get(projectIdOf(c, call.params.project_id)) })),
  operation<DoCtx, '/v2/projects', Record<string, string>, z.infer<typeof ProjectBody>>('projects_create', rest('POST', '/v2/projects'), (call, c) => {
    const b = call.body;
    if (!b.name || b.purpose === undefined) throw badRequest('name and purpose are required');
    if (c.db.projects.values().some((p) => p.name === b.name)) throw doError(409, 'conflict', 'a project with this name already exists');
    const account = c.db.account.get('account')!;
    const id = uuidId(c.ctx, 'project');
    const project = { id, owner_uuid: account.uuid, owner_id: 2805731, name: b.name, description: b.description ?? '', purpose: b.purpose, environment: b.environment ?? 'Development' as const, created_at: iso(c.ctx.nowMs), updated_at: iso(c.ctx.nowMs), is_default: false };
    c.db.projects.put(id, project);
    return jsonResponse(201, { project });
  }, { input: { body: ProjectBody } }),
  ...(['PUT', 'PATCH'] as const).map((method) => operation<DoCtx, '/v2/projects/:project_id', Record<string, string>, z.infer<typeof ProjectBody>>(method === 'PUT' ? 'projects_update' : 'projects_patch', rest(method, '/v2/projects/:project_id'), (call, c) =>
    patchProject(c, projectIdOf(c, call.params.project_id), call.body, method === 'PUT'), { input: { body: ProjectBody } })),
  operation<DoCtx, '/v2/projects/:project_id'>('projects_delete', rest('DELETE', '/v2/projects/:project_id'), (call, c) => {
    const id = projectIdOf(c, call.params.project_id);
    if (c.db.projects.get(id)!.is_default) throw unprocessable('cannot delete the default project');
    if (c.db.project_resources.values().some((r) => r.project_id === id)) throw doError(412, 'precondition_failed', 'cannot delete a project with resources. Move or remove the resources first');
    c.db.projects.delete(id);
    return emptyResponse(204);
  }),
  operation<DoCtx, '/v2/projects/:project_id/resources'>('projects_list_resources', rest('GET', '/v2/projects/:project_id/resources'), (call, c) => {
    const id = projectIdOf(c, call.params.project_id);
    const items = c.db.project_resources.values().filter((r) => r.project_id === id).map(renderResource);
    return jsonResponse(200, pageOf(items, 'resources', `/v2/projects/${call.params.project_id}/resources`, call.query));
  }),
  operation<DoCtx, '/v2/projects/:project_id/resources', Record<string, string>, { resources: string[] }>('projects_assign_resources', rest('POST', '/v2/projects/:project_id/resources'), (call, c) => {
    const id = projectIdOf(c, call.params.project_id);
    const out = call.body.resources.map((urn) => {
      if (!urnExists(c.db, urn)) throw unprocessable(`resource ${urn} does not exist`);
      const doc = { project_id: id, urn, assigned_at: iso(c.ctx.nowMs), status: 'ok' as const };
      c.db.project_resources.put(urn, doc);
      return renderResource(doc);
    });
    return jsonResponse(200, { resources: out });
  }, { input: { body: z.object({ resources: z.array(z.string().regex(/^do:[a-z_]+:.+$/)).min(1) }).passthrough() } }),
];

function keyOf(db: Db, ref: string) {
  const key = /^\d+$/.test(ref) ? db.keys.get(ref) : db.keys.values().find((k) => k.fingerprint === ref);
  if (!key) throw notFound();
  return key;
}

/** A tag with its resources' counts and the last tagged Droplet, as `GET /v2/tags` shows it. */
function renderTag(db: Db, name: string) {
  const droplets = db.droplets.values().filter((d) => d.tags.includes(name));
  const images = db.images.values().filter((i) => i.tags.includes(name));
  const volumes = db.volumes.values().filter((v) => v.tags.includes(name));
  const last = droplets.at(-1);
  return {
    name,
    resources: {
      count: droplets.length + images.length + volumes.length,
      ...(last ? { last_tagged_uri: `https://api.digitalocean.com/v2/droplets/${last.id}` } : {}),
      droplets: { count: droplets.length, ...(last ? { last_tagged_uri: `https://api.digitalocean.com/v2/droplets/${last.id}` } : {}) },
      imgages: { count: images.length },
      volumes: { count: volumes.length },
      volume_snapshots: { count: 0 },
      databases: { count: 0 },
    },
  };
}
