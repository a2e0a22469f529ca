import { emptyResponse, jsonResponse, type ServiceResponse } from '../core/http.js';
import { numericId } from '../kit/ids.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import { accessLevel, me, visibleProject, type GlCtx } from './context.js';
import { diffLines } from './git.js';
import { discussionIdOf, glError, iso, key, notFound, paged, type NoteDoc, type Position, type ProjectDoc } from './model.js';
import { mrChanges, mrShas } from './mr-state.js';
import { argsOf, bool, need, num, str, V4 } from './params.js';
import { renderDiscussion, renderNote } from './render.js';

/**
 * Notes and discussions of issues and merge requests (`/projects/:id/{issues,merge_requests}/:iid/
 * {notes,discussions}`): one note is a discussion of its own; a thread gathers replies; a diff
 * note's position must name a line the merge request's diff shows, as GitLab checks.
 */

const json = (value: unknown, status = 200): ServiceResponse => jsonResponse(status, value);
type Kind = 'Issue' | 'MergeRequest';
const SEGMENT: Record<Kind, string> = { Issue: 'issues', MergeRequest: 'merge_requests' };

function noteable(c: GlCtx, project: ProjectDoc, kind: Kind, iid: string): { id: number; iid: number } {
  const doc = kind === 'Issue' ? c.db.issues.get(key(project.id, Number(iid))) : c.db.merge_requests.get(key(project.id, Number(iid)));
  if (!doc) throw notFound(kind === 'Issue' ? 'Issue' : 'Merge Request');
  return doc;
}

const notesOf = (c: GlCtx, kind: Kind, id: number): NoteDoc[] => c.db.notes.filter((n) => n.noteable_type === kind && n.noteable_id === id).sort((a, b) => a.id - b.id);

function discussions(c: GlCtx, kind: Kind, id: number): NoteDoc[][] {
  const groups = new Map<string, NoteDoc[]>();
  for (const n of notesOf(c, kind, id)) {
    const list = groups.get(n.discussion_id) ?? [];
    list.push(n);
    groups.set(n.discussion_id, list);
  }
  return [...groups.values()];
}

/** A system note ("closed", "changed labels …"), as GitLab records actions on an issuable. */
export function systemNote(c: GlCtx, project: ProjectDoc, kind: Kind | 'Commit', noteableId: number, iid: number, body: string): NoteDoc {
  const id = numericId(c.ctx, 'notes');
  const now = iso(c.ctx.nowMs);
  return c.db.notes.put(id, {
    id, project_id: project.id, noteable_type: kind, noteable_id: noteableId, noteable_iid: iid, discussion_id: discussionIdOf(c.ctx),
    individual: true, type: null, body, author_id: me(c).id, system: true, internal: false, created_at: now, updated_at: now,
    resolvable: false, resolved: false, resolved_by_id: null, position: null,
  });
}

function addNote(c: GlCtx, project: ProjectDoc, kind: Kind, target: { id: number; iid: number }, body: string, options: { discussion?: string; thread?: boolean; position?: Position | null; internal?: boolean }): NoteDoc {
  if (project.visibility === 'private' && accessLevel(c, project) < 10) throw glError(403, '403 Forbidden');
  const id = numericId(c.ctx, 'notes');
  const now = iso(c.ctx.nowMs);
  const thread = options.discussion !== undefined || options.thread === true || (options.position ?? null) !== null;
  const note = c.db.notes.put(id, {
    id, project_id: project.id, noteable_type: kind, noteable_id: target.id, noteable_iid: target.iid,
    discussion_id: options.discussion ?? discussionIdOf(c.ctx), individual: !thread,
    type: options.position ? 'DiffNote' : thread ? 'DiscussionNote' : null, body, author_id: me(c).id, system: false, internal: options.internal ?? false,
    created_at: now, updated_at: now, resolvable: kind === 'MergeRequest' && thread, resolved: false, resolved_by_id: null, position: options.position ?? null,
  });
  if (kind === 'Issue') c.db.issues.update(key(project.id, target.iid), { updated_at: now });
  else c.db.merge_requests.update(key(project.id, target.iid), { updated_at: now });
  return note;
}

