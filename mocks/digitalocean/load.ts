import type { LoadContext } from '../core/service.js';
import { uuidId } from '../kit/ids.js';
import { defaultImages, defaultRegions, defaultSizes, type ImageDoc, type RegionDoc, type SizeDoc } from './catalogue.js';
import type { DigitalOceanDataset } from './dataset.js';
import { doTail } from './fallback.js';
import { dbOf, iso, md5, type Db, type DropletDoc } from './model.js';

const DAY = 86_400_000;

/** The fingerprint DigitalOcean shows for a public key: MD5 of the key's base64 body, as colon-separated hex. */
export function fingerprintOf(publicKey: string): string {
  return md5(publicKey.split(/\s+/)[1] ?? publicKey).match(/../g)!.join(':');
}

export function regionOf(db: Db, slug: string): RegionDoc | undefined {
  return db.regions.get(slug);
}

export function sizeOf(db: Db, slug: string): SizeDoc | undefined {
  return db.sizes.get(slug);
}

/** An image by id or slug: the catalogue's or the account's. */
export function imageOf(db: Db, ref: string | number): ImageDoc | undefined {
  const byId = db.images.get(String(ref));
  if (byId) return byId;
  return db.images.values().find((image) => image.slug !== null && image.slug === ref);
}

/** Fills the store from the dataset, once; times count back from the epoch. */
export function loadDigitalOcean(data: DigitalOceanDataset, ctx: LoadContext): void {
  const db = dbOf(ctx.store);
  const epoch = iso(ctx.epochMs);
  for (const token of data.tokens) db.tokens.put(token.token, token);
  const a = data.account;
  db.account.put('account', {
    droplet_limit: a.droplet_limit, floating_ip_limit: a.floating_ip_limit, volume_limit: a.volume_limit, email: a.email, name: a.name,
    uuid: a.uuid ?? uuidId(ctx, 'account'), email_verified: true, status: a.status, status_message: '',
    team: { uuid: uuidId(ctx, 'team'), name: a.team },
  });
  for (const region of data.regions ?? defaultRegions()) db.regions.put(region.slug, region);
  for (const size of data.sizes ?? defaultSizes()) db.sizes.put(size.slug, size);
  for (const image of defaultImages(iso(ctx.epochMs - 400 * DAY))) db.images.put(String(image.id), image);
  for (const image of data.images) {
    db.images.put(String(image.id), { ...image, slug: null, public: false, created_at: image.created_at ?? iso(ctx.epochMs - 30 * DAY), status: 'available', error_message: '' });
    ctx.ids.reserve('image', image.id);
  }
  const tagNames = new Set(data.tags);
  const defaultVpc: Record<string, string> = {};
  for (const d of data.droplets) {
    const size = sizeOf(db, d.size);
    const region = regionOf(db, d.region);
    const image = imageOf(db, d.image);
    if (!size || !region || !image) throw new Error(`digitalocean dataset: droplet ${d.name} names an unknown size, region or image`);
    d.tags.forEach((t) => tagNames.add(t));
    const created = d.created_at ?? iso(ctx.epochMs - 90 * DAY);
    const droplet: DropletDoc = {
      id: d.id, name: d.name, memory: size.memory, vcpus: size.vcpus, disk: size.disk, locked: d.locked, status: d.status, kernel: null,
      created_at: created, features: [...(d.backups ? ['backups'] : []), ...(d.ipv6 ? ['ipv6'] : []), ...(d.monitoring ? ['monitoring'] : []), 'private_networking'],
      backup_ids: [], next_backup_window: d.backups ? { start: iso(ctx.epochMs + DAY), end: iso(ctx.epochMs + DAY + 3_600_000) } : null,
      snapshot_ids: d.snapshot_ids, image, volume_ids: d.volume_ids, size, size_slug: size.slug,
      networks: {
        v4: [
          { ip_address: d.public_ipv4, netmask: '255.255.240.0', gateway: d.public_ipv4.replace(/\.\d+$/, '.1'), type: 'public' },
          ...(d.private_ipv4 ? [{ ip_address: d.private_ipv4, netmask: '255.255.240.0', gateway: d.private_ipv4.replace(/\.\d+$/, '.1'), type: 'private' as const }] : []),
        ],
        v6: [],
      },
      region, tags: d.tags, vpc_uuid: d.vpc_uuid ?? (defaultVpc[d.region] ??= uuidId(ctx, `vpc:${d.region}`)),
    };
    db.droplets.put(d.id, droplet);
    ctx.ids.reserve('droplet', d.id);
  }
  for (const v of data.volumes) {
    v.tags.forEach((t) => tagNames.add(t));
    const region = regionOf(db, v.region);
    if (!region) throw new Error(`digitalocean dataset: volume ${v.name} names an unknown region ${v.region}`);
    const id = v.id ?? uuidId(ctx, 'volume');
    db.volumes.put(id, {
      id, name: v.name, description: v.description, size_gigabytes: v.size_gigabytes, region, droplet_ids: v.droplet_ids,
      created_at: v.created_at ?? iso(ctx.epochMs - 60 * DAY), filesystem_type: v.filesystem_type, filesystem_label: v.filesystem_label, tags: v.tags,
    });
  }
  for (const domain of data.domains) {
    db.domains.put(domain.name, { name: domain.name, ttl: domain.ttl, zone_file: '' });
    for (const r of domain.records) {
      db.records.put(r.id, { ...r, domain: domain.name });
      ctx.ids.reserve('record', r.id);
    }
  }
  for (const f of data.firewalls) {
    f.tags.forEach((t) => tagNames.add(t));
    const id = f.id ?? uuidId(ctx, 'firewall');
    db.firewalls.put(id, {
      id, name: f.name, status: 'succeeded', created_at: f.created_at ?? iso(ctx.epochMs - 45 * DAY), pending_changes: [],
      inbound_rules: f.inbound_rules, outbound_rules: f.outbound_rules, droplet_ids: f.droplet_ids, tags: f.tags,
    });
  }
  for (const name of [...tagNames].sort()) db.tags.put(name, { name });
  for (const k of data.ssh_keys) {
    db.keys.put(k.id, { id: k.id, name: k.name, public_key: k.public_key, fingerprint: k.fingerprint ?? fingerprintOf(k.public_key) });
    ctx.ids.reserve('ssh_key', k.id);
  }
  const account = db.account.get('account')!;
  const projects = data.projects.length > 0 ? data.projects : [{ name: 'first-project', description: 'Update your project information under Settings', purpose: 'Operational / Developer tooling', environment: 'Development' as const, is_default: true, resources: [] as string[] }];
  for (const p of projects) {
    const id = ('id' in p && p.id) || uuidId(ctx, 'project');
    const created = ('created_at' in p && p.created_at) || iso(ctx.epochMs - 200 * DAY);
    db.projects.put(id, {
      id, owner_uuid: account.uuid, owner_id: 2805731, name: p.name, description: p.description, purpose: p.purpose, environment: p.environment,
      created_at: created, updated_at: created, is_default: p.is_default,
    });
    for (const urn of p.resources) db.project_resources.put(urn, { project_id: id, urn, assigned_at: created, status: 'ok' });
  }
  doTail.seedRecords(data.spec, ctx);
}
