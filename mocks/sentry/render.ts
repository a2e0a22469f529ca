import type { ServiceRequest } from '../core/http.js';
import type { SentryCtx } from './context.js';
import type { IssueDoc, KeyDoc, MemberDoc, OrgDoc, ProjectDoc, ReleaseDoc, TeamDoc } from './model.js';

/**
 * Records in the shapes Sentry's serializers answer (the fields @sentry/mcp-server's zod schemas
 * read, and the ones next to them an agent sees), built from the store's documents.
 */

export const REGION_URL = 'https://us.sentry.io';
const AVATAR = { avatarType: 'letter_avatar', avatarUuid: null, avatarUrl: null };

export function renderOrg(org: OrgDoc): Record<string, unknown> {
  return {
    id: org.id, slug: org.slug, name: org.name, dateCreated: org.dateCreated, status: { id: 'active', name: 'active' },
    avatar: AVATAR, isEarlyAdopter: false, require2FA: false, allowMemberInvite: true, hasAuthProvider: false, features: ['issue-stream-search-query-builder'],
    links: { organizationUrl: `https://${org.slug}.sentry.io`, regionUrl: REGION_URL },
  };
}

export function renderUser(m: MemberDoc, dateJoined: string): Record<string, unknown> {
  return {
    id: m.id, name: m.name, username: m.username, email: m.email, avatarUrl: null, isActive: true, hasPasswordAuth: true, isManaged: false,
    dateJoined, lastLogin: dateJoined, has2fa: false, lastActive: dateJoined, isSuperuser: false, isStaff: false, experiments: {},
    emails: [{ id: m.id, email: m.email, is_verified: true }], avatar: AVATAR,
  };
}

/** A user as issues and activities embed it. */
export function actor(m: MemberDoc): Record<string, unknown> {
  return { id: m.id, name: m.name, username: m.username, email: m.email, avatarUrl: null, isActive: true, type: 'user' };
}

export function renderTeam(c: SentryCtx, t: TeamDoc): Record<string, unknown> {
  const isMember = c.caller !== null && t.members.includes(c.caller.email);
  return {
    id: t.id, slug: t.slug, name: t.name, dateCreated: t.dateCreated, isMember, teamRole: isMember ? 'contributor' : null,
    flags: { 'idp:provisioned': false }, access: ['event:read', 'event:write', 'project:read', 'team:read', 'member:read', 'org:read'],
    hasAccess: true, isPending: false, memberCount: t.members.length, avatar: { avatarType: 'letter_avatar', avatarUuid: null },
  };
}

export function renderProject(c: SentryCtx, p: ProjectDoc): Record<string, unknown> {
  const teams = p.teams.map((slug) => c.db.teams.find((t) => t.slug === slug)).filter((t) => t !== undefined).map((t) => ({ id: t.id, slug: t.slug, name: t.name }));
  const firstEvent = c.db.events.filter((e) => e.project === p.slug).map((e) => e.dateCreated).sort()[0] ?? null;
  return {
    id: p.id, slug: p.slug, name: p.name, platform: p.platform, dateCreated: p.dateCreated, isBookmarked: false, isMember: true,
    features: [], firstEvent, firstTransactionEvent: false, access: ['event:read', 'project:read'], hasAccess: true,
    hasMinifiedStackTrace: false, hasMonitors: false, hasProfiles: false, hasReplays: false, hasFeedbacks: false, hasSessions: false, hasLogs: false,
    isInternal: false, isPublic: false, avatar: { avatarType: 'letter_avatar', avatarUuid: null }, color: '#3f70bf', status: 'active',
    team: teams[0] ?? null, teams,
  };
}

export function renderKey(c: SentryCtx, k: KeyDoc): Record<string, unknown> {
  const project = c.db.projects.find((p) => p.slug === k.project)!;
  const host = `o${c.org.id}.ingest.us.sentry.io`;
  const base = `https://${host}/api/${project.id}`;
  return {
    id: k.id, name: k.name, label: k.name, public: k.public, secret: k.secret, projectId: Number(project.id), isActive: k.isActive, rateLimit: null,
    dsn: {
      secret: `https://${k.public}:${k.secret}@${host}/${project.id}`, public: `https://${k.public}@${host}/${project.id}`,
      csp: `${base}/csp-report/?sentry_key=${k.public}`, security: `${base}/security/?sentry_key=${k.public}`,
      minidump: `${base}/minidump/?sentry_key=${k.public}`, nel: `${base}/nel/?sentry_key=${k.public}`,
      unreal: `${base}/unreal/${k.public}/`, cdn: `https://js.sentry-cdn.com/${k.public}.min.js`, crons: `${base}/cron/___MONITOR_SLUG___/${k.public}/`,
    },
    browserSdkVersion: '8.x', browserSdk: { choices: [['latest', 'latest'], ['8.x', '8.x']] }, dateCreated: k.dateCreated,
    dynamicSdkLoaderOptions: { hasReplay: true, hasPerformance: true, hasDebug: false },
  };
}