/** A diff position from the request (`position[new_line]=…` or a JSON object), checked against the diff. */
export function positionOf(c: GlCtx, project: ProjectDoc, iid: number, raw: unknown): Position | null {
  if (raw === undefined || raw === null) return null;
  const p = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Record<string, unknown>;
  const mr = c.db.merge_requests.get(key(project.id, iid));
  if (!mr) throw notFound('Merge Request');
  const shas = mrShas(c, project, mr);
  const newPath = String(p.new_path ?? p.old_path ?? '');
  const oldPath = String(p.old_path ?? p.new_path ?? '');
  const newLine = p.new_line === undefined || p.new_line === null || p.new_line === '' ? null : Number(p.new_line);
  const oldLine = p.old_line === undefined || p.old_line === null || p.old_line === '' ? null : Number(p.old_line);
  for (const field of ['base_sha', 'start_sha', 'head_sha'] as const) if (!p[field]) throw glError(400, `400 Bad request - Note {:position=>["${field} is missing"]}`);
  const file = mrChanges(c, project, mr).find((d) => d.new_path === newPath || d.old_path === oldPath);
  const lines = file ? diffLines(file.diff) : null;
  const onDiff = lines !== null && (newLine !== null ? lines.new.has(newLine) : oldLine !== null && lines.old.has(oldLine));
  if (!onDiff || (newLine === null && oldLine === null)) {
    throw glError(400, '400 Bad request - Note {:line_code=>["can\'t be blank", "must be a valid line code"], :position=>["is incomplete"]}');
  }
  return {
    base_sha: String(p.base_sha ?? shas.base), start_sha: String(p.start_sha ?? shas.start), head_sha: String(p.head_sha ?? shas.head),
    position_type: 'text', old_path: oldPath, new_path: newPath, old_line: oldLine ?? (newLine !== null ? lines!.pairs.get(newLine) ?? null : null), new_line: newLine,
  };
}

