import type { Collection, DocumentStore } from '../../core/store.js';

/**
 * What the Jira mock stores, one collection each (graders see these documents; references are
 * issue keys and account IDs). Timestamps are Jira's own format (`2025-09-14T09:01:47.000+0000`).
 */
export type Adf = { type: 'doc'; version: 1; content: unknown[] };

export interface StatusDoc { id: string; name: string; category: 'new' | 'indeterminate' | 'done'; description: string }
export interface TransitionDoc { id: string; name: string; to: string }
export interface ComponentDoc { id: string; name: string; description: string; lead: string | null }
export interface VersionDoc { id: string; name: string; description: string; released: boolean; archived: boolean; startDate: string | null; releaseDate: string | null }

export interface ProjectDoc {
  id: string;
  key: string;
  name: string;
  description: string;
  lead: string;
  projectTypeKey: string;
  components: ComponentDoc[];
  versions: VersionDoc[];
  /** The last issue number used (keys are `KEY-n`). */
  last_number: number;
}

export interface IssueDoc {
  id: string;
  key: string;
  project: string;
  issuetype: string;
  summary: string;
  description: Adf | null;
  status: string;
  resolution: string | null;
  resolutiondate: string | null;
  priority: string;
  assignee: string | null;
  reporter: string;
  creator: string;
  labels: string[];
  components: string[];
  fixVersions: string[];
  parent: string | null;
  duedate: string | null;
  environment: Adf | null;
  created: string;
  updated: string;
  /** The sprint the issue is in (id), null in the backlog. */
  sprint: number | null;
  /** Earlier sprints the issue was in and left unfinished (Jira keeps them in the sprint field). */
  closed_sprints: number[];
  story_points: number | null;
  /** Board rank: lower first. */
  rank: number;
  watchers: string[];
  voters: string[];
  /** Original estimate, seconds. */
  original_estimate: number | null;
}

export interface CommentDoc { id: string; issue: string; author: string; body: Adf; created: string; updated: string; updateAuthor: string }
export interface WorklogDoc { id: string; issue: string; issueId: string; author: string; updateAuthor: string; comment: Adf | null; started: string; timeSpentSeconds: number; created: string; updated: string; updated_ms: number }
export interface DeletedWorklogDoc { id: string; deleted_ms: number }
export interface LinkDoc { id: string; type: string; inward: string; outward: string }
export interface LinkTypeDoc { id: string; name: string; inward: string; outward: string }
export interface ChangeDoc { id: string; issue: string; author: string; created: string; items: { field: string; fieldtype: string; from: string | null; fromString: string | null; to: string | null; toString: string | null }[] }
export interface BoardDoc { id: number; name: string; type: 'scrum' | 'kanban' | 'simple'; project: string; filter: string }
export interface SprintDoc { id: number; board: number; name: string; state: 'future' | 'active' | 'closed'; goal: string; startDate: string | null; endDate: string | null; completeDate: string | null; createdDate: string }
export interface FilterDoc { id: string; name: string; jql: string; owner: string; description: string; favourite: boolean }
export interface AttachmentDoc { id: string; issue: string; filename: string; author: string; created: string; size: number; mimeType: string; content: string }
export interface BulkTaskDoc { taskId: string; status: 'COMPLETE'; submittedBy: string; created: number; successfulIssues: string[]; failedIssues: Record<string, unknown>; kind: string }

export interface JiraDb {
  statuses: Collection<StatusDoc>;
  transitions: Collection<TransitionDoc>;
  projects: Collection<ProjectDoc>;
  issues: Collection<IssueDoc>;
  comments: Collection<CommentDoc>;
  worklogs: Collection<WorklogDoc>;
  deleted_worklogs: Collection<DeletedWorklogDoc>;
  links: Collection<LinkDoc>;
  link_types: Collection<LinkTypeDoc>;
  changelog: Collection<ChangeDoc>;
  boards: Collection<BoardDoc>;
  sprints: Collection<SprintDoc>;
  filters: Collection<FilterDoc>;
  bulk_tasks: Collection<BulkTaskDoc>;
  /** Content as base64. */
  attachments: Collection<AttachmentDoc>;
}

const NAMES = ['statuses', 'transitions', 'projects', 'issues', 'comments', 'worklogs', 'deleted_worklogs', 'links', 'link_types', 'changelog', 'boards', 'sprints', 'filters', 'bulk_tasks', 'attachments'] as const;

/** Jira's collections are prefixed `jira.` so Confluence's can sit beside them in one store. */
export function jiraDb(store: DocumentStore): JiraDb {
  return Object.fromEntries(NAMES.map((name) => [name, store.collection(`jira.${name}`)])) as unknown as JiraDb;
}

