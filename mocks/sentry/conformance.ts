import type { SweepProfile } from '../kit/sweep-profile.js';

/**
 * How the conformance suite and `toolbench coverage` call every tool of Sentry's MCP server: in
 * the conformance world (Larkspur Outfitters, mocks/sentry/conformance), on records that exist
 * there. create_team and create_project run first so update_project and create_dsn find theirs.
 * search_docs and get_doc read docs.sentry.io / mcp.sentry.dev, not the API: offline here.
 */
const org = { organizationSlug: 'larkspur' };
const issue = { ...org, issueId: 'CHECKOUT-API-1' };

export const sweep: SweepProfile = {
  scenario: 'mocks/sentry/conformance',
  order: ['create_team', 'create_project'],
  offline: ['search_docs', 'get_doc'],
  args: {
    common: { organizationSlug: 'larkspur', regionUrl: 'https://us.sentry.io' },
    tools: {
      find_organizations: {},
      find_teams: org,
      find_projects: { ...org, query: 'checkout' },
      find_releases: { ...org, projectSlug: 'checkout-api' },
      get_issue_tag_values: { ...issue, tagKey: 'server_name' },
      get_replay_details: { ...org, replayId: '7e07485f1f4c4a7b8a2c1d5f6e3b9a10' },
      get_event_attachment: { ...org, projectSlug: 'checkout-api', eventId: '155e388d479467ead23eae2aa5c634ba' },
      update_issue: { ...issue, status: 'resolved' },
      search_events: { ...org, dataset: 'errors', query: 'level:error', fields: ['issue', 'title', 'count()'], sort: '-count()' },
      create_team: { ...org, name: 'Sweep Team' },
      create_project: { ...org, teamSlug: 'sweep-team', name: 'sweep-service', platform: 'node' },
      update_project: { ...org, projectSlug: 'sweep-service', name: 'Sweep Service', teamSlug: 'platform' },
      create_dsn: { ...org, projectSlug: 'checkout-api', name: 'Sweep key' },
      find_dsns: { ...org, projectSlug: 'checkout-api' },
      analyze_issue_with_seer: issue,
      search_docs: { query: 'rate limits' },
      get_doc: { path: '/platforms/javascript/guides/node.md' },
      search_issues: { ...org, query: 'is:unresolved', limit: 5 },
      search_issue_events: { ...issue, query: 'environment:production', limit: 5 },
      get_profile_details: { ...org, projectSlugOrId: 'checkout-api', profileId: 'cfe78a5c892d4a64a962d837673398d2' },
      get_sentry_resource: { ...org, resourceType: 'issue', resourceId: 'CHECKOUT-API-1' },
    },
  },
};
