import type { AtlassianCtx } from '../context.js';
import { findUser } from '../model.js';
import { JqlError, parseJql, type Clause, type Operand } from '../jira/jql.js';
import { confluenceDb, storageText, type ContentDoc } from './model.js';
import { confluenceError } from './errors.js';

/**
 * A subset of CQL over Confluence content: the same grammar as JQL (jira/jql.ts parses both), with
 * fields `space`, `type`, `title`, `text`, `label`, `creator`, `contributor`, `lastmodifier`
 * (`lastModifier`), `mention`, `id`, `ancestor`, `parent`, `container`, `created`,
 * `lastmodified`; functions currentUser() and now(). Trashed content is never found.
 */
type Test = (doc: ContentDoc) => boolean;
const DAY = 86_400_000;

export function runCql(c: AtlassianCtx, cql: string, me: string): ContentDoc[] {
  let query;
  try {
    query = parseJql(cql);
  } catch (error) {
    if (error instanceof JqlError) throw cqlError(`Could not parse cql : ${cql}`);
    throw error;
  }
  const db = confluenceDb(c.ctx.store);
  const test = query.where ? compile(c, query.where, me) : () => true;
  const found = db.content.filter((d) => d.status !== 'trashed' && d.status !== 'draft' && test(d));
  const order = query.orderBy;
  return found.map((d, i) => ({ d, i })).sort((a, b) => {
    for (const o of order) {
      const f = o.field.toLowerCase();
      const ka = f === 'title' ? a.d.title.toLowerCase() : f === 'created' ? a.d.created : a.d.version.when;
      const kb = f === 'title' ? b.d.title.toLowerCase() : f === 'created' ? b.d.created : b.d.version.when;
      if (ka !== kb) return (ka < kb ? -1 : 1) * (o.direction === 'DESC' ? -1 : 1);
    }
    return order.length ? a.i - b.i : b.d.version.when.localeCompare(a.d.version.when) || a.i - b.i;
  }).map((x) => x.d);
}

function cqlError(message: string): Error {
  return confluenceError(400, message);
}

function compile(c: AtlassianCtx, clause: Clause, me: string): Test {
  if (clause.kind === 'and') { const p = clause.clauses.map((x) => compile(c, x, me)); return (d) => p.every((f) => f(d)); }
  if (clause.kind === 'or') { const p = clause.clauses.map((x) => compile(c, x, me)); return (d) => p.some((f) => f(d)); }
  if (clause.kind === 'not') { const inner = compile(c, clause.clause, me); return (d) => !inner(d); }
  const db = confluenceDb(c.ctx.store);
  const field = clause.field.toLowerCase();
  const op = clause.operator;
  const values = (o: Operand): string[] => (o.kind === 'list' ? o.values.flatMap(values) : o.kind === 'value' ? [o.value] : o.kind === 'function'
    ? [o.name.toLowerCase() === 'currentuser' ? me : o.name.toLowerCase() === 'now' ? new Date(c.ctx.nowMs).toISOString() : (() => { throw cqlError(`Could not parse cql : unknown function ${o.name}()`); })()] : []);
  const wanted = values(clause.operand);
  const person = (ref: string) => (ref === me ? me : findUser(c.tenant, ref)?.accountId ?? `unknown:${ref}`);
  const eq = (get: (d: ContentDoc) => string[], norm: (v: string) => string = (v) => v.toLowerCase()): Test => {
    const set = new Set(wanted.map(norm));
    const hit = (d: ContentDoc) => get(d).some((v) => set.has(norm(v)));
    if (op === '=' || op === 'in') return hit;
    if (op === '!=' || op === 'not in') return (d) => !hit(d);
    throw cqlError(`Could not parse cql : operator ${op} is not supported for field ${clause.field}`);
  };
  const text = (get: (d: ContentDoc) => string): Test => {
    if (op !== '~' && op !== '!~' && op !== '=' && op !== '!=') throw cqlError(`Could not parse cql : operator ${op} is not supported for field ${clause.field}`);
    if (op === '=' || op === '!=') { const t: Test = (d) => wanted.some((w) => get(d).toLowerCase() === w.toLowerCase()); return op === '=' ? t : (d) => !t(d); }
    const terms = wanted.join(' ').toLowerCase().split(/[^\p{L}\p{N}*]+/u).filter(Boolean);
    const words = (s: string) => s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
    const stem = (w: string) => w.replace(/(ing|ed|es|s)$/, '') || w;
    const t: Test = (d) => { const ws = words(get(d)); const stems = new Set(ws.map(stem)); return terms.every((term) => (term.endsWith('*') ? ws.some((w) => w.startsWith(term.slice(0, -1))) : stems.has(stem(term)))); };
    return op === '~' ? t : (d) => !t(d);
  };
  const date = (get: (d: ContentDoc) => string): Test => {
    const raw = wanted[0] ?? '';
    const rel = /^([-+])(\d+)([dwmy])$/.exec(raw);
    const bound = rel ? c.ctx.nowMs + (rel[1] === '-' ? -1 : 1) * Number(rel[2]) * ({ d: DAY, w: 7 * DAY, m: 30 * DAY, y: 365 * DAY } as Record<string, number>)[rel[3]!]! : Date.parse(raw.replace(/\//g, '-'));
    if (Number.isNaN(bound)) throw cqlError(`Could not parse cql : invalid date ${raw}`);
    const cmp: Record<string, (a: number) => boolean> = { '>': (a) => a > bound, '>=': (a) => a >= bound, '<': (a) => a < bound, '<=': (a) => a <= bound, '=': (a) => Math.floor(a / DAY) === Math.floor(bound / DAY) };
    const f = cmp[op];
    if (!f) throw cqlError(`Could not parse cql : operator ${op} is not supported for field ${clause.field}`);
    return (d) => f(Date.parse(get(d)));
  };
  const chain = (d: ContentDoc): string[] => {
    const out: string[] = [];
    let at = d.type === 'page' || d.type === 'blogpost' ? d.parent : d.container;
    while (at) { out.push(at); at = db.content.get(at)?.parent ?? null; }
    return out;
  };
  switch (field) {
    case 'space': case 'space.key': return eq((d) => [d.space]);
    case 'type': return eq((d) => [d.type]);
    case 'id': case 'content': return eq((d) => [d.id]);
    case 'title': return text((d) => d.title);
    case 'text': return text((d) => `${d.title} ${storageText(d.body)}`);
    case 'label': case 'labelText': return eq((d) => d.labels);
    case 'creator': return eq((d) => [d.creator], person);
    case 'lastmodifier': return eq((d) => [d.version.by], person);
    case 'contributor': return eq((d) => [d.creator, d.version.by], person);
    case 'mention': return eq((d) => [...d.body.matchAll(/ri:account-id="([^"]+)"/g)].map((m) => m[1]!), person);
    case 'ancestor': return eq(chain);
    case 'parent': return eq((d) => (d.parent ? [d.parent] : []));
    case 'container': return eq((d) => (d.container ? [d.container] : []));
    case 'created': return date((d) => d.created);
    case 'lastmodified': return date((d) => d.version.when);
    default: throw cqlError(`Could not parse cql : ${clause.field} is not a field that can be searched`);
  }
}

