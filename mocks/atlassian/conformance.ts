import { fileURLToPath } from 'node:url';
import type { SweepProfile } from '../kit/sweep-profile.js';
import { sourceUrl } from '../core/source-url.js';

/**
 * How the conformance suite and `toolbench coverage` call every tool of the Atlassian servers: in
 * the baseline site (mocks/atlassian/conformance), as Priya Raman. A sprint is created on the WEB
 * board (which has none), started and completed; the attachment is uploaded before it is read;
 * the bulk edit runs before its progress is asked for. The auth tools run last: setting OAuth
 * tokens switches mcp-jira-cloud to api.atlassian.com until `jira_clear_auth` drops them.
 */
const FIRST = ['jira_create_sprint', 'jira_start_sprint', 'jira_complete_sprint', 'jira_upload_attachment', 'jira_bulk_edit_issues', 'jira_add_vote', 'jira_add_watcher'];
const LAST = ['jira_auth_status', 'jira_oauth_get_auth_url', 'jira_oauth_list_sites', 'jira_oauth_refresh', 'jira_oauth_exchange_code', '_internal_jira_set_auth', 'jira_oauth_set_tokens', 'jira_clear_auth'];
const SITE = 'https://larkspur.atlassian.net';
const PRIYA = '5b10ac8d82e05b22cc7d4e10';
const MARCUS = '5b10ac8d82e05b22cc7d4e11';
/** A file the upload tool can read: the world's own scenario.toml, in the source tree even when this runs from dist/. */
const UPLOAD = fileURLToPath(new URL('./conformance/scenario.toml', sourceUrl(import.meta.url)));