export function renderRelease(c: SentryCtx, r: ReleaseDoc): Record<string, unknown> {
  const events = c.db.events.filter((e) => e.release === r.version).map((e) => e.dateCreated).sort();
  const projects = r.projects.map((slug) => c.db.projects.find((p) => p.slug === slug)).filter((p) => p !== undefined);
  const short = /^[^@]+@(.+)$/.exec(r.version)?.[1] ?? r.version;
  return {
    id: r.id, version: r.version, status: 'open', shortVersion: short, versionInfo: { package: r.version.split('@')[0] ?? null, version: { raw: short }, description: short, buildHash: null },
    ref: null, url: null, dateCreated: r.dateCreated, dateReleased: r.dateReleased, data: {}, newGroups: r.newGroups, owner: null,
    commitCount: r.commitMessage === null ? 0 : 1, lastCommit: r.commitMessage === null ? null : { id: `${r.id.toString(16).padStart(8, '0')}${'0'.repeat(32)}`, message: r.commitMessage, dateCreated: r.dateCreated },
    deployCount: r.deployEnvironment === null ? 0 : 1,
    lastDeploy: r.deployEnvironment === null ? null : { id: String(r.id), environment: r.deployEnvironment, dateStarted: r.dateReleased, dateFinished: r.dateReleased, name: null, url: null },
    authors: [], projects: projects.map((p) => ({ id: Number(p.id), slug: p.slug, name: p.name, newGroups: c.db.issues.filter((i) => i.project === p.slug && i.firstRelease === r.version).length, platform: p.platform, platforms: p.platform ? [p.platform] : [], hasHealthData: false })),
    firstEvent: events[0] ?? null, lastEvent: events.at(-1) ?? null, currentProjectMeta: {}, userAgent: null,
  };
}

export function assignee(c: SentryCtx, value: string | null): Record<string, unknown> | null {
  if (value === null) return null;
  if (value.startsWith('team:')) {
    const team = c.db.teams.find((t) => t.slug === value.slice(5));
    return team ? { type: 'team', id: team.id, name: team.slug } : null;
  }
  const member = c.db.members.find((m) => m.email === value);
  return member ? { type: 'user', id: member.id, name: member.name, email: member.email } : null;
}

export function permalink(c: SentryCtx, issue: IssueDoc): string {
  return `https://${c.org.slug}.sentry.io/issues/${issue.id}/`;
}

/** An issue as the issue stream answers it (details add more, issues.ts). */
export function renderIssue(c: SentryCtx, i: IssueDoc): Record<string, unknown> {
  const project = c.db.projects.find((p) => p.slug === i.project)!;
  const events = c.db.events.filter((e) => e.issue === i.id);
  const top = events[0]?.frames.at(-1);
  return {
    id: i.id, shareId: null, shortId: i.shortId, title: i.title, culprit: i.culprit, permalink: permalink(c, i), logger: null, level: i.level,
    status: i.status, statusDetails: i.statusDetails, substatus: i.substatus, isPublic: false, platform: project.platform,
    project: { id: project.id, name: project.name, slug: project.slug, platform: project.platform },
    type: 'error', metadata: { type: i.type, value: i.value, filename: top?.filename ?? null, function: top?.function ?? null, in_app_frame_mix: 'in-app-only', initial_priority: 75, title: null },
    numComments: c.db.activities.filter((a) => a.issue === i.id && a.type === 'note').length, assignedTo: assignee(c, i.assignedTo),
    isBookmarked: false, isSubscribed: false, subscriptionDetails: null, hasSeen: false, annotations: [], issueType: 'error', issueCategory: 'error',
    priority: i.level === 'fatal' || i.level === 'error' ? 'high' : 'medium', priorityLockedAt: null, seerFixabilityScore: null, seerAutofixLastTriggered: null,
    isUnhandled: true, count: String(i.count), userCount: i.userCount, firstSeen: i.firstSeen, lastSeen: i.lastSeen,
  };
}

/** Sentry's cursor pages: `cursor=0:<offset>:0`, `per_page` (or `limit`), a Link header both ways. */
export function page<T>(req: ServiceRequest, items: T[], origin: string, defaultLimit = 100): { items: T[]; headers: [string, string][] } {
  const limit = Math.min(Math.max(Number(req.query.get('per_page') ?? req.query.get('limit') ?? defaultLimit) || defaultLimit, 1), 100);
  const offset = Number(/^\d+:(\d+):\d$/.exec(req.query.get('cursor') ?? '')?.[1] ?? 0);
  const slice = items.slice(offset, offset + limit);
  const link = (cursorOffset: number, rel: string, results: boolean) => {
    const q = new URLSearchParams(req.target.includes('?') ? req.target.slice(req.target.indexOf('?') + 1) : '');
    q.set('cursor', `0:${cursorOffset}:${rel === 'previous' ? 1 : 0}`);
    return `<${origin}${req.path}?${q.toString()}>; rel="${rel}"; results="${results}"; cursor="0:${cursorOffset}:${rel === 'previous' ? 1 : 0}"`;
  };
  const headers: [string, string][] = [['Link', `${link(Math.max(offset - limit, 0), 'previous', offset > 0)}, ${link(offset + limit, 'next', offset + limit < items.length)}`]];
  return { items: slice, headers };
}
