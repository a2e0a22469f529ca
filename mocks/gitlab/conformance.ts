import { schemaExample, type JsonSchema, type SweepProfile } from '../kit/sweep-profile.js';

/**
 * How the conformance suite and `toolbench coverage` call all 262 tools of @zereight/mcp-gitlab
 * (GITLAB_TOOLSETS=all) in Acme's instance (mocks/gitlab/conformance): acme/storefront (101) with
 * its merge requests, pipelines 9001–9003 and jobs, acme/platform/api (102). Reads first, then
 * creates, updates, and deletes last; deletes aim at what the sweep itself created. Arguments are
 * the required ones from each tool's schema, then ids of the world by property name, then
 * per-tool values that pass the server's own checks.
 */

type State = Record<string, Record<string, unknown>>;
type Doc = Record<string, unknown>;
const docs = (state: State, collection: string): Doc[] => Object.values(state[collection] ?? {}) as Doc[];

const PROJECT = '101';
const FILE = 'src/cart.ts';

/** By property name: ids that exist in the conformance world. */
const COMMON: Record<string, unknown> = {
  project_id: PROJECT, group_id: 'acme', merge_request_iid: '1', issue_iid: '1', pipeline_id: '9002', job_id: '70003', milestone_id: '501',
  tag_name: 'v1.0.0', slug: 'home', key: 'NPM_TOKEN', pipeline_schedule_id: '601', deployment_id: '451', environment_id: '401', trigger_id: '651',
  hook_id: 301, branch_name: 'feature/coupons', ref: 'main', label_id: 'bug', iid: 1, file_path: FILE, user_id: '2', namespace_id: 10,
  username: 'lee', source_branch: 'feature/coupons', target_branch: 'main', target_project_id: PROJECT, target_issue_iid: '2', noteable_type: 'issue',
  noteable_iid: '1', incident_iid: 1, from: 'main', to: 'feature/coupons', version_id: '0', vulnerability_id: '1', title: 'Sweep title',
  body: 'Sweep comment', name: 'sweep-name', description: 'sweep', content: 'sweep content\n', commit_message: 'Sweep commit', branch: 'sweep-branch',
  search: 'cart', query: 'cart', color: '#428bca', url: 'https://hooks.acme.dev/sweep', value: 'sweep-value', cron: '0 3 * * *', environment: 'production',
  status: 'success', sha: 'main', state: 'opened', note: 'Sweep draft note', usernames: ['lee'], job_ids: ['70004'], file_paths: [FILE],
};

