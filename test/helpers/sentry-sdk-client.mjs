// The official @sentry/api client (0.1.0, generated from Sentry's OpenAPI, unmodified), run in its
// own process by test/sentry-sdk.test.ts: it reaches https://us.sentry.io through the preload and
// the TLS proxy. Prints one JSON object of what it saw.
import * as sentry from '@sentry/api';

const opts = { baseUrl: 'https://us.sentry.io', auth: process.env.SENTRY_TOKEN };
const org = { organization_id_or_slug: 'larkspur' };
const ok = (result) => {
  if (result.error !== undefined) throw new Error(`${result.response.status} ${JSON.stringify(result.error)}`);
  return result.data;
};

const orgs = ok(await sentry.listYourOrganizations(opts));
const projects = ok(await sentry.listAnOrganization_sProjects({ ...opts, path: org }));
const teams = ok(await sentry.listAnOrganization_sTeams({ ...opts, path: org }));
const issues = await sentry.listAnOrganization_sIssues({ ...opts, path: org, query: { query: 'is:unresolved project:checkout-api', sort: 'freq', limit: 3 } });
const issue = ok(await sentry.retrieveAnIssue({ ...opts, path: { ...org, issue_id: 'CHECKOUT-API-1' } }));
const events = ok(await sentry.listAnIssue_sEvents({ ...opts, path: { ...org, issue_id: issue.id }, query: { environment: ['production'] } }));
const latest = ok(await sentry.retrieveAnIssueEvent({ ...opts, path: { ...org, issue_id: issue.id, event_id: 'latest' } }));
const updated = ok(await sentry.updateAnIssue({ ...opts, path: { ...org, issue_id: issue.id }, body: { status: 'resolved', assignedTo: 'user:1002' } }));
const team = ok(await sentry.createANewTeam({ ...opts, path: org, body: { name: 'SDK Responders' } }));
const key = ok(await sentry.createANewClientKey({ ...opts, path: { ...org, project_id_or_slug: 'checkout-api' }, body: { name: 'SDK key' } }));
const keys = ok(await sentry.listAProject_sClientKeys({ ...opts, path: { ...org, project_id_or_slug: 'checkout-api' } }));
const releases = ok(await sentry.listAnOrganization_sReleases({ ...opts, path: org, query: { query: 'checkout-api@' } }));
const missing = await sentry.retrieveAnIssue({ ...opts, path: { ...org, issue_id: '424242' } });
const duplicate = await sentry.createANewTeam({ ...opts, path: org, body: { name: 'SDK Responders' } });
const badToken = await sentry.listYourOrganizations({ ...opts, auth: 'not-a-token' });

console.log(JSON.stringify({
  orgs: orgs.map((o) => [o.slug, o.links.regionUrl]),
  projects: projects.map((p) => p.slug),
  teams: teams.map((t) => t.slug),
  issues: { ids: issues.data.map((i) => i.shortId), link: /rel="next"; results="(true|false)"/.exec(issues.response.headers.get('link') ?? '')?.[1] ?? null, hits: issues.response.headers.get('x-hits') },
  issue: { id: issue.id, status: issue.status, project: issue.project.slug },
  events: events.map((e) => e.eventID).length,
  latest: { id: latest.id, exception: latest.entries[0].type, frames: latest.entries[0].data.values[0].stacktrace.frames.length },
  updated: { status: updated.status, assignee: updated.assignedTo?.email ?? null },
  team: team.slug,
  key: { name: key.name, dsn: key.dsn.public.startsWith(`https://${key.public}@`) },
  keys: keys.map((k) => k.name),
  releases: releases.map((r) => r.version),
  errors: {
    missing: [missing.response.status, missing.error],
    duplicate: [duplicate.response.status, duplicate.error],
    badToken: [badToken.response.status, badToken.error],
  },
}));