function noteOps(kind: Kind): Operation<GlCtx>[] {
  const base = `${V4}/projects/:id/${SEGMENT[kind]}/:iid` as const;
  const name = kind === 'Issue' ? 'issueNotes' : 'mergeRequestNotes';
  const dname = kind === 'Issue' ? 'issueDiscussions' : 'mergeRequestDiscussions';
  const noteIn = (c: GlCtx, target: { id: number }, noteId: string): NoteDoc => {
    const note = c.db.notes.get(Number(noteId));
    if (!note || note.noteable_type !== kind || note.noteable_id !== target.id) throw notFound('Note');
    return note;
  };
  const editable = (c: GlCtx, note: NoteDoc) => {
    if (note.author_id !== me(c).id && accessLevel(c, c.db.projects.get(note.project_id)!) < 40) throw glError(403, '403 Forbidden');
  };
  return [
    operation<GlCtx, `${typeof base}/notes`>(`${name}.list`, rest('GET', `${base}/notes`), (call, c) => {
      const project = visibleProject(c, call.params.id);
      const target = noteable(c, project, kind, call.params.iid);
      const desc = (call.req.query.get('sort') ?? 'desc') === 'desc';
      const orderBy = call.req.query.get('order_by') ?? 'created_at';
      const notes = notesOf(c, kind, target.id).sort((a, b) => {
        const x = orderBy === 'updated_at' ? a.updated_at : a.created_at;
        const y = orderBy === 'updated_at' ? b.updated_at : b.created_at;
        const cmp = x < y ? -1 : x > y ? 1 : a.id - b.id;
        return desc ? -cmp : cmp;
      });
      return paged(notes, call.req, (n) => renderNote(c, n));
    }),
    operation<GlCtx, `${typeof base}/notes/:note`>(`${name}.get`, rest('GET', `${base}/notes/:note`), (call, c) => {
      const project = visibleProject(c, call.params.id);
      return json(renderNote(c, noteIn(c, noteable(c, project, kind, call.params.iid), call.params.note)));
    }),
    operation<GlCtx, `${typeof base}/notes`>(`${name}.create`, rest('POST', `${base}/notes`), (call, c) => {
      const project = visibleProject(c, call.params.id);
      const target = noteable(c, project, kind, call.params.iid);
      const args = argsOf(call);
      return json(renderNote(c, addNote(c, project, kind, target, need(args, 'body'), { internal: bool(args, 'internal') ?? bool(args, 'confidential') })), 201);
    }),
    operation<GlCtx, `${typeof base}/notes/:note`>(`${name}.update`, rest('PUT', `${base}/notes/:note`), (call, c) => {
      const project = visibleProject(c, call.params.id);
      const note = noteIn(c, noteable(c, project, kind, call.params.iid), call.params.note);
      editable(c, note);
      const args = argsOf(call);
      const body = str(args, 'body');
      const resolved = bool(args, 'resolved');
      if (body === undefined && resolved === undefined) throw glError(400, '400 Bad request - body or resolved is required');
      return json(renderNote(c, c.db.notes.update(note.id, { ...(body !== undefined ? { body } : {}), ...(resolved !== undefined && note.resolvable ? { resolved, resolved_by_id: resolved ? me(c).id : null } : {}), updated_at: iso(c.ctx.nowMs) })!));
    }),
    operation<GlCtx, `${typeof base}/notes/:note`>(`${name}.delete`, rest('DELETE', `${base}/notes/:note`), (call, c) => {
      const project = visibleProject(c, call.params.id);
      const note = noteIn(c, noteable(c, project, kind, call.params.iid), call.params.note);
      editable(c, note);
      c.db.notes.delete(note.id);
      return emptyResponse(204);
    }),

    operation<GlCtx, `${typeof base}/discussions`>(`${dname}.list`, rest('GET', `${base}/discussions`), (call, c) => {
      const project = visibleProject(c, call.params.id);
      const target = noteable(c, project, kind, call.params.iid);
      return paged(discussions(c, kind, target.id), call.req, (d) => renderDiscussion(c, d));
    }),
    operation<GlCtx, `${typeof base}/discussions/:discussion`>(`${dname}.get`, rest('GET', `${base}/discussions/:discussion`), (call, c) => {
      const project = visibleProject(c, call.params.id);
      const target = noteable(c, project, kind, call.params.iid);
      const d = discussions(c, kind, target.id).find((x) => x[0]!.discussion_id === call.params.discussion);
      if (!d) throw notFound('Discussion');
      return json(renderDiscussion(c, d));
    }),
    operation<GlCtx, `${typeof base}/discussions`>(`${dname}.create`, rest('POST', `${base}/discussions`), (call, c) => {
      const project = visibleProject(c, call.params.id);
      const target = noteable(c, project, kind, call.params.iid);
      const args = argsOf(call);
      const body = need(args, 'body');
      const position = kind === 'MergeRequest' ? positionOf(c, project, target.iid, args.position ?? positionFromFlat(args)) : null;
      const note = addNote(c, project, kind, target, body, { thread: true, position, internal: bool(args, 'internal') });
      return json(renderDiscussion(c, [note]), 201);
    }),
    operation<GlCtx, `${typeof base}/discussions/:discussion`>(`${dname}.resolve`, rest('PUT', `${base}/discussions/:discussion`), (call, c) => {
      const project = visibleProject(c, call.params.id);
      const target = noteable(c, project, kind, call.params.iid);
      const d = discussions(c, kind, target.id).find((x) => x[0]!.discussion_id === call.params.discussion);
      if (!d) throw notFound('Discussion');
      const resolved = bool(argsOf(call), 'resolved');
      if (resolved === undefined) throw glError(400, '{"error":"resolved is missing"}');
      if (!d[0]!.resolvable) throw glError(403, '403 Forbidden');
      for (const n of d) c.db.notes.update(n.id, { resolved, resolved_by_id: resolved ? me(c).id : null, updated_at: iso(c.ctx.nowMs) });
      return json(renderDiscussion(c, d.map((n) => c.db.notes.get(n.id)!)));
    }),
    operation<GlCtx, `${typeof base}/discussions/:discussion/notes`>(`${dname}.addNote`, rest('POST', `${base}/discussions/:discussion/notes`), (call, c) => {
      const project = visibleProject(c, call.params.id);
      const target = noteable(c, project, kind, call.params.iid);
      const d = discussions(c, kind, target.id).find((x) => x[0]!.discussion_id === call.params.discussion);
      if (!d) throw notFound('Discussion');
      const note = addNote(c, project, kind, target, need(argsOf(call), 'body'), { discussion: d[0]!.discussion_id });
      // A reply turns a single note into a thread.
      if (d[0]!.individual) for (const n of d) c.db.notes.update(n.id, { individual: false, type: n.type ?? 'DiscussionNote', resolvable: kind === 'MergeRequest' });
      return json(renderNote(c, note), 201);
    }),
    operation<GlCtx, `${typeof base}/discussions/:discussion/notes/:note`>(`${dname}.updateNote`, rest('PUT', `${base}/discussions/:discussion/notes/:note`), (call, c) => {
      const project = visibleProject(c, call.params.id);
      const note = noteIn(c, noteable(c, project, kind, call.params.iid), call.params.note);
      if (note.discussion_id !== call.params.discussion) throw notFound('Note');
      const args = argsOf(call);
      const body = str(args, 'body');
      const resolved = bool(args, 'resolved');
      if (body === undefined && resolved === undefined) throw glError(400, '400 Bad request - body or resolved is required');
      if (body !== undefined) editable(c, note);
      return json(renderNote(c, c.db.notes.update(note.id, { ...(body !== undefined ? { body } : {}), ...(resolved !== undefined ? { resolved, resolved_by_id: resolved ? me(c).id : null } : {}), updated_at: iso(c.ctx.nowMs) })!));
    }),
    operation<GlCtx, `${typeof base}/discussions/:discussion/notes/:note`>(`${dname}.deleteNote`, rest('DELETE', `${base}/discussions/:discussion/notes/:note`), (call, c) => {
      const project = visibleProject(c, call.params.id);
      const note = noteIn(c, noteable(c, project, kind, call.params.iid), call.params.note);
      if (note.discussion_id !== call.params.discussion) throw notFound('Note');
      editable(c, note);
      c.db.notes.delete(note.id);
      return emptyResponse(204);
    }),
  ];
}

/** `position[base_sha]=…` form fields, decoded flat by some clients. */
function positionFromFlat(args: Record<string, unknown>): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) {
    const m = /^position\[(\w+)\]$/.exec(k);
    if (m) out[m[1]!] = v;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

export const noteOperations: Operation<GlCtx>[] = [...noteOps('Issue'), ...noteOps('MergeRequest')];

