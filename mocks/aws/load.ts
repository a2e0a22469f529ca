import type { LoadContext } from '../core/service.js';
import { slackStyleId, uuidId } from '../kit/ids.js';
import type { AwsDataset } from './dataset.js';
import { dbOf } from './model.js';
import { objectKey, etagOf } from './s3.js';
import { streamKey } from './logs.js';
import { itemKey } from './dynamodb.js';

/**
 * Fills the store from an AWS dataset. IDs the dataset leaves out are seeded in AWS's shapes:
 * `AIDA…`/`AROA…` principal ids, `r-…` reservations, a 64-hex canonical user id, UUID revision
 * and table ids. Times are the dataset's (all before the scenario's epoch).
 */
export function loadAws(data: AwsDataset, ctx: LoadContext): void {
  const db = dbOf(ctx.store);
  const account = data.account_id;
  const region = data.region;
  db.account.put('account', { account_id: account, region, canonical_id: ctx.ids.opaque('canonical', account, 64) });
  for (const cred of data.credentials) db.credentials.put(cred.access_key_id, { ...cred });
  for (const u of data.iam.users) {
    db.users.put(u.name, { name: u.name, id: u.id ?? slackStyleId(ctx, 'AIDA', 'user', 17), path: u.path, arn: `arn:aws:iam::${account}:user${u.path}${u.name}`,
      created: u.created, ...(u.password_last_used ? { password_last_used: u.password_last_used } : {}), attached_policies: u.attached_policies, tags: u.tags });
  }
  for (const r of data.iam.roles) {
    db.roles.put(r.name, { name: r.name, id: r.id ?? slackStyleId(ctx, 'AROA', 'role', 17), path: r.path, arn: `arn:aws:iam::${account}:role${r.path}${r.name}`,
      description: r.description, created: r.created, assume_role_policy: r.assume_role_policy, attached_policies: r.attached_policies, max_session_duration: r.max_session_duration, tags: r.tags });
  }
  for (const b of data.s3.buckets) {
    const { objects, policy, ...bucket } = b;
    db.buckets.put(b.name, policy === null ? bucket : { ...bucket, policy });
    for (const o of objects) {
      db.objects.put(objectKey(b.name, o.key), { bucket: b.name, key: o.key, body: o.body, content_type: o.content_type, last_modified: o.last_modified,
        etag: etagOf(o.body), size: Buffer.byteLength(o.body), storage_class: o.storage_class, tags: o.tags });
    }
  }
  for (const g of data.ec2.security_groups) {
    const ingress = g.ingress.map(({ cidrs, description, ...rule }) => ({ ...rule, ranges: cidrs.map((cidr) => (description ? { cidr, description } : { cidr })) }));
    db.security_groups.put(g.id, { ...g, ingress });
  }
  for (const i of data.ec2.instances) db.instances.put(i.id, { ...i, reservation_id: `r-${ctx.ids.opaque('reservation', i.id, 17)}` });
  for (const f of data.lambda.functions) {
    db.functions.put(f.name, { ...f, arn: `arn:aws:lambda:${region}:${account}:function:${f.name}`, revision_id: uuidId(ctx, 'revision') });
  }
  for (const g of data.logs.groups) {
    db.log_groups.put(g.name, { name: g.name, arn: `arn:aws:logs:${region}:${account}:log-group:${g.name}`, created: g.created, retention_days: g.retention_days });
    for (const s of g.streams) {
      const key = streamKey(g.name, s.name);
      const events = s.events.map((e, i) => {
        const ts = Date.parse(e.timestamp);
        const tail = BigInt(`0x${ctx.ids.opaque('event', `${key}/${i}`, 24)}`).toString().padStart(30, '0').slice(0, 30);
        return { timestamp: ts, ingestion: ts + 40, message: e.message, event_id: `${String(ts).padStart(26, '0')}${tail}` };
      });
      db.log_streams.put(key, { group: g.name, name: s.name, created: events[0]?.timestamp ?? Date.parse(g.created), events });
    }
  }
  for (const t of data.dynamodb.tables) {
    const { items, ...rest } = t;
    const table = { ...rest, arn: `arn:aws:dynamodb:${region}:${account}:table/${t.name}`, id: uuidId(ctx, 'table') };
    db.tables.put(t.name, table);
    for (const item of items) db.items.put(itemKey(table, item as never), { table: t.name, item: item as never });
  }
}
