import { findUser } from '../model.js';
import { JqlError, parseJql, type Clause, type Operand, type Query } from './jql.js';
import { adfText, PRIORITIES, RESOLUTIONS, ISSUE_TYPES, type IssueDoc } from './model.js';
import { statusByName, type View } from './render.js';

/** Who is searching and when (for currentUser() and relative dates). */
export interface SearchContext { view: View; me: string; nowMs: number }

/** The issues a JQL query selects, in its order (Jira's default: newest first). Throws JqlError. */
export function runJql(jql: string, c: SearchContext): IssueDoc[] {
  const query = parseJql(jql);
  return evaluate(query, c);
}

export function evaluate(query: Query, c: SearchContext): IssueDoc[] {
  const where = query.where;
  const test = where ? compile(where, c) : () => true;
  const issues = c.view.db.issues.filter((i) => test(i));
  const order = query.orderBy.length ? query.orderBy : [];
  const keyed = issues.map((issue) => ({ issue, keys: order.map((o) => sortKey(o.field, issue, c)) }));
  keyed.sort((a, b) => {
    for (let i = 0; i < order.length; i++) {
      const d = compareKeys(a.keys[i]!, b.keys[i]!);
      if (d !== 0) return order[i]!.direction === 'DESC' || (order[i]!.direction === null && DEFAULT_DESC.has(canonical(order[i]!.field))) ? -d : d;
    }
    return Number(b.issue.id) - Number(a.issue.id);
  });
  return keyed.map((k) => k.issue);
}

/** Whether a query restricts anything (the enhanced search refuses unbounded queries). */
export function bounded(query: Query): boolean {
  return query.where !== null;
}

const DAY = 86_400_000;
const UNRESOLVED = '\u0000unresolved';
const DEFAULT_DESC = new Set(['created', 'updated', 'priority', 'resolutiondate']);
const ALIASES: Record<string, string> = {
  issuekey: 'key', type: 'issuetype', 'issue type': 'issuetype', due: 'duedate', resolved: 'resolutiondate', component: 'component',
  fixversion: 'fixversion', 'epic link': 'parent', statuscategory: 'statuscategory', 'story points': 'storypoints', 'story point estimate': 'storypoints',
};
const FIELDS = new Set(['project', 'key', 'id', 'status', 'statuscategory', 'assignee', 'reporter', 'creator', 'labels', 'text', 'summary', 'description',
  'comment', 'environment', 'issuetype', 'priority', 'resolution', 'sprint', 'parent', 'component', 'fixversion', 'created', 'updated', 'duedate',
  'resolutiondate', 'rank', 'storypoints', 'watcher', 'labels', 'worklogauthor', 'worklogdate']);

function canonical(field: string): string {
  const lower = field.toLowerCase();
  const name = ALIASES[lower] ?? lower;
  if (name === 'cf[10020]') return 'sprint';
  if (name === 'cf[10016]') return 'storypoints';
  if (!FIELDS.has(name)) throw new JqlError(`Field '${field}' does not exist or you do not have permission to view it.`);
  return name;
}

type Test = (issue: IssueDoc) => boolean;