export const sweep: SweepProfile = {
  scenario: 'mocks/atlassian/conformance',
  order: (tool) => (FIRST.includes(tool) ? FIRST.indexOf(tool) : LAST.includes(tool) ? 100 + LAST.indexOf(tool) : 50),
  // mcp-atlassian lists `list_issues_by_user_role` but registers its handler as
  // `list_issues_for_user_role`: calling it answers "Unknown tool" without a request.
  offline: ['list_issues_by_user_role', 'jira_auth_status', 'jira_oauth_get_auth_url', 'jira_oauth_list_sites', 'jira_oauth_refresh', 'jira_oauth_exchange_code', '_internal_jira_set_auth', 'jira_oauth_set_tokens', 'jira_clear_auth'],
  args: {
    common: {
      issueIdOrKey: 'ENG-5', projectKey: 'ENG', projectIdOrKey: 'ENG', boardId: 1, sprintId: 42, accountId: MARCUS, epicIdOrKey: 'ENG-1',
      filterId: '10000', jql: 'project = ENG AND status != Done ORDER BY priority DESC', maxResults: 10, startAt: 0, since: '2025-09-01T00:00:00Z',
    },
    tools: {
      jira_create_sprint: { boardId: 4, name: 'WEB Sprint 1', goal: 'Docs search', startDate: '2025-09-22T09:00:00.000Z', endDate: '2025-10-06T09:00:00.000Z' },
      jira_start_sprint: { sprintId: 46, startDate: '2025-09-22T09:00:00.000Z', endDate: '2025-10-06T09:00:00.000Z' },
      jira_complete_sprint: { sprintId: 46 },
      jira_update_sprint: { sprintId: 43, name: 'ENG Sprint 43', goal: 'Billing exports v2' },
      jira_get_sprint: { sprintId: 42 },
      jira_upload_attachment: { issueIdOrKey: 'ENG-5', filePath: UPLOAD, filename: 'world.toml' },
      jira_get_attachment_metadata: { id: '10000' },
      jira_get_attachment_content: { id: '10000', redirect: false },
      jira_bulk_edit_issues: { issueIdsOrKeys: ['ENG-11', 'ENG-12'], editedFieldsInput: { labels: { add: ['triaged'] } }, sendNotifications: false },
      jira_bulk_watch_issues: { issueIdsOrKeys: ['ENG-11'] },
      jira_bulk_unwatch_issues: { issueIdsOrKeys: ['ENG-11'] },
      jira_get_bulk_operation_progress: { taskId: '10000' },
      jira_add_comment: { body: 'From the conformance sweep.' },
      jira_add_labels: { labels: ['sweep'], operation: 'add' },
      jira_add_worklog: { timeSpent: '1h 30m', started: '2025-09-22T08:00:00.000+0000', comment: 'Pairing' },
      jira_assign_issue: { issueIdOrKey: 'ENG-6', accountId: PRIYA },
      jira_create_issue: { projectKey: 'ENG', issueType: 'Bug', summary: 'Sweep: export fails on empty month', description: 'Steps to reproduce attached.', priority: 'High', labels: ['sweep'], components: ['billing'] },
      jira_update_issue: { issueIdOrKey: 'ENG-7', summary: 'Deprecate v1 export endpoint (announce first)', labels: { add: ['q4'] } },
      jira_create_issue_link: { inwardIssue: 'ENG-5', outwardIssue: 'ENG-6', linkType: 'Blocks', comment: 'Found while triaging.' },
      jira_create_filter: { name: 'Sweep filter', jql: 'project = MOB AND labels = regression', description: 'made by the sweep' },
      jira_update_filter: { filterId: '10000', description: 'Bugs assigned to me, not done' },
      jira_get_create_metadata: { projectIdOrKey: 'ENG', issueTypeId: '10003' },
      jira_get_dashboard: { id: '10000' },
      jira_get_dashboard_gadgets: { dashboardId: '10000' },
      jira_add_dashboard_gadget: { dashboardId: '10000', moduleKey: 'com.atlassian.jira.gadgets:filter-results-gadget', title: 'Open bugs', color: 'blue' },
      jira_get_epic_issues: { epicIdOrKey: 'ENG-1' },
      jira_move_issues_to_epic: { epicIdOrKey: 'ENG-2', issueKeys: ['ENG-11'] },
      jira_remove_issues_from_epic: { issueKeys: ['ENG-12'] },
      jira_move_issues_to_sprint: { sprintId: 43, issueKeys: ['ENG-12'] },
      jira_move_issues_to_backlog: { issueKeys: ['ENG-6'] },
      jira_rank_issues: { issueKeys: ['ENG-10'], rankBeforeIssue: 'ENG-8' },
      jira_get_worklogs_by_ids: { ids: [10001, 10002] },
      jira_get_user_worklogs: { since: '2025-09-01', includeIssueDetails: true },
      jira_parse_jql: { queries: ['project = ENG AND assignee = currentUser()', 'project = NOPE'] },
      jira_validate_jql: { queries: ['labels = regression ORDER BY created DESC'] },
      jira_autocomplete_jql: { fieldName: 'project', fieldValue: 'E' },
      jira_resolve: { intent: 'search', jql: 'project = MOB AND status = "In Progress"' },
      jira_search_users: { query: 'ha', projectKey: 'ENG' },
      jira_transition_issue: { issueIdOrKey: 'ENG-9', transitionId: '41', comment: 'Merged.', resolution: 'Done' },
      jira_get_transitions: { issueIdOrKey: 'ENG-9', expand: 'transitions.fields' },
      jira_remove_watcher: { issueIdOrKey: 'ENG-5', accountId: MARCUS },
      jira_get_filters: { filterName: 'bugs' },
      jira_get_boards: { projectKeyOrId: 'ENG' },
      jira_get_epics: { boardId: 1, done: 'false' },
      jira_search_dashboards: { dashboardName: 'Team' },
      jira_get_dashboards: { filter: 'my' },
      jira_get_updated_worklog_ids: { since: '2025-09-01T00:00:00Z' },
      jira_get_deleted_worklog_ids: { since: '2025-09-01T00:00:00Z' },
      _internal_jira_set_auth: { baseUrl: SITE, email: 'priya.raman@larkspur.example', apiToken: 'ATATT3x9ewrejf7GrkHYjzBKVSRJPic', persist: false },
      jira_oauth_get_auth_url: { clientId: 'sweep-client', redirectUri: 'http://localhost:3000/callback' },
      jira_oauth_exchange_code: { clientId: 'sweep-client', clientSecret: 'sweep-secret', code: 'sweep-code', redirectUri: 'http://localhost:3000/callback' },
      // mcp-atlassian (endpoint confluence): pages of the baseline site (65003 "API rate limits", v1; 65008 the runbook with an attachment).
      read_confluence_page: { pageId: '65003', format: 'markdown' },
      search_confluence_pages: { cql: 'space = ENG AND text ~ "rate limit"', limit: 10 },
      list_confluence_spaces: { limit: 10 },
      get_confluence_space: { spaceKey: 'ENG' },
      list_attachments_on_page: { pageId: '65008' },
      download_confluence_attachment: { attachmentId: '65009' },
      get_page_with_attachments: { pageId: '65008', includeAttachments: true },
      create_confluence_page: { spaceKey: 'ENG', title: 'Sweep notes', content: '<p>Made by the conformance sweep.</p>', parentId: '65001' },
      update_confluence_page: { pageId: '65003', version: 2, content: '<p>Public API: 100 requests per 10 seconds per token, burst 200.</p>', versionComment: 'sweep' },
      list_confluence_page_children: { pageId: '65002' },
      list_confluence_page_ancestors: { pageId: '65003' },
      add_confluence_comment: { pageId: '65003', content: '<p>Partner tokens share the limit.</p>' },
      find_confluence_users: { cql: 'user.fullname ~ "hana"' },
      list_confluence_page_labels: { pageId: '65003' },
      add_confluence_page_label: { pageId: '65003', labels: [{ prefix: 'global', name: 'reviewed' }] },
      export_confluence_page: { pageId: '65003', format: 'markdown' },
      get_confluence_user: { accountId: MARCUS },
      upload_confluence_attachment: { pageId: '65003', file: 'aGVsbG8=', filename: 'hello.txt' },
      search_pages_by_user_involvement: { searchType: 'creator', accountId: PRIYA },
      list_pages_created_by_user: { accountId: PRIYA },
      list_attachments_uploaded_by_user: { accountId: PRIYA },
      read_jira_issue: { issueKey: 'ENG-5' },
      search_jira_issues: { jql: 'project = MOB ORDER BY created DESC', maxResults: 5 },
      create_jira_issue: { projectKey: 'OPS', issueType: 'Task', summary: 'Sweep: renew the status page certificate' },
      add_jira_comment: { issueKey: 'ENG-5', body: 'From the mcp-atlassian sweep.' },
      get_jira_user: { accountId: MARCUS },
      search_issues_by_user_involvement: { searchType: 'assignee', accountId: MARCUS },
      list_issues_by_user_role: { role: 'assignee', accountId: MARCUS },
      get_user_activity_history: { accountId: MARCUS, days: 30 },
      get_user_time_tracking: { accountId: MARCUS, startDate: '2025-09-01', endDate: '2025-09-30' },
      list_sprints_for_board: { boardId: 1 },
      get_sprint_details: { sprintId: 42 },
      get_my_current_sprint_issues: { boardId: 1 },
      get_my_unresolved_issues: { projectKeys: ['ENG'] },
      jira_oauth_set_tokens: { clientId: 'sweep-client', clientSecret: 'sweep-secret', accessToken: 'sweep-access', cloudId: '6a1f3c2e-8d4b-4e7a-9c1d-2b5e7f9a0c31', persist: false },
    },
  },
};