/** Per tool: values that get past the server's own validation, or aim at what the sweep created. */
const TOOLS: Record<string, Record<string, unknown>> = {
  create_branch: { branch: 'sweep-branch', ref: 'main' },
  delete_branch: { branch_name: 'sweep-branch' },
  protect_branch: { branch_name: 'sweep-branch' },
  unprotect_branch: { branch_name: 'sweep-branch' },
  get_protected_branch: { branch_name: 'main' },
  get_branch: { branch_name: 'main' },
  create_or_update_file: { file_path: 'docs/sweep.md', branch: 'sweep-branch', content: 'sweep\n', commit_message: 'Add sweep doc' },
  push_files: { branch: 'sweep-branch', files: [{ file_path: 'docs/pushed.md', content: 'pushed\n' }], commit_message: 'Push sweep files' },
  get_file_contents: { file_path: FILE, ref: 'main' },
  get_file_blame: { file_path: FILE, ref: 'main' },
  create_merge_request: { source_branch: 'sweep-branch', target_branch: 'main', title: 'Sweep MR' },
  create_tag: { tag_name: 'v9.9.9', ref: 'main' },
  delete_tag: { tag_name: 'v9.9.9' },
  create_release: { tag_name: 'v9.9.9', name: 'Sweep release', ref: 'main' },
  delete_release: { tag_name: 'v9.9.9' },
  update_release: { tag_name: 'v1.0.0' },
  create_label: { name: 'sweep-label', color: '#00ff00' },
  delete_label: { label_id: 'sweep-label' },
  update_label: { label_id: 'needs-review', new_name: 'needs-review', color: '#f0ad4e' },
  create_milestone: { title: 'Sweep milestone' },
  create_group_milestone: { title: 'Sweep group milestone' },
  create_wiki_page: { title: 'Sweep page', content: 'sweep' },
  delete_wiki_page: { slug: 'Sweep-page' },
  create_group_wiki_page: { title: 'Group sweep page', content: 'sweep' },
  get_group_wiki_page: { slug: 'Group-sweep-page' },
  update_group_wiki_page: { slug: 'Group-sweep-page', content: 'updated' },
  delete_group_wiki_page: { slug: 'Group-sweep-page' },
  create_project_variable: { key: 'SWEEP_VAR', value: 'x' },
  delete_project_variable: { key: 'SWEEP_VAR' },
  create_group_variable: { key: 'SWEEP_GROUP_VAR', value: 'x' },
  delete_group_variable: { key: 'SWEEP_GROUP_VAR' },
  get_group_variable: { key: 'REGISTRY' },
  update_group_variable: { key: 'REGISTRY', value: 'registry2.acme.dev' },
  create_pipeline: { ref: 'main' },
  trigger_pipeline: { ref: 'main', token: 'glptt-0000000000000000abcd' },
  retry_pipeline: { pipeline_id: '9002' },
  cancel_pipeline: { pipeline_id: '9003' },
  delete_pipeline: { pipeline_id: '9003' },
  play_pipeline_job: { job_id: '70004' },
  play_pipeline_jobs: { pipeline_id: '9002' },
  cancel_pipeline_job: { job_id: '70005' },
  erase_pipeline_job: { job_id: '70002' },
  create_issue: { title: 'Sweep issue' },
  delete_issue: { issue_iid: '3' },
  create_issue_link: { issue_iid: '1', target_project_id: PROJECT, target_issue_iid: '2' },
  create_pipeline_schedule: { description: 'Sweep schedule', ref: 'main', cron: '0 4 * * *' },
  create_pipeline_schedule_variable: { key: 'SWEEP_SCHED', value: 'x' },
  get_pipeline_schedule_variable: { key: 'SWEEP_SCHED' },
  update_pipeline_schedule_variable: { key: 'SWEEP_SCHED', value: 'y' },
  delete_pipeline_schedule_variable: { key: 'SWEEP_SCHED' },
  create_pipeline_trigger: { description: 'Sweep trigger' },
  create_webhook: { url: 'https://hooks.acme.dev/sweep' },
  create_deployment: { environment: 'production', sha: 'main', ref: 'main', tag: false, status: 'success' },
  create_group: { name: 'Sweep group', path: 'sweep-group' },
  create_repository: { name: 'sweep-repo' },
  fork_repository: { project_id: '102', namespace: 'acme' },
  update_project: { description: 'Sweep description' },
  update_default_branch: { default_branch: 'main' },
  search_repositories: { search: 'store' },
  get_users: { usernames: ['lee', 'sam'] },
  verify_namespace: { path: 'acme' },
  get_namespace: { namespace_id: 'acme' },
  get_user: { user_id: '2' },
  validate_ci_lint: { content: 'test:\n  script: echo ok\n' },
  validate_project_ci_lint: { content: 'test:\n  script: echo ok\n' },
  execute_graphql: { query: '{ currentUser { username } }' },
  wait_for_pipeline: { pipeline_id: '9001', timeout_seconds: 1 },
  wait_for_job: { job_id: '70001', timeout_seconds: 1 },
  create_commit_status: { state: 'success', sha: 'main' },
  approve_deployment: { status: 'approved' },
  update_dependency_proxy_settings: { enabled: true },
  update_issue_description_patch: { patch: '<<<<<<< SEARCH\none cent\n=======\na cent\n>>>>>>> REPLACE', patch_type: 'search_replace' },
  update_issue_note: { body: 'Edited by the sweep' },
  update_issue: { title: 'Cart total is off by a cent' },
  update_merge_request: { title: 'Coupons: percent off (reviewed)' },
  update_merge_request_discussion_note: { body: 'Edited by the sweep' },
  update_merge_request_note: { body: 'Edited by the sweep' },
  orbit_query: { query: { match: { node: 'Project' }, limit: 1 } },
  get_ci_catalog_resource: { full_path: 'acme/storefront' },
  upload_markdown: { file_path: 'package.json' },
  mark_todo_done: { id: 801 },
};

/** reads < creates < updates and actions < deletes; the sweep's own records before what uses them. */
export function rank(tool: string): number {
  if (tool === 'create_branch') return 0;
  if (tool === 'bulk_publish_draft_notes' || tool === 'publish_draft_note') return 4;
  if (/^(create|push|fork|upload|trigger)_/.test(tool)) return 2;
  if (/^(delete|unprotect|erase|purge|stop|mark_all|dismiss|delete_review)/.test(tool)) return tool === 'delete_branch' ? 6 : 5;
  if (/^(get|list|search|my_|whoami|health|discover|orbit|validate|download|mr_discussions|verify|wait)/.test(tool)) return 1;
  return 3;
}