function compile(clause: Clause, c: SearchContext): Test {
  if (clause.kind === 'and') { const parts = clause.clauses.map((x) => compile(x, c)); return (i) => parts.every((p) => p(i)); }
  if (clause.kind === 'or') { const parts = clause.clauses.map((x) => compile(x, c)); return (i) => parts.some((p) => p(i)); }
  if (clause.kind === 'not') { const inner = compile(clause.clause, c); return (i) => !inner(i); }
  const field = canonical(clause.field);
  const op = clause.operator;
  if (op === 'is' || op === 'is not') {
    const empty = (i: IssueDoc) => values(field, i, c).length === 0;
    return op === 'is' ? empty : (i) => !empty(i);
  }
  if (op === '~' || op === '!~') {
    if (!['text', 'summary', 'description', 'comment', 'environment'].includes(field)) throw new JqlError(`The operator '${op}' is not supported by the '${clause.field}' field.`);
    if (clause.operand.kind !== 'value') throw new JqlError(`The operator '${op}' is not supported by the '${clause.field}' field with this value.`);
    const match = textMatcher(clause.operand.value);
    const test = (i: IssueDoc) => match(textOf(field, i, c));
    return op === '~' ? test : (i) => !test(i);
  }
  if (['>', '>=', '<', '<='].includes(op)) {
    if (clause.operand.kind === 'list' || clause.operand.kind === 'empty') throw new JqlError(`The operator '${op}' does not support the list value for field '${clause.field}'.`);
    const bound = ordinal(field === 'worklogdate' ? 'created' : field, clause.operand, c, clause.field);
    const cmp = (a: number) => (op === '>' ? a > bound : op === '>=' ? a >= bound : op === '<' ? a < bound : a <= bound);
    if (field === 'worklogdate') {
      // Some worklog of the issue started in range (by day, as Jira compares dates).
      return (i) => c.view.db.worklogs.filter((w) => w.issue === i.key).some((w) => cmp(Math.floor(Date.parse(w.started.replace(/\+0000$/, 'Z')) / DAY) * DAY));
    }
    return (i) => { const v = ordinalOf(field, i, c); return v !== null && cmp(v); };
  }
  const wanted = resolve(field, clause.operand, c, clause.field);
  // `resolution = Unresolved` is Jira's name for an empty resolution.
  const unresolved = field === 'resolution' && wanted.has(UNRESOLVED);
  const hit = (i: IssueDoc) => values(field, i, c).some((v) => wanted.has(v)) || (unresolved && i.resolution === null);
  if (op === '=' || op === 'in') return hit;
  // `!=` and `not in` never match an issue whose field is empty, as in Jira.
  return (i) => values(field, i, c).length > 0 && !hit(i);
}

/** The comparable values of a field of an issue (lower-cased names, ids, keys). */
function values(field: string, i: IssueDoc, c: SearchContext): string[] {
  const v = c.view;
  switch (field) {
    case 'project': return [i.project.toLowerCase()];
    case 'key': return [i.key.toLowerCase()];
    case 'id': return [i.id];
    case 'status': return [i.status.toLowerCase()];
    case 'statuscategory': return [statusByName(v, i.status).category];
    case 'assignee': return i.assignee ? [i.assignee] : [];
    case 'reporter': return [i.reporter];
    case 'creator': return [i.creator];
    case 'watcher': return i.watchers;
    case 'worklogauthor': return [...new Set(c.view.db.worklogs.filter((w) => w.issue === i.key).map((w) => w.author))];
    case 'labels': return i.labels.map((l) => l.toLowerCase());
    case 'issuetype': return [i.issuetype.toLowerCase()];
    case 'priority': return [i.priority.toLowerCase()];
    case 'resolution': return i.resolution ? [i.resolution.toLowerCase()] : [];
    case 'sprint': return i.sprint === null ? [] : [String(i.sprint)];
    case 'parent': return i.parent ? [i.parent.toLowerCase()] : [];
    case 'component': return i.components.map((x) => x.toLowerCase());
    case 'fixversion': return i.fixVersions.map((x) => x.toLowerCase());
    case 'duedate': return i.duedate ? [i.duedate] : [];
    case 'resolutiondate': return i.resolutiondate ? [i.resolutiondate] : [];
    case 'storypoints': return i.story_points === null ? [] : [String(i.story_points)];
    case 'summary': case 'description': case 'comment': case 'environment': case 'text': { const t = textOf(field, i, c); return t ? [t] : []; }
    default: return [];
  }
}

/** What `=`/`in` compares against: the operand resolved to the field's values; unknown names are Jira's errors. */
function resolve(field: string, operand: Operand, c: SearchContext, label: string): Set<string> {
  const out = new Set<string>();
  const add = (o: Operand): void => {
    if (o.kind === 'list') { o.values.forEach(add); return; }
    if (o.kind === 'empty') return;
    if (o.kind === 'function') { for (const v of functionValues(field, o, c, label)) out.add(v); return; }
    out.add(valueOf(field, o.value, c, label));
  };
  add(operand);
  return out;
}

function noValue(value: string, label: string): never {
  throw new JqlError(`The value '${value}' does not exist for the field '${label}'.`);
}

