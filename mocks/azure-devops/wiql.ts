import { adoError } from './model.js';

/**
 * A WIQL subset, parsed and run over the store's work items: `SELECT [f], … FROM WorkItems WHERE …
 * ORDER BY [f] [ASC|DESC], …` with AND / OR / NOT and parentheses; operators `= <> > < >= <=`,
 * `CONTAINS`, `CONTAINS WORDS`, `IN`, `UNDER`, `EVER` (as `=`), their `NOT` forms and `IS [NOT]
 * EMPTY`; macros `@project`, `@me`, `@today` (± days). Field names are reference names
 * (`System.State`) or the display names ADO also accepts (`State`, `Assigned To`). Link queries
 * (`FROM WorkItemLinks`) are refused as the mock does not model them (docs/azure-devops-mock.md).
 */
export interface WiqlQuery { columns: string[]; where: Cond | null; orderBy: { field: string; descending: boolean }[] }
export type Value = string | number | { macro: 'project' | 'me' | 'today'; offset: number };
export type Cond =
  | { kind: 'and' | 'or'; left: Cond; right: Cond }
  | { kind: 'not'; cond: Cond }
  | { kind: 'cmp'; field: string; op: string; values: Value[] };

const DISPLAY: Record<string, string> = {
  id: 'System.Id', title: 'System.Title', state: 'System.State', reason: 'System.Reason', 'assigned to': 'System.AssignedTo',
  'work item type': 'System.WorkItemType', 'area path': 'System.AreaPath', 'iteration path': 'System.IterationPath',
  'team project': 'System.TeamProject', tags: 'System.Tags', 'created date': 'System.CreatedDate', 'changed date': 'System.ChangedDate',
  'created by': 'System.CreatedBy', 'changed by': 'System.ChangedBy', description: 'System.Description', priority: 'Microsoft.VSTS.Common.Priority',
  severity: 'Microsoft.VSTS.Common.Severity', 'story points': 'Microsoft.VSTS.Scheduling.StoryPoints', 'repro steps': 'Microsoft.VSTS.TCM.ReproSteps',
  'closed date': 'Microsoft.VSTS.Common.ClosedDate', 'resolved date': 'Microsoft.VSTS.Common.ResolvedDate', rev: 'System.Rev',
};

/** A field's reference name from what a query or a patch names. */
export function referenceName(name: string): string {
  const key = name.trim().toLowerCase();
  if (DISPLAY[key]) return DISPLAY[key];
  const known = Object.values(DISPLAY).find((r) => r.toLowerCase() === key);
  return known ?? name.trim();
}

type Token = { t: 'field' | 'str' | 'num' | 'word' | 'sym' | 'macro'; v: string };

function tokenize(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) { i++; continue; }
    if (c === '[') {
      const end = text.indexOf(']', i);
      if (end < 0) throw syntax(`Expecting ']' at ${i}.`);
      out.push({ t: 'field', v: text.slice(i + 1, end) }); i = end + 1; continue;
    }
    if (c === "'" || c === '"') {
      let j = i + 1; let s = '';
      for (;;) {
        if (j >= text.length) throw syntax('Unterminated string literal.');
        if (text[j] === c && text[j + 1] === c) { s += c; j += 2; continue; }
        if (text[j] === c) break;
        s += text[j]; j++;
      }
      out.push({ t: 'str', v: s }); i = j + 1; continue;
    }
    if (c === '@') {
      const m = /^@\w+/.exec(text.slice(i))!;
      out.push({ t: 'macro', v: m[0].slice(1).toLowerCase() }); i += m[0].length; continue;
    }
    const sym = /^(<>|>=|<=|=|<|>|\(|\)|,|-|\+)/.exec(text.slice(i));
    if (sym) { out.push({ t: 'sym', v: sym[0] }); i += sym[0].length; continue; }
    const num = /^\d+(\.\d+)?/.exec(text.slice(i));
    if (num) { out.push({ t: 'num', v: num[0] }); i += num[0].length; continue; }
    const word = /^[A-Za-z_][\w.]*/.exec(text.slice(i));
    if (word) { out.push({ t: 'word', v: word[0] }); i += word[0].length; continue; }
    throw syntax(`Unexpected character '${c}'.`);
  }
  return out;
}

const syntax = (detail: string) => adoError(400, 'SyntaxException', `TF51006: The query statement is invalid. ${detail}`, { namespace: 'Microsoft.TeamFoundation.WorkItemTracking.Server' });

