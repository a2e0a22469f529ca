import type { LoadContext } from '../core/service.js';
import { uuidId } from '../kit/ids.js';
import { iso } from './context.js';
import type { SentryDataset } from './dataset.js';
import { dbOf } from './model.js';
import { periodMs } from './search.js';

/** Sentry's short-id numbers in Crockford's base32 (no I, L, O or U): 41 is `19`, 52 is `1M`. */
export function shortCode(n: number): string {
  const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  let out = '';
  for (let v = n; v > 0; v = Math.floor(v / 32)) out = alphabet[v % 32]! + out;
  return out || '0';
}

/** Microsecond form of a dataset timestamp (`2025-03-01T10:00:00Z` → `…:00.000000Z`). */
const micro = (value: string): string => iso(Date.parse(value));

/**
 * Fills the store from the dataset, once: the organization, members, teams, projects with one
 * `Default` client key each (as Sentry makes at project creation), releases, issues with their
 * events, a `first_seen` activity and their notes. Ids are reserved above the dataset's.
 */
export function loadSentry(data: SentryDataset, ctx: LoadContext): void {
  const db = dbOf(ctx.store);
  const epoch = iso(ctx.epochMs);
  const when = (date: string | undefined, ago: string | undefined, fallback: string) => (date ? micro(date) : ago ? iso(ctx.epochMs - periodMs(ago)!) : fallback);
  const max = (ids: string[]) => ids.reduce((a, b) => Math.max(a, Number(b)), 0);
  ctx.ids.reserve('teams', max(data.teams.map((t) => t.id)));
  ctx.ids.reserve('projects', max(data.projects.map((p) => p.id)));
  ctx.ids.reserve('activities', max(data.issues.flatMap((i) => i.notes.map((n) => n.id ?? '0'))));

  db.org.put('org', { ...data.organization, dateCreated: epoch });
  for (const m of data.members) db.members.put(m.id, { ...m, username: m.username ?? m.email });
  for (const t of data.teams) db.teams.put(t.id, { ...t, dateCreated: epoch });
  for (const p of data.projects) {
    db.projects.put(p.id, { ...p, dateCreated: p.dateCreated ? micro(p.dateCreated) : epoch });
    const key = uuidId(ctx, 'key').replace(/-/g, '');
    db.keys.put(key, { id: key, project: p.slug, name: 'Default', public: key, secret: uuidId(ctx, 'key-secret').replace(/-/g, ''), isActive: true, dateCreated: epoch });
  }
  data.releases.forEach((r, i) => {
    db.releases.put(r.version, {
      version: r.version, id: 1000 + i, projects: r.projects, dateCreated: when(r.dateCreated, r.ago, epoch),
      dateReleased: r.dateReleased ? micro(r.dateReleased) : r.ago ? when(undefined, r.ago, epoch) : null, newGroups: r.newGroups, commitMessage: r.commitMessage, deployEnvironment: r.deployEnvironment,
    });
  });
  for (const issue of data.issues) {
    const times = issue.events.map((e) => when(e.dateCreated, e.ago, epoch)).sort();
    const firstSeen = issue.firstSeen ? micro(issue.firstSeen) : times[0] ?? epoch;
    const lastSeen = issue.lastSeen ? micro(issue.lastSeen) : times.at(-1) ?? epoch;
    const prefix = issue.project.toUpperCase();
    db.issues.put(issue.id, {
      id: issue.id, shortId: `${prefix}-${shortCode(issue.shortNumber)}`, project: issue.project, title: issue.title, culprit: issue.culprit,
      type: issue.type, value: issue.value, level: issue.level, status: issue.status,
      substatus: issue.substatus !== undefined ? issue.substatus : issue.status === 'unresolved' ? 'ongoing' : issue.status === 'ignored' ? 'archived_forever' : null,
      assignedTo: issue.assignedTo, count: Math.max(issue.count, issue.events.length), userCount: issue.userCount, firstSeen, lastSeen,
      firstRelease: issue.firstRelease, statusDetails: {},
    });
    for (const { ago, ...e } of issue.events) {
      db.events.put(e.id, { ...e, issue: issue.id, project: issue.project, dateCreated: when(e.dateCreated, ago, lastSeen), user: { id: e.user.id ?? null, email: e.user.email ?? null } });
    }
    db.activities.put(`fs${issue.id}`, { id: `fs${issue.id}`, issue: issue.id, type: 'first_seen', user: null, data: {}, dateCreated: firstSeen });
    for (const n of issue.notes) {
      const id = n.id ?? String(ctx.ids.next('activities'));
      db.activities.put(id, { id, issue: issue.id, type: 'note', user: n.user, data: { text: n.text }, dateCreated: n.dateCreated ? micro(n.dateCreated) : epoch });
    }
  }
}