function valueOf(field: string, raw: string, c: SearchContext, label: string): string {
  const v = c.view;
  const lower = raw.toLowerCase();
  switch (field) {
    case 'project': {
      const p = v.db.projects.find((x) => x.key.toLowerCase() === lower || x.name.toLowerCase() === lower || x.id === raw);
      return p ? p.key.toLowerCase() : noValue(raw, label);
    }
    case 'key': case 'parent': {
      const issue = v.db.issues.get(raw.toUpperCase()) ?? v.db.issues.find((x) => x.id === raw);
      if (!issue) throw new JqlError(`An issue with key '${raw}' does not exist for field '${label}'.`);
      return issue.key.toLowerCase();
    }
    case 'status': {
      const s = v.db.statuses.find((x) => x.name.toLowerCase() === lower || x.id === raw);
      return s ? s.name.toLowerCase() : noValue(raw, label);
    }
    case 'statuscategory': {
      const map: Record<string, string> = { 'to do': 'new', new: 'new', '2': 'new', 'in progress': 'indeterminate', indeterminate: 'indeterminate', '4': 'indeterminate', done: 'done', '3': 'done' };
      return map[lower] ?? noValue(raw, label);
    }
    case 'assignee': case 'reporter': case 'creator': case 'watcher': {
      const u = findUser(v.tenant, raw);
      return u ? u.accountId : noValue(raw, label);
    }
    case 'issuetype': return ISSUE_TYPES.find((t) => t.name.toLowerCase() === lower || t.id === raw)?.name.toLowerCase() ?? noValue(raw, label);
    case 'priority': return PRIORITIES.find((p) => p.name.toLowerCase() === lower || p.id === raw)?.name.toLowerCase() ?? noValue(raw, label);
    case 'resolution': return lower === 'unresolved' ? UNRESOLVED : RESOLUTIONS.find((r) => r.name.toLowerCase() === lower || r.id === raw)?.name.toLowerCase() ?? noValue(raw, label);
    case 'worklogauthor': {
      const u = findUser(v.tenant, raw);
      return u ? u.accountId : noValue(raw, label);
    }
    case 'sprint': {
      const s = v.db.sprints.find((x) => String(x.id) === raw || x.name.toLowerCase() === lower);
      return s ? String(s.id) : noValue(raw, label);
    }
    case 'id': return raw;
    case 'duedate': case 'created': case 'updated': case 'resolutiondate': return raw;
    default: return lower;
  }
}

function functionValues(field: string, o: Extract<Operand, { kind: 'function' }>, c: SearchContext, label: string): string[] {
  const name = o.name.toLowerCase();
  if (name === 'currentuser') return [c.me];
  if (name === 'opensprints' || name === 'closedsprints' || name === 'futuresprints') {
    if (field !== 'sprint') throw new JqlError(`The function '${o.name}' is not supported by the '${label}' field.`);
    const state = name === 'opensprints' ? 'active' : name === 'closedsprints' ? 'closed' : 'future';
    return c.view.db.sprints.filter((s) => s.state === state).map((s) => String(s.id));
  }
  throw new JqlError(`Unable to find JQL function '${o.name}(${o.args.join(', ')})'.`);
}

function textOf(field: string, i: IssueDoc, c: SearchContext): string {
  const comments = () => c.view.db.comments.filter((x) => x.issue === i.key).map((x) => adfText(x.body)).join('\n');
  switch (field) {
    case 'summary': return i.summary;
    case 'description': return adfText(i.description);
    case 'environment': return adfText(i.environment);
    case 'comment': return comments();
    default: return [i.summary, adfText(i.description), adfText(i.environment), comments()].join('\n');
  }
}

const words = (text: string) => text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
const stem = (w: string) => w.replace(/(ing|ed|es|s)$/, '') || w;

/**
 * Jira's text search, simplified: every word of the term must occur (a light English stemming,
 * `term*` a prefix); a term in escaped quotes (`"\"exact phrase\""`) must occur as a phrase.
 */
function textMatcher(term: string): (text: string) => boolean {
  const phrase = /^"(.*)"$/.exec(term.trim());
  if (phrase) {
    const want = words(phrase[1]!).join(' ');
    return (text) => ` ${words(text).join(' ')} `.includes(` ${want} `);
  }
  const parts = term.toLowerCase().split(/\s+/).filter(Boolean).map((p) => ({ prefix: p.endsWith('*'), word: words(p).join('') })).filter((p) => p.word !== '');
  return (text) => {
    const ws = words(text);
    const stems = new Set(ws.map(stem));
    return parts.every((p) => (p.prefix ? ws.some((w) => w.startsWith(p.word)) : stems.has(stem(p.word))));
  };
}