export function parseWiql(text: string): WiqlQuery {
  const tokens = tokenize(text);
  let p = 0;
  const peekWord = (w: string, k = 0) => tokens[p + k]?.t === 'word' && tokens[p + k]!.v.toUpperCase() === w;
  const expectWord = (w: string) => { if (!peekWord(w)) throw syntax(`Expecting '${w}'.`); p++; };
  const field = (): string => {
    const t = tokens[p];
    if (t?.t === 'field' || t?.t === 'word') { p++; return referenceName(t.v); }
    throw syntax('Expecting field name.');
  };
  expectWord('SELECT');
  const columns: string[] = [];
  do { columns.push(field()); } while (tokens[p]?.v === ',' && ++p);
  expectWord('FROM');
  const source = tokens[p++]?.v.toLowerCase();
  if (source === 'workitemlinks') throw adoError(400, 'QueryException', 'TF51005: The query references a link type query (WorkItemLinks), which this organization does not support here. Use FROM WorkItems.', { namespace: 'Microsoft.TeamFoundation.WorkItemTracking.Server' });
  if (source !== 'workitems') throw syntax("Expecting 'WorkItems' after FROM.");

  const value = (): Value => {
    const t = tokens[p++];
    if (!t) throw syntax('Expecting a value.');
    if (t.t === 'str') return t.v;
    if (t.t === 'num') return Number(t.v);
    if (t.t === 'sym' && t.v === '-' && tokens[p]?.t === 'num') return -Number(tokens[p++]!.v);
    if (t.t === 'macro') {
      if (t.v !== 'project' && t.v !== 'me' && t.v !== 'today') throw syntax(`The macro @${t.v} is not supported.`);
      let offset = 0;
      if ((tokens[p]?.v === '-' || tokens[p]?.v === '+') && tokens[p + 1]?.t === 'num') {
        offset = (tokens[p]!.v === '-' ? -1 : 1) * Number(tokens[p + 1]!.v); p += 2;
      }
      return { macro: t.v, offset };
    }
    if (t.t === 'field') return t.v;
    throw syntax(`Unexpected '${t.v}'.`);
  };
  const comparison = (): Cond => {
    if (tokens[p]?.v === '(') {
      p++; const inner = or();
      if (tokens[p++]?.v !== ')') throw syntax("Expecting ')'.");
      return inner;
    }
    if (peekWord('NOT')) { p++; return { kind: 'not', cond: comparison() }; }
    const f = field();
    let negate = false;
    if (peekWord('NOT')) { negate = true; p++; }
    let op: string;
    const t = tokens[p];
    if (t?.t === 'sym' && ['=', '<>', '>', '<', '>=', '<='].includes(t.v)) { op = t.v; p++; }
    else if (peekWord('CONTAINS')) { p++; op = 'contains'; if (peekWord('WORDS')) { p++; op = 'words'; } }
    else if (peekWord('IN')) { p++; op = 'in'; }
    else if (peekWord('UNDER')) { p++; op = 'under'; }
    else if (peekWord('EVER')) { p++; op = '='; }
    else if (peekWord('IS')) {
      p++; let empty = 'empty';
      if (peekWord('NOT')) { p++; empty = 'notempty'; }
      expectWord('EMPTY');
      const cond: Cond = { kind: 'cmp', field: f, op: empty, values: [] };
      return negate ? { kind: 'not', cond } : cond;
    } else throw syntax(`Expecting an operator after [${f}].`);
    let values: Value[];
    if (op === 'in') {
      if (tokens[p++]?.v !== '(') throw syntax("Expecting '(' after IN.");
      values = [];
      do { values.push(value()); } while (tokens[p]?.v === ',' && ++p);
      if (tokens[p++]?.v !== ')') throw syntax("Expecting ')'.");
    } else values = [value()];
    const cond: Cond = { kind: 'cmp', field: f, op, values };
    return negate ? { kind: 'not', cond } : cond;
  };
  const and = (): Cond => {
    let left = comparison();
    while (peekWord('AND')) { p++; left = { kind: 'and', left, right: comparison() }; }
    return left;
  };
  const or = (): Cond => {
    let left = and();
    while (peekWord('OR')) { p++; left = { kind: 'or', left, right: and() }; }
    return left;
  };
  let where: Cond | null = null;
  if (peekWord('WHERE')) { p++; where = or(); }
  const orderBy: WiqlQuery['orderBy'] = [];
  if (peekWord('ORDER')) {
    p++; expectWord('BY');
    do {
      const f = field();
      let descending = false;
      if (peekWord('DESC')) { p++; descending = true; } else if (peekWord('ASC')) p++;
      orderBy.push({ field: f, descending });
    } while (tokens[p]?.v === ',' && ++p);
  }
  if (peekWord('ASOF')) p += 2;
  if (p < tokens.length) throw syntax(`Unexpected '${tokens[p]!.v}'.`);
  return { columns, where, orderBy };
}