/** Ids of records that exist just before the call: the issue's or merge request's notes, drafts, emoji. */
function fromState(tool: string, properties: Record<string, JsonSchema>, state: State): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const onMr = tool.includes('merge_request') || tool.includes('draft') || tool.startsWith('mr_') || tool.includes('thread');
  const notes = docs(state, 'notes').filter((n) => n.project_id === 101 && n.noteable_iid === 1 && n.noteable_type === (onMr ? 'MergeRequest' : 'Issue') && n.system === false);
  const discussed = notes.find((n) => n.type === 'DiffNote' || n.type === 'DiscussionNote') ?? notes[0];
  if ('note_id' in properties && discussed) out.note_id = String((tool.startsWith('delete') ? notes.at(-1) : discussed)!.id);
  if ('discussion_id' in properties && discussed) out.discussion_id = String(discussed.discussion_id);
  const draft = docs(state, 'draft_notes').at(-1);
  if ('draft_note_id' in properties && draft) out.draft_note_id = String(draft.id);
  const emoji = `${onMr ? 'merge_request' : 'issue'}${'note_id' in properties ? '_note' : ''}_award_emoji`;
  const award = docs(state, emoji).map((v) => ({ v })).at(-1);
  if ('award_id' in properties && award) out.award_id = String(award.v.id);
  const link = docs(state, 'issue_links').at(-1);
  if ('issue_link_id' in properties && link) out.issue_link_id = String(link.id);
  const mine = (collection: string, field: string, value: unknown) => docs(state, collection).find((d) => d[field] === value);
  if (tool === 'delete_webhook' || tool === 'update_webhook') out.hook_id = Number(mine('project_hooks', 'url', 'https://hooks.acme.dev/sweep')?.id ?? 301);
  if (tool === 'delete_pipeline_trigger' || tool === 'update_pipeline_trigger') out.trigger_id = String(mine('pipeline_triggers', 'description', 'Sweep trigger')?.id ?? 651);
  if (tool === 'delete_pipeline_schedule') out.pipeline_schedule_id = String(mine('pipeline_schedules', 'description', 'Sweep schedule')?.id ?? 601);
  if (tool === 'promote_milestone') out.milestone_id = '501';
  if (tool === 'delete_milestone') out.milestone_id = String(docs(state, 'milestones').find((m) => m.title === 'Sweep milestone')?.id ?? 501);
  if (/group_milestone/.test(tool) && tool !== 'create_group_milestone') out.milestone_id = String(docs(state, 'milestones').find((m) => m.title === 'Sweep group milestone')?.id ?? 0);
  if (tool === 'delete_deployment') out.deployment_id = String(docs(state, 'deployments').at(-1)?.id ?? 451);
  if (tool === 'delete_environment') out.environment_id = '402';
  const version = docs(state, 'merge_requests').find((m) => m.project_id === 101 && m.iid === 1);
  if (tool === 'get_merge_request_version' && version) out.version_id = String(Number(version.id) * 10 + 1);
  return out;
}

export const sweep: SweepProfile = {
  scenario: 'mocks/gitlab/conformance',
  order: rank,
  // Answered by the server itself, without a request to GitLab.
  offline: ['discover_tools'],
  argsFor(tool, state) {
    const properties = (tool.inputSchema.properties ?? {}) as Record<string, JsonSchema>;
    const args: Record<string, unknown> = {};
    for (const name of (tool.inputSchema.required ?? []) as string[]) {
      if (!properties[name]) continue;
      args[name] = name in COMMON ? COMMON[name] : schemaExample(properties[name]!, name);
    }
    // Optional in the schemas (a default project can come from GITLAB_PROJECT_ID), needed here.
    for (const name of ['project_id', 'merge_request_iid'] as const) if (name in properties && !(name in args) && !(name === 'project_id' && 'group_id' in args)) args[name] = COMMON[name];
    if (tool.name.includes('group_variable') && 'key' in args) args.key = 'REGISTRY';
    return { ...args, ...fromState(tool.name, properties, state), ...(TOOLS[tool.name] ?? {}) };
  },
};