/** A date operand as milliseconds: `2025-09-01`, `2025/09/01 10:00`, `-7d`, `now()`, `startOfDay()`. */
function ordinal(field: string, o: Operand, c: SearchContext, label: string): number {
  if (field === 'storypoints') {
    if (o.kind === 'value' && !Number.isNaN(Number(o.value))) return Number(o.value);
    throw new JqlError(`The value '${o.kind === 'value' ? o.value : ''}' is not a valid number for the field '${label}'.`);
  }
  if (field === 'priority' && o.kind === 'value') {
    const p = PRIORITIES.find((x) => x.name.toLowerCase() === o.value.toLowerCase());
    if (!p) noValue(o.value, label);
    return -Number(p.id);
  }
  if (!['created', 'updated', 'duedate', 'resolutiondate'].includes(field)) throw new JqlError(`The operator '>' is not supported by the '${label}' field.`);
  if (o.kind === 'function') {
    const n = o.name.toLowerCase();
    const offset = o.args[0] ? relative(o.args[0]) ?? 0 : 0;
    if (n === 'now') return c.nowMs + offset;
    if (n === 'startofday') return Math.floor(c.nowMs / DAY) * DAY + offset;
    if (n === 'endofday') return Math.floor(c.nowMs / DAY) * DAY + DAY - 1 + offset;
    throw new JqlError(`Unable to find JQL function '${o.name}(${o.args.join(', ')})'.`);
  }
  if (o.kind !== 'value') throw new JqlError(`Date value '' for field '${label}' is invalid.`);
  const rel = relative(o.value);
  if (rel !== null) return c.nowMs + rel;
  const m = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:\s+(\d{1,2}):(\d{2}))?$/.exec(o.value.trim());
  if (!m) throw new JqlError(`Date value '${o.value}' for field '${label}' is invalid. Valid formats include: 'yyyy/MM/dd HH:mm', 'yyyy-MM-dd HH:mm', 'yyyy/MM/dd', 'yyyy-MM-dd', or a period format e.g. '-5d', '4w 2d'.`);
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4] ?? 0), Number(m[5] ?? 0));
}

function relative(text: string): number | null {
  const m = /^([-+]?)((?:\d+[wdhm]\s*)+)$/.exec(text.trim());
  if (!m) return null;
  const unit: Record<string, number> = { w: 7 * DAY, d: DAY, h: 3_600_000, m: 60_000 };
  let total = 0;
  for (const part of m[2]!.matchAll(/(\d+)([wdhm])/g)) total += Number(part[1]) * unit[part[2]!]!;
  return m[1] === '-' ? -total : total;
}

function ordinalOf(field: string, i: IssueDoc, _c: SearchContext): number | null {
  const time = (s: string | null) => (s === null ? null : Date.parse(s.replace(/\+0000$/, 'Z')));
  switch (field) {
    case 'created': return time(i.created);
    case 'updated': return time(i.updated);
    case 'resolutiondate': return time(i.resolutiondate);
    case 'duedate': return i.duedate ? Date.parse(`${i.duedate}T00:00:00Z`) : null;
    case 'storypoints': return i.story_points;
    case 'priority': return -Number(PRIORITIES.find((p) => p.name === i.priority)?.id ?? 3);
    default: return null;
  }
}

type SortKey = number | string | null;

function sortKey(field: string, i: IssueDoc, c: SearchContext): SortKey {
  const name = canonical(field);
  switch (name) {
    case 'key': return `${i.project}\u0000${String(Number(i.key.split('-').pop())).padStart(10, '0')}`;
    case 'id': return Number(i.id);
    case 'rank': return i.rank;
    case 'summary': return i.summary.toLowerCase();
    case 'status': return i.status.toLowerCase();
    case 'issuetype': return i.issuetype.toLowerCase();
    case 'project': return i.project;
    case 'assignee': return i.assignee ? c.view.tenant.users.get(i.assignee)?.displayName.toLowerCase() ?? null : null;
    case 'reporter': return c.view.tenant.users.get(i.reporter)?.displayName.toLowerCase() ?? null;
    default: return ordinalOf(name, i, c);
  }
}

/** Nulls last in ascending order, as Jira sorts empty fields. */
function compareKeys(a: SortKey, b: SortKey): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
}