/** What macros resolve to for one query. */
export interface WiqlEnv { project: string | null; me: string; todayMs: number }

type Fields = Record<string, unknown>;

function resolve(v: Value, env: WiqlEnv): string | number {
  if (typeof v !== 'object') return v;
  if (v.macro === 'project') {
    if (env.project === null) throw adoError(400, 'QueryException', 'TF51011: The specified @project macro requires a project context.', { namespace: 'Microsoft.TeamFoundation.WorkItemTracking.Server' });
    return env.project;
  }
  if (v.macro === 'me') return env.me;
  return new Date(Math.floor(env.todayMs / 86400000) * 86400000 + v.offset * 86400000).toISOString();
}

function asText(field: string, value: unknown): string {
  if (value === undefined || value === null) return '';
  return String(value);
}

/** Identity fields compare by uniqueName, display name, or "Name <uniqueName>". */
function identityMatches(stored: string, wanted: string, display: (u: string) => string): boolean {
  const w = wanted.toLowerCase();
  return stored.toLowerCase() === w || display(stored).toLowerCase() === w || `${display(stored)} <${stored}>`.toLowerCase() === w;
}

export const IDENTITY_FIELDS = new Set(['System.AssignedTo', 'System.CreatedBy', 'System.ChangedBy', 'Microsoft.VSTS.Common.ActivatedBy', 'Microsoft.VSTS.Common.ResolvedBy', 'Microsoft.VSTS.Common.ClosedBy']);
const DATE_FIELDS = /Date$/;

export function matches(cond: Cond | null, fields: Fields, env: WiqlEnv, display: (u: string) => string): boolean {
  if (cond === null) return true;
  if (cond.kind === 'not') return !matches(cond.cond, fields, env, display);
  if (cond.kind === 'cmp') return compare(cond, fields, env, display);
  return cond.kind === 'and'
    ? matches(cond.left, fields, env, display) && matches(cond.right, fields, env, display)
    : matches(cond.left, fields, env, display) || matches(cond.right, fields, env, display);
}

function compare(cond: Extract<Cond, { kind: 'cmp' }>, fields: Fields, env: WiqlEnv, display: (u: string) => string): boolean {
  const raw = fields[cond.field];
  const text = asText(cond.field, raw);
  const values = cond.values.map((v) => resolve(v, env));
  const identity = IDENTITY_FIELDS.has(cond.field);
  const eq = (v: string | number) => {
    if (identity) return text !== '' && identityMatches(text, String(v), display);
    if (typeof raw === 'number') return raw === Number(v);
    return text.toLowerCase() === String(v).toLowerCase();
  };
  const cmp = (v: string | number): number => {
    if (typeof raw === 'number') return raw - Number(v);
    if (DATE_FIELDS.test(cond.field)) return Date.parse(text) - Date.parse(String(v));
    return text.localeCompare(String(v));
  };
  switch (cond.op) {
    case '=': return eq(values[0]!);
    case '<>': return !eq(values[0]!);
    case '>': return text !== '' && cmp(values[0]!) > 0;
    case '<': return text !== '' && cmp(values[0]!) < 0;
    case '>=': return text !== '' && cmp(values[0]!) >= 0;
    case '<=': return text !== '' && cmp(values[0]!) <= 0;
    case 'contains': return text.toLowerCase().includes(String(values[0]).toLowerCase());
    case 'words': return String(values[0]).toLowerCase().split(/\s+/).filter(Boolean).every((w) => new RegExp(`(^|\\W)${w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'i').test(text));
    case 'in': return values.some(eq);
    case 'under': {
      const root = String(values[0]).toLowerCase();
      const t = text.toLowerCase();
      return t === root || t.startsWith(`${root}\\`);
    }
    case 'empty': return text === '';
    case 'notempty': return text !== '';
  }
  return false;
}

export function sortBy(orderBy: WiqlQuery['orderBy'], a: Fields, b: Fields): number {
  for (const { field, descending } of orderBy) {
    const x = a[field]; const y = b[field];
    const c = typeof x === 'number' && typeof y === 'number' ? x - y : asText(field, x).localeCompare(asText(field, y));
    if (c !== 0) return descending ? -c : c;
  }
  return Number(a['System.Id']) - Number(b['System.Id']);
}
