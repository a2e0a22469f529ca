import type { SweepProfile } from '../kit/sweep-profile.js';

/**
 * How the conformance suite and `toolbench coverage` call the 40 tools of @azure-devops/mcp in
 * the conformance world (mocks/azure-devops/conformance, the baseline organization): Storefront's
 * work items, storefront-web's pull request 57, builds 884 and 886, the Checkout regression test
 * plan, the Storefront wiki; reads first, writes last. Each tool is called with one action.
 */
type State = Record<string, Record<string, unknown>>;
type Doc = Record<string, unknown>;
const docs = (state: State, collection: string): Doc[] => Object.values(state[collection] ?? {}) as Doc[];
const userId = (state: State, unique: string) => String(docs(state, 'users').find((u) => u.uniqueName === unique)?.id ?? '');
const iterationId = (state: State, path: string) => String(docs(state, 'iterations').find((i) => i.path === path)?.id ?? '');

const P = 'Storefront';
const WRITES = ['wit_work_item_write', 'wit_work_item_comment_write', 'wit_work_item_link_write', 'repo_create_branch', 'repo_pull_request_write', 'repo_pull_request_thread_write',
  'pipelines_write', 'testplan_test_plan_write', 'testplan_test_suite_write', 'testplan_test_case_write', 'wiki_upsert_page', 'work_iteration_write', 'work_capacity_write'];

export const sweep: SweepProfile = {
  scenario: 'mocks/azure-devops/conformance',
  order: (tool) => (WRITES.includes(tool) ? 2 : 1),
  argsFor: (tool, state) => argsFor(tool.name, state),
};

function argsFor(tool: string, s: State): Record<string, unknown> {
  switch (tool) {
    case 'core_list_projects': return {};
    case 'core_list_project_teams': return { project: P };
    case 'core_get_identity_ids': return { searchFilter: 'priya.raman@contoso.com' };
    case 'work': return { action: 'get_team_settings', project: P, team: 'Storefront Team' };
    case 'work_iteration_write': return { action: 'assign', project: P, team: 'Payments', iterations: [{ identifier: iterationId(s, 'Storefront\\Sprint 43'), path: 'Storefront\\Sprint 43' }] };
    case 'work_capacity_write': return { action: 'update', project: P, team: 'Storefront Team', teamMemberId: userId(s, 'sofia.lindqvist@contoso.com'), iterationId: iterationId(s, 'Storefront\\Sprint 42'), activities: [{ name: 'Testing', capacityPerDay: 4 }] };
    case 'wit_work_item': return { action: 'get', project: P, id: 107 };
    case 'wit_query': return { action: 'wiql', project: P, wiql: "SELECT [System.Id] FROM WorkItems WHERE [System.TeamProject] = @project AND [System.State] = 'Active'" };
    case 'wit_backlog': return { action: 'list', project: P, team: 'Storefront Team' };
    case 'wit_work_item_attachment': return { attachmentId: '3f1c6a2e-8d4b-4c1e-9a7f-2b5d6e8f0a1c', fileName: 'screenshot.png', project: P };
    case 'wit_work_item_write': return { action: 'update', id: 108, updates: [{ op: 'add', path: '/fields/System.AssignedTo', value: 'sofia.lindqvist@contoso.com' }] };
    case 'wit_work_item_comment_write': return { action: 'add', project: P, workItemId: 113, text: 'Confirmed on production as well.' };
    case 'wit_work_item_link_write': return { action: 'link', project: P, updates: [{ id: 113, linkToId: 107, type: 'related' }] };
    case 'repo_repository': return { action: 'list', project: P };
    case 'repo_branch': return { action: 'list', repositoryId: 'storefront-web', project: P };
    case 'repo_file': return { action: 'get_content', repositoryId: 'storefront-web', project: P, path: '/src/checkout/coupon.ts', version: 'fix/coupon-whitespace', versionType: 'Branch' };
    case 'repo_search_commits': return { searchText: 'coupon', project: [P] };
    case 'repo_pull_request': return { action: 'get', repositoryId: 'storefront-web', project: P, pullRequestId: 57, includeChangedFiles: true, includeLabels: true };
    case 'repo_pull_request_thread': return { action: 'list', repositoryId: 'storefront-web', project: P, pullRequestId: 57 };
    case 'repo_pull_request_thread_write': return { action: 'reply', repositoryId: 'storefront-web', project: P, pullRequestId: 57, threadId: 1, content: 'A typed error sounds right; updating.' };
    case 'repo_pull_request_write': return { action: 'vote', repositoryId: 'storefront-web', project: P, pullRequestId: 57, vote: 'Approved' };
    case 'repo_create_branch': return { repositoryId: 'storefront-web', project: P, branchName: 'hotfix/utc-emails', sourceBranchName: 'main' };
    case 'pipelines_build': return { action: 'list', project: P, definitions: [11] };
    case 'pipelines_build_log': return { action: 'get_content', project: P, buildId: 884, logId: 1 };
    case 'pipelines_definition': return { action: 'list', project: P };
    case 'pipelines_run': return { action: 'list', project: P, pipelineId: 11 };
    case 'pipelines_artifact': return { action: 'list', project: P, buildId: 880 };
    case 'pipelines_write': return { action: 'run_pipeline', project: P, pipelineId: 11, resources: { repositories: { self: { refName: 'refs/heads/main' } } } };
    case 'testplan': return { action: 'list_suites', project: P, planId: 501 };
    case 'testplan_show_test_results_from_build_id': return { project: P, buildid: 884, outcomes: ['Failed'] };
    case 'testplan_test_plan_write': return { action: 'create', project: P, name: 'Release 3.9 regression', iteration: 'Storefront\\Sprint 43' };
    case 'testplan_test_suite_write': return { action: 'add_test_cases', project: P, planId: 501, suiteId: 512, testCaseIds: ['116'] };
    case 'testplan_test_case_write': return { action: 'create', project: P, title: 'Apply a whitespace-only coupon', testsWorkItemId: 107, steps: '1. Enter three spaces|The Apply button stays disabled' };
    case 'wiki': return { action: 'get_page_content', project: P, wikiIdentifier: 'Storefront.wiki', path: '/Runbooks/Payments incidents' };
    case 'wiki_upsert_page': return { wikiIdentifier: 'Storefront.wiki', project: P, path: '/Runbooks/Coupons', content: '# Coupons\n\nCodes are trimmed and upper-cased.\n' };
    case 'search_code': return { searchText: 'normaliseCoupon', project: [P] };
    case 'search_wiki': return { searchText: 'incident', project: [P] };
    case 'search_workitem': return { searchText: 'coupon', project: [P] };
    case 'advsec_get_alerts': return { project: P, repository: 'payments-api' };
    case 'advsec_get_alert_details': return { project: P, repository: 'payments-api', alertId: 7 };
    default: return {};
  }
}