/** Issue types, priorities and resolutions every Jira Cloud site has out of the box. */
export const ISSUE_TYPES = [
  { id: '10000', name: 'Epic', description: 'A big user story that needs to be broken down.', subtask: false, hierarchyLevel: 1 },
  { id: '10001', name: 'Story', description: "Functionality or a feature expressed as a user goal.", subtask: false, hierarchyLevel: 0 },
  { id: '10002', name: 'Task', description: 'A small, distinct piece of work.', subtask: false, hierarchyLevel: 0 },
  { id: '10003', name: 'Bug', description: 'A problem or error.', subtask: false, hierarchyLevel: 0 },
  { id: '10004', name: 'Subtask', description: 'A small piece of work that is part of a larger task.', subtask: true, hierarchyLevel: -1 },
] as const;
export const PRIORITIES = [
  { id: '1', name: 'Highest', description: 'This problem will block progress.', statusColor: '#d04437' },
  { id: '2', name: 'High', description: 'Serious problem that could block progress.', statusColor: '#f15C75' },
  { id: '3', name: 'Medium', description: 'Has the potential to affect progress.', statusColor: '#f79232' },
  { id: '4', name: 'Low', description: 'Minor problem or easily worked around.', statusColor: '#707070' },
  { id: '5', name: 'Lowest', description: 'Trivial problem with little or no impact on progress.', statusColor: '#999999' },
] as const;
export const RESOLUTIONS = [
  { id: '10000', name: 'Done', description: 'Work has been completed on this issue.' },
  { id: '10001', name: "Won't Do", description: 'This issue won\'t be actioned.' },
  { id: '10002', name: 'Duplicate', description: 'The problem is a duplicate of an existing issue.' },
  { id: '10003', name: 'Cannot Reproduce', description: 'All attempts at reproducing this issue failed.' },
] as const;
export const LINK_TYPES: LinkTypeDoc[] = [
  { id: '10000', name: 'Blocks', inward: 'is blocked by', outward: 'blocks' },
  { id: '10001', name: 'Cloners', inward: 'is cloned by', outward: 'clones' },
  { id: '10002', name: 'Duplicate', inward: 'is duplicated by', outward: 'duplicates' },
  { id: '10003', name: 'Relates', inward: 'relates to', outward: 'relates to' },
];
export const DEFAULT_STATUSES: StatusDoc[] = [
  { id: '10000', name: 'To Do', category: 'new', description: '' },
  { id: '3', name: 'In Progress', category: 'indeterminate', description: 'This issue is being actively worked on at the moment by the assignee.' },
  { id: '10001', name: 'In Review', category: 'indeterminate', description: '' },
  { id: '10002', name: 'Done', category: 'done', description: '' },
];
/** Story points and sprint are these custom fields on a new Jira Cloud site. */
export const SPRINT_FIELD = 'customfield_10020';
export const STORY_POINTS_FIELD = 'customfield_10016';

/** Jira's timestamp format: `2025-09-14T09:01:47.000+0000`. */
export function jiraTime(ms: number): string {
  return new Date(ms).toISOString().replace('Z', '+0000');
}

/** Jira's durations: `1w 2d 3h 30m` (a week is 5 days, a day 8 hours); seconds. */
export function parseDuration(text: string): number | null {
  const re = /(\d+(?:\.\d+)?)\s*([wdhm])/g;
  const unit: Record<string, number> = { w: 5 * 8 * 3600, d: 8 * 3600, h: 3600, m: 60 };
  let total = 0;
  let matched = '';
  for (let m = re.exec(text); m; m = re.exec(text)) { total += Number(m[1]) * unit[m[2]!]!; matched += m[0]; }
  if (matched.replace(/\s/g, '') !== text.replace(/\s/g, '') || matched === '') return null;
  return Math.round(total);
}

export function formatDuration(seconds: number): string {
  const parts: string[] = [];
  let rest = seconds;
  for (const [u, size] of [['w', 5 * 8 * 3600], ['d', 8 * 3600], ['h', 3600], ['m', 60]] as const) {
    const n = Math.floor(rest / size);
    if (n > 0) { parts.push(`${n}${u}`); rest -= n * size; }
  }
  return parts.length ? parts.join(' ') : '0m';
}

/** Plain text as ADF: one paragraph per blank-line-separated block, lines joined by hard breaks. */
export function adfOf(text: string): Adf {
  const blocks = text.split(/\n\s*\n/).filter((b) => b.trim() !== '');
  return {
    type: 'doc', version: 1,
    content: blocks.map((block) => ({
      type: 'paragraph',
      content: block.split('\n').flatMap((line, i) => (i === 0 ? [] : [{ type: 'hardBreak' }]).concat(line === '' ? [] : [{ type: 'text', text: line }] as never[])),
    })),
  };
}

/** The text of an ADF node (what search and text matching read). */
export function adfText(node: unknown): string {
  if (node === null || node === undefined) return '';
  if (typeof node === 'string') return node;
  if (Array.isArray(node)) return node.map(adfText).join(' ');
  if (typeof node !== 'object') return '';
  const n = node as { type?: string; text?: unknown; content?: unknown };
  if (n.type === 'hardBreak') return '\n';
  if (typeof n.text === 'string') return n.text;
  const inner = Array.isArray(n.content) ? n.content.map(adfText) : [];
  return inner.join(n.type === 'doc' || n.type === 'bulletList' || n.type === 'orderedList' ? '\n' : '').trim();
}
