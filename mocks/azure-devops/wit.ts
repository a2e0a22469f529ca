import { jsonResponse, type ServiceResponse } from '../core/http.js';
import type { Operation } from '../kit/operation.js';
import { operation } from '../kit/operation.js';
import { uuidId } from '../kit/ids.js';
import { identityRef, meOf, optionalProject, projectOf, q, qInt, teamOf, userOf, type AdoCtx } from './context.js';
import { ado } from './locations.js';
import { adoError, badRequest, iso, list, type ProjectDoc, type WorkItemDoc } from './model.js';
import { IDENTITY_FIELDS, matches, parseWiql, referenceName, sortBy } from './wiql.js';

/**
 * Work item tracking (`_apis/wit`): work items with JSON Patch create and update (rules: a title,
 * the type's states, existing area and iteration paths, known identities), revisions, comments,
 * links, the `$batch` endpoint, WIQL and saved queries, work item types, classification nodes.
 */

const WIT_NS = 'Microsoft.TeamFoundation.WorkItemTracking.Server';
const witError = (status: number, typeKey: string, message: string, eventId = 3200) => adoError(status, typeKey, message, { namespace: WIT_NS, eventId });

/** The Agile process's states per type, the first one a new item's; and each state's category. */
export const STATES: Record<string, string[]> = {
  Bug: ['New', 'Active', 'Resolved', 'Closed'],
  Task: ['New', 'Active', 'Closed', 'Removed'],
  'User Story': ['New', 'Active', 'Resolved', 'Closed', 'Removed'],
  Feature: ['New', 'Active', 'Resolved', 'Closed', 'Removed'],
  Epic: ['New', 'Active', 'Resolved', 'Closed', 'Removed'],
  Issue: ['Active', 'Closed'],
  'Test Case': ['Design', 'Ready', 'Closed'],
};
const CATEGORY: Record<string, string> = { New: 'Proposed', Design: 'Proposed', Active: 'InProgress', Ready: 'InProgress', Resolved: 'Resolved', Closed: 'Completed', Removed: 'Removed' };
const COLORS: Record<string, string> = { Bug: 'CC293D', Task: 'F2CB1D', 'User Story': '009CCC', Feature: '773B93', Epic: 'FF7B00', Issue: 'B4009E', 'Test Case': '004B50' };
/** The Reason ADO writes for a move into each state. */
const REASON: Record<string, string> = { New: 'New', Active: 'Reactivated', Resolved: 'Fixed', Closed: 'Fixed', Removed: 'Removed from the backlog', Design: 'New', Ready: 'Completed design' };

export const witUrl = (c: AdoCtx, id: number) => `${c.base}/_apis/wit/workItems/${id}`;

export function typeOf(name: string): string {
  const found = Object.keys(STATES).find((t) => t.toLowerCase() === name.toLowerCase());
  if (!found) throw witError(404, 'WorkItemTypeNotFoundException', `TF201036: You cannot add a link to work item type ${name}. Work item type ${name} does not exist.`);
  return found;
}

const display = (c: AdoCtx) => (u: string) => userOf(c, u)?.displayName ?? u;

/** ADO renders identity fields as IdentityRefs, tags as `a; b`. */
function renderFields(c: AdoCtx, fields: Record<string, unknown>, only?: string[]) {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) {
    if (only && !only.some((f) => f.toLowerCase() === k.toLowerCase())) continue;
    if (v === null || v === undefined || v === '') continue;
    out[k] = IDENTITY_FIELDS.has(k) ? identityRef(c, String(v)) : v;
  }
  return out;
}

export function renderWorkItem(c: AdoCtx, w: WorkItemDoc, options: { fields?: string[]; expand?: string } = {}) {
  // The SDK sends WorkItemExpand as its number (0 None, 1 Relations, 2 Fields, 3 Links, 4 All).
  const expand = (['none', 'relations', 'fields', 'links', 'all'][Number(options.expand)] ?? options.expand ?? 'none').toLowerCase();
  const withRelations = expand === 'relations' || expand === 'all';
  const project = c.db.projects.get(w.project)!;
  return {
    id: w.id, rev: w.rev, fields: renderFields(c, w.fields, options.fields),
    ...(withRelations ? { relations: w.relations } : {}),
    ...(options.fields ? {} : { commentVersionRef: commentRef(c, w) }),
    _links: {
      self: { href: witUrl(c, w.id) }, workItemUpdates: { href: `${witUrl(c, w.id)}/updates` }, workItemRevisions: { href: `${witUrl(c, w.id)}/revisions` },
      workItemComments: { href: `${c.base}/${project.id}/_apis/wit/workItems/${w.id}/comments` }, html: { href: `${c.base}/${encodeURIComponent(project.name)}/_workitems/edit/${w.id}` },
      workItemType: { href: `${c.base}/${project.id}/_apis/wit/workItemTypes/${encodeURIComponent(String(w.fields['System.WorkItemType']))}` }, fields: { href: `${c.base}/${project.id}/_apis/wit/fields` },
    },
    url: witUrl(c, w.id),
  };
}

function commentRef(c: AdoCtx, w: WorkItemDoc) {
  const last = c.db.comments.values().filter((x) => x.workItemId === w.id).at(-1);
  return last ? { commentId: last.id, version: last.version, url: `${witUrl(c, w.id)}/comments/${last.id}/versions/${last.version}` } : undefined;
}

export function workItemOf(c: AdoCtx, id: string | number): WorkItemDoc {
  const n = Number(id);
  const found = Number.isInteger(n) ? c.db.work_items.get(String(n)) : undefined;
  if (!found) throw witError(404, 'WorkItemUnauthorizedAccessException', `TF401232: Work item ${id} does not exist, or you do not have permissions to read it.`);
  return found;
}

/** Area or iteration path check: `Project` or `Project\Sub\…` that the project defines. */
function checkTreePath(c: AdoCtx, project: ProjectDoc, field: 'System.AreaPath' | 'System.IterationPath', value: string, id: number) {
  const known = field === 'System.AreaPath'
    ? [project.name, ...project.areas.map((a) => `${project.name}\\${a.replace(/\//g, '\\')}`)]
    : [project.name, ...c.db.iterations.values().filter((i) => i.project === project.id).map((i) => i.path)];
  if (!known.some((k) => k.toLowerCase() === value.toLowerCase())) {
    throw witError(400, 'WorkItemFieldInvalidTreeNameException', `TF401347: Invalid tree name given for work item ${id}, field '${field}'.`);
  }
  return known.find((k) => k.toLowerCase() === value.toLowerCase())!;
}

interface PatchOp { op: string; path: string; value?: unknown; from?: string }

/**
 * Applies a JSON Patch document to a work item's fields and relations, then checks ADO's rules.
 * Returns the new fields and relations; throws ADO's rule errors without touching the store.
 */
function applyPatch(c: AdoCtx, project: ProjectDoc, base: WorkItemDoc, document: unknown, creating: boolean): { fields: Record<string, unknown>; relations: WorkItemDoc['relations'] } {
  if (!Array.isArray(document) || document.length === 0) throw badRequest('You must pass a valid patch document in the body of the request.');
  const fields = { ...base.fields };
  const relations = [...base.relations];
  for (const raw of document as PatchOp[]) {
    const op = String(raw?.op ?? '').toLowerCase();
    const path = String(raw?.path ?? '');
    if (!['add', 'replace', 'remove', 'test', 'copy', 'move'].includes(op)) throw badRequest(`Invalid patch operation '${raw?.op}'.`);
    if (path.startsWith('/fields/')) {
      const name = referenceName(path.slice('/fields/'.length));
      if (op === 'test') {
        if (String(fields[name] ?? '') !== String(raw.value ?? '')) throw witError(400, 'WorkItemPatchTestOperationFailedException', `TF401290: The test operation for field ${name} failed.`);
        continue;
      }
      if (op === 'remove') { delete fields[name]; continue; }
      fields[name] = typeof raw.value === 'string' || typeof raw.value === 'number' || typeof raw.value === 'boolean' ? raw.value : raw.value === null ? null : JSON.stringify(raw.value);
    } else if (path === '/relations/-' && op === 'add') {
      const v = raw.value as { rel?: string; url?: string; attributes?: Record<string, unknown> } | undefined;
      if (!v?.rel || !v.url) throw badRequest('A relation needs rel and url.');
      const target = /\/workItems\/(\d+)$/i.exec(v.url)?.[1];
      if (target !== undefined) workItemOf(c, target);
      if (relations.some((r) => r.rel === v.rel && r.url.toLowerCase() === v.url!.toLowerCase())) {
        throw witError(400, 'WorkItemLinkAlreadyExistsException', `TF201035: The link already exists for work item ${base.id}.`);
      }
      relations.push({ rel: v.rel, url: target !== undefined ? witUrl(c, Number(target)) : v.url, attributes: { isLocked: false, name: LINK_NAMES[v.rel] ?? v.rel, ...(v.attributes ?? {}) } });
    } else if (/^\/relations\/\d+$/.test(path) && op === 'remove') {
      const index = Number(path.split('/')[2]);
      if (index >= relations.length) throw badRequest(`Relation index ${index} is out of range.`);
      relations.splice(index, 1);
    } else if (path.startsWith('/multilineFieldsFormat/') || path === '/id' || path === '/rev') {
      // Markdown flags and the $batch temporary id: accepted, nothing to store.
    } else {
      throw badRequest(`The path '${path}' is not valid for a work item.`);
    }
  }
  const type = String(fields['System.WorkItemType']);
  const title = String(fields['System.Title'] ?? '').trim();
  if (title === '') throw witError(400, 'RuleValidationException', 'TF401320: Rule Error for field Title. Error code: Required, HasValues, LimitedToValues, AllowsOldValue, InvalidEmpty.');
  if (title.length > 255) throw witError(400, 'RuleValidationException', 'TF401320: Rule Error for field Title. Error code: MaxLength.');
  const states = STATES[type]!;
  const state = String(fields['System.State'] ?? states[0]);
  const canonicalState = states.find((s) => s.toLowerCase() === state.toLowerCase());
  if (!canonicalState) throw witError(400, 'RuleValidationException', `TF401320: Rule Error for field State. Error code: Required, InvalidListValue, LimitedToValues, AllowsOldValue, InvalidEmpty.`);
  fields['System.State'] = canonicalState;
  const stateChanged = creating || canonicalState !== base.fields['System.State'];
  if (stateChanged && (creating || fields['System.Reason'] === base.fields['System.Reason'])) fields['System.Reason'] = creating ? `New` : REASON[canonicalState] ?? canonicalState;
  for (const f of ['System.AreaPath', 'System.IterationPath'] as const) fields[f] = checkTreePath(c, project, f, String(fields[f] ?? project.name), creating ? -1 : base.id);
  for (const f of IDENTITY_FIELDS) {
    const v = fields[f];
    if (v === undefined || v === null || v === '') continue;
    const wanted = String(v).replace(/^.*<([^>]+)>\s*$/, '$1');
    const user = userOf(c, wanted);
    if (!user) throw witError(400, 'RuleValidationException', `TF401320: Rule Error for field ${f === 'System.AssignedTo' ? 'Assigned To' : f}. Error code: InvalidIdentity, UnknownIdentity. The identity value '${v}' for field '${f}' is an unknown identity.`);
    fields[f] = user.uniqueName;
  }
  const priority = fields['Microsoft.VSTS.Common.Priority'];
  if (priority !== undefined) {
    const n = Number(priority);
    if (![1, 2, 3, 4].includes(n)) throw witError(400, 'RuleValidationException', 'TF401320: Rule Error for field Priority. Error code: LimitedToValues.');
    fields['Microsoft.VSTS.Common.Priority'] = n;
  }
  if (fields['Microsoft.VSTS.Scheduling.StoryPoints'] !== undefined) fields['Microsoft.VSTS.Scheduling.StoryPoints'] = Number(fields['Microsoft.VSTS.Scheduling.StoryPoints']);
  if (typeof fields['System.Tags'] === 'string') fields['System.Tags'] = normaliseTags(fields['System.Tags']);
  return { fields, relations };
}

export const normaliseTags = (tags: string) => tags.split(/[;,]/).map((t) => t.trim()).filter(Boolean).sort((a, b) => a.localeCompare(b)).join('; ');

const LINK_NAMES: Record<string, string> = {
  'System.LinkTypes.Hierarchy-Reverse': 'Parent', 'System.LinkTypes.Hierarchy-Forward': 'Child', 'System.LinkTypes.Related': 'Related',
  'System.LinkTypes.Duplicate-Forward': 'Duplicate', 'System.LinkTypes.Duplicate-Reverse': 'Duplicate Of', 'System.LinkTypes.Dependency-Forward': 'Successor',
  'System.LinkTypes.Dependency-Reverse': 'Predecessor', 'ArtifactLink': 'Artifact Link', 'Hyperlink': 'Hyperlink',
  'Microsoft.VSTS.Common.TestedBy-Forward': 'Tested By', 'Microsoft.VSTS.Common.TestedBy-Reverse': 'Tests',
};
const REVERSE: Record<string, string> = {
  'System.LinkTypes.Hierarchy-Reverse': 'System.LinkTypes.Hierarchy-Forward', 'System.LinkTypes.Hierarchy-Forward': 'System.LinkTypes.Hierarchy-Reverse',
  'System.LinkTypes.Related': 'System.LinkTypes.Related', 'System.LinkTypes.Duplicate-Forward': 'System.LinkTypes.Duplicate-Reverse',
  'System.LinkTypes.Duplicate-Reverse': 'System.LinkTypes.Duplicate-Forward', 'System.LinkTypes.Dependency-Forward': 'System.LinkTypes.Dependency-Reverse',
  'System.LinkTypes.Dependency-Reverse': 'System.LinkTypes.Dependency-Forward', 'Microsoft.VSTS.Common.TestedBy-Forward': 'Microsoft.VSTS.Common.TestedBy-Reverse',
  'Microsoft.VSTS.Common.TestedBy-Reverse': 'Microsoft.VSTS.Common.TestedBy-Forward',
};

/** Stores a work item's new state as its next revision (and the reverse ends of new work item links). */
function commit(c: AdoCtx, before: WorkItemDoc | null, doc: WorkItemDoc): WorkItemDoc {
  const now = iso(c.ctx.nowMs);
  const me = meOf(c).uniqueName;
  const fields: Record<string, unknown> = { ...doc.fields, 'System.Rev': doc.rev, 'System.ChangedDate': now, 'System.ChangedBy': me, 'System.AuthorizedDate': now, 'System.RevisedDate': '9999-01-01T00:00:00Z' };
  if (before === null || before.fields['System.State'] !== fields['System.State']) {
    fields['Microsoft.VSTS.Common.StateChangeDate'] = now;
    const state = String(fields['System.State']);
    if (state === 'Active') { fields['Microsoft.VSTS.Common.ActivatedDate'] = now; fields['Microsoft.VSTS.Common.ActivatedBy'] = me; }
    if (state === 'Resolved') { fields['Microsoft.VSTS.Common.ResolvedDate'] = now; fields['Microsoft.VSTS.Common.ResolvedBy'] = me; fields['Microsoft.VSTS.Common.ResolvedReason'] = fields['System.Reason']; }
    if (state === 'Closed') { fields['Microsoft.VSTS.Common.ClosedDate'] = now; fields['Microsoft.VSTS.Common.ClosedBy'] = me; }
  }
  const stored = c.db.work_items.put(String(doc.id), { ...doc, fields });
  c.db.revisions.put(`${doc.id}:${doc.rev}`, { id: doc.id, rev: doc.rev, fields });
  const old = new Set((before?.relations ?? []).map((r) => `${r.rel} ${r.url}`));
  for (const r of doc.relations) {
    if (old.has(`${r.rel} ${r.url}`)) continue;
    const target = /\/workItems\/(\d+)$/.exec(r.url)?.[1];
    const reverse = REVERSE[r.rel];
    if (target === undefined || reverse === undefined) continue;
    const other = c.db.work_items.get(target)!;
    const url = witUrl(c, doc.id);
    if (other.relations.some((x) => x.rel === reverse && x.url === url)) continue;
    c.db.work_items.put(target, { ...other, rev: other.rev + 1, relations: [...other.relations, { rel: reverse, url, attributes: { isLocked: false, name: LINK_NAMES[reverse] ?? reverse } }],
      fields: { ...other.fields, 'System.Rev': other.rev + 1, 'System.ChangedDate': now, 'System.ChangedBy': me } });
  }
  const removed = (before?.relations ?? []).filter((r) => !doc.relations.some((x) => x.rel === r.rel && x.url === r.url));
  for (const r of removed) {
    const target = /\/workItems\/(\d+)$/.exec(r.url)?.[1];
    const reverse = REVERSE[r.rel];
    if (target === undefined || reverse === undefined) continue;
    const other = c.db.work_items.get(target);
    if (!other) continue;
    const url = witUrl(c, doc.id);
    c.db.work_items.put(target, { ...other, rev: other.rev + 1, relations: other.relations.filter((x) => !(x.rel === reverse && x.url === url)),
      fields: { ...other.fields, 'System.Rev': other.rev + 1, 'System.ChangedDate': now, 'System.ChangedBy': me } });
  }
  return stored;
}

export function createWorkItem(c: AdoCtx, project: ProjectDoc, typeName: string, document: unknown): WorkItemDoc {
  const type = typeOf(typeName.replace(/^\$/, ''));
  const now = iso(c.ctx.nowMs);
  const me = meOf(c).uniqueName;
  const base: WorkItemDoc = {
    id: 0, rev: 1, project: project.id, relations: [],
    fields: { 'System.AreaPath': project.name, 'System.TeamProject': project.name, 'System.IterationPath': project.name, 'System.WorkItemType': type,
      'System.State': STATES[type]![0], 'System.CreatedDate': now, 'System.CreatedBy': me, 'System.CommentCount': 0,
      ...(type === 'Bug' || type === 'Task' || type === 'User Story' ? { 'Microsoft.VSTS.Common.Priority': 2 } : {}), ...(type === 'Bug' ? { 'Microsoft.VSTS.Common.Severity': '3 - Medium' } : {}),
      'Microsoft.VSTS.Common.ValueArea': 'Business' },
  };
  const { fields, relations } = applyPatch(c, project, base, document, true);
  const id = c.ctx.ids.next('workitem');
  return commit(c, null, { ...base, id, fields: { ...fields, 'System.Id': id, 'System.TeamProject': project.name, 'System.WorkItemType': type }, relations });
}

export function updateWorkItem(c: AdoCtx, item: WorkItemDoc, document: unknown): WorkItemDoc {
  const project = c.db.projects.get(item.project)!;
  const { fields, relations } = applyPatch(c, project, item, document, false);
  for (const locked of ['System.Id', 'System.TeamProject', 'System.WorkItemType', 'System.CreatedDate', 'System.CreatedBy']) {
    if (fields[locked] !== item.fields[locked]) throw witError(400, 'RuleValidationException', `TF401320: Rule Error for field ${locked}. Error code: ReadOnly.`);
  }
  return commit(c, item, { ...item, rev: item.rev + 1, fields, relations });
}

function bodyOf(call: { req: { json(): unknown } }): unknown {
  return call.req.json();
}

function fieldsParam(value: string | undefined): string[] | undefined {
  return value === undefined || value === '' ? undefined : value.split(',').map((f) => referenceName(f));
}

/** Comments (`api-version=7.x-preview.3/4`): `{totalCount, count, comments}`. */
function renderComment(c: AdoCtx, x: { workItemId: number; id: number; version: number; text: string; format: string; createdBy: string; createdDate: string; modifiedDate: string }) {
  const project = c.db.projects.get(c.db.work_items.get(String(x.workItemId))!.project)!;
  return {
    workItemId: x.workItemId, id: x.id, version: x.version, text: x.text, createdBy: identityRef(c, x.createdBy), createdDate: x.createdDate,
    modifiedBy: identityRef(c, x.createdBy), modifiedDate: x.modifiedDate, format: x.format, renderedText: x.format === 'markdown' ? `<p>${x.text}</p>` : undefined,
    url: `${c.base}/${project.id}/_apis/wit/workItems/${x.workItemId}/comments/${x.id}`,
  };
}

function addComment(c: AdoCtx, item: WorkItemDoc, text: string, format: string) {
  if (text.trim() === '') throw badRequest('Comment text cannot be empty.');
  const id = c.ctx.ids.next('comment', 1_000_000);
  const now = iso(c.ctx.nowMs);
  const doc = c.db.comments.put(`${item.id}:${id}`, { workItemId: item.id, id, version: 1, text, format, createdBy: meOf(c).uniqueName, createdDate: now, modifiedDate: now });
  c.db.work_items.put(String(item.id), { ...item, fields: { ...item.fields, 'System.CommentCount': Number(item.fields['System.CommentCount'] ?? 0) + 1 } });
  return doc;
}

function runWiql(c: AdoCtx, wiql: string, project: ProjectDoc | null, top: number | undefined) {
  const query = parseWiql(wiql);
  const env = { project: project?.name ?? null, me: meOf(c).uniqueName, todayMs: c.ctx.nowMs };
  const rows = c.db.work_items.values().map((w) => ({ ...w.fields, 'System.Id': w.id })).filter((f) => matches(query.where, f, env, display(c)));
  rows.sort((a, b) => sortBy(query.orderBy, a, b));
  const limited = top === undefined ? rows : rows.slice(0, top);
  if (top === undefined && rows.length > 20000) throw witError(400, 'QueryTooLargeException', 'VS402337: The number of work items returned exceeds the size limit of 20000.');
  return {
    queryType: 'flat', queryResultType: 'workItem', asOf: iso(c.ctx.nowMs),
    columns: query.columns.map((f) => ({ referenceName: f, name: f.split('.').pop(), url: `${c.base}/_apis/wit/fields/${f}` })),
    sortColumns: query.orderBy.map((o) => ({ field: { referenceName: o.field, name: o.field.split('.').pop(), url: `${c.base}/_apis/wit/fields/${o.field}` }, descending: o.descending })),
    workItems: limited.map((f) => ({ id: f['System.Id'], url: witUrl(c, Number(f['System.Id'])) })),
  };
}

function renderQuery(c: AdoCtx, project: ProjectDoc, id: string, depth: number, includeWiql: boolean): Record<string, unknown> {
  const doc = c.db.queries.get(id)!;
  const children = c.db.queries.values().filter((x) => x.parent === id);
  return {
    id: doc.id, name: doc.name, path: doc.path, createdBy: identityRef(c, c.db.users.values()[0]?.uniqueName), createdDate: project.lastUpdateTime,
    lastModifiedDate: project.lastUpdateTime, isFolder: doc.isFolder || undefined, hasChildren: doc.isFolder ? children.length > 0 : undefined, isPublic: true,
    ...(doc.wiql && includeWiql ? { wiql: doc.wiql, queryType: 'flat' } : {}),
    ...(doc.isFolder && depth > 0 ? { children: children.map((ch) => renderQuery(c, project, ch.id, depth - 1, includeWiql)) } : {}),
    _links: { self: { href: `${c.base}/${project.id}/_apis/wit/queries/${doc.id}` }, html: { href: `${c.base}/${encodeURIComponent(project.name)}/_queries/query/${doc.id}` } },
    url: `${c.base}/${project.id}/_apis/wit/queries/${doc.id}`,
  };
}

function renderType(c: AdoCtx, project: ProjectDoc, type: string) {
  const fields = ['System.Title', 'System.State', 'System.Reason', 'System.AssignedTo', 'System.AreaPath', 'System.IterationPath', 'System.Tags', 'System.Description',
    'Microsoft.VSTS.Common.Priority', ...(type === 'Bug' ? ['Microsoft.VSTS.TCM.ReproSteps', 'Microsoft.VSTS.Common.Severity'] : []),
    ...(type === 'User Story' ? ['Microsoft.VSTS.Scheduling.StoryPoints', 'Microsoft.VSTS.Common.AcceptanceCriteria'] : [])];
  return {
    name: type, referenceName: type === 'User Story' ? 'Microsoft.VSTS.WorkItemTypes.UserStory' : `Microsoft.VSTS.WorkItemTypes.${type.replace(/ /g, '')}`,
    description: `Tracks a ${type.toLowerCase()}.`, color: COLORS[type], icon: { id: `icon_${type.toLowerCase().replace(/ /g, '_')}`, url: `${c.base}/_apis/wit/workItemIcons/icon_${type.toLowerCase().replace(/ /g, '_')}` },
    isDisabled: false,
    states: STATES[type]!.map((s) => ({ name: s, color: s === 'Closed' ? '339933' : s === 'Active' ? '007acc' : 'b2b2b2', category: CATEGORY[s] })),
    fieldInstances: fields.map((f) => ({ alwaysRequired: f === 'System.Title', referenceName: f, name: f.split('.').pop(), url: `${c.base}/_apis/wit/fields/${f}` })),
    fields: fields.map((f) => ({ alwaysRequired: f === 'System.Title', referenceName: f, name: f.split('.').pop(), url: `${c.base}/_apis/wit/fields/${f}` })),
    transitions: Object.fromEntries(STATES[type]!.map((s) => [s, STATES[type]!.filter((t) => t !== s).map((to) => ({ to, actions: null }))])),
    url: `${c.base}/${project.id}/_apis/wit/workItemTypes/${encodeURIComponent(type)}`,
  };
}

/** One node of the Areas or Iterations tree. */
function classificationTree(c: AdoCtx, project: ProjectDoc, group: 'Areas' | 'Iterations', depth: number) {
  const structure = group === 'Areas' ? 'area' : 'iteration';
  const node = (name: string, path: string, id: number, children: unknown[], attributes?: Record<string, unknown>) => ({
    id, identifier: `${project.id.slice(0, 24)}${String(id).padStart(12, '0')}`, name, structureType: structure, hasChildren: children.length > 0,
    ...(children.length > 0 && depth > 0 ? { children } : {}), path: `\\${project.name}\\${group === 'Areas' ? 'Area' : 'Iteration'}${path}`,
    ...(attributes ? { attributes } : {}), url: `${c.base}/${project.id}/_apis/wit/classificationNodes/${group}${path.replace(/\\/g, '/')}`,
  });
  if (group === 'Iterations') {
    const its = c.db.iterations.values().filter((i) => i.project === project.id);
    return node(project.name, '', 1, its.map((i) => node(i.name, `\\${i.name}`, i.identifier, [], i.startDate ? { startDate: i.startDate, finishDate: i.finishDate, timeFrame: timeFrame(c, i.startDate, i.finishDate) } : undefined)));
  }
  return node(project.name, '', 2, project.areas.filter((a) => !a.includes('/')).map((a, k) => node(a, `\\${a}`, 100 + k, [])));
}

export function timeFrame(c: AdoCtx, start: string | null, finish: string | null): string {
  if (!start || !finish) return 'future';
  if (c.ctx.nowMs < Date.parse(start)) return 'future';
  if (c.ctx.nowMs > Date.parse(finish) + 86400000) return 'past';
  return 'current';
}

/** `$batch`: each sub-request is answered in `{count, value: [{code, headers, body}]}`, body as a JSON string. */
function runBatch(c: AdoCtx, requests: unknown): ServiceResponse {
  if (!Array.isArray(requests)) throw badRequest('The batch request body must be an array.');
  const value = requests.map((r: { method?: string; uri?: string; body?: unknown }) => {
    try {
      const uri = String(r.uri ?? '').split('?')[0]!;
      const m = /^(?:\/([^/]+))?\/_apis\/wit\/workitems\/(\$?[^/]+)$/i.exec(uri);
      if (!m || String(r.method).toUpperCase() !== 'PATCH') throw badRequest(`The batch request '${r.method} ${r.uri}' is not supported.`);
      const target = decodeURIComponent(m[2]!);
      const item = target.startsWith('$') ? createWorkItem(c, projectOf(c, m[1]), target, r.body) : updateWorkItem(c, workItemOf(c, target), r.body);
      return { code: 200, headers: { 'Content-Type': 'application/json; charset=utf-8' }, body: JSON.stringify(renderWorkItem(c, item)) };
    } catch (error) {
      const e = error as { status?: number; message?: string; code?: string };
      return { code: e.status ?? 500, headers: { 'Content-Type': 'application/json; charset=utf-8' }, body: JSON.stringify({ $id: '1', innerException: null, message: e.message, typeKey: e.code, errorCode: 0, eventId: 3200 }) };
    }
  });
  return jsonResponse(200, { count: value.length, value });
}

export const witOperations: Operation<AdoCtx>[] = [
  operation<AdoCtx, '/:org/:project/:team/_apis/wit/workItems/:id'>('wit.getWorkItem', ado('GET', '/wit/workItems/:id'), (call, c) => {
    optionalProject(c, call.params.project);
    const w = workItemOf(c, call.params.id);
    return jsonResponse(200, renderWorkItem(c, w, { fields: fieldsParam(q(call.req, 'fields')), expand: q(call.req, '$expand') }));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/wit/workItems'>('wit.getWorkItems', ado('GET', '/wit/workItems'), (call, c) => {
    const ids = (q(call.req, 'ids') ?? '').split(',').filter(Boolean);
    if (ids.length === 0) throw badRequest('The ids parameter is required.');
    if (ids.length > 200) throw badRequest('VS403474: The maximum number of work items that can be requested is 200.');
    return list(ids.map((id) => renderWorkItem(c, workItemOf(c, id), { fields: fieldsParam(q(call.req, 'fields')), expand: q(call.req, '$expand') })));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/wit/workItemsBatch'>('wit.getWorkItemsBatch', ado('POST', '/wit/workItemsBatch'), (call, c) => {
    optionalProject(c, call.params.project);
    const body = (bodyOf(call) ?? {}) as { ids?: number[]; fields?: string[]; $expand?: string };
    if (!Array.isArray(body.ids) || body.ids.length === 0) throw badRequest('The ids list is required.');
    if (body.ids.length > 200) throw badRequest('VS403474: The maximum number of work items that can be requested is 200.');
    const fields = body.fields?.map(referenceName);
    return list(body.ids.map((id) => renderWorkItem(c, workItemOf(c, id), { fields, expand: body.$expand })));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/wit/workItems/:type'>('wit.createWorkItem', ado('POST', '/wit/workItems/:type'), (call, c) => {
    if (!call.params.type.startsWith('$')) throw badRequest('The work item type must be given as $<type>.');
    const item = createWorkItem(c, projectOf(c, call.params.project), decodeURIComponent(call.params.type), bodyOf(call));
    return jsonResponse(200, renderWorkItem(c, item, { expand: 'all' }));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/wit/workItems/:id'>('wit.updateWorkItem', ado('PATCH', '/wit/workItems/:id'), (call, c) => {
    optionalProject(c, call.params.project);
    if (call.params.id.startsWith('$')) {
      const item = createWorkItem(c, projectOf(c, call.params.project), decodeURIComponent(call.params.id), bodyOf(call));
      return jsonResponse(200, renderWorkItem(c, item, { expand: 'all' }));
    }
    const item = updateWorkItem(c, workItemOf(c, call.params.id), bodyOf(call));
    return jsonResponse(200, renderWorkItem(c, item, { expand: 'all' }));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/wit/$batch'>('wit.batch', ado('PATCH', '/wit/$batch'), (call, c) => runBatch(c, bodyOf(call))),
  operation<AdoCtx, '/:org/:project/:team/_apis/wit/workItems/:id/revisions'>('wit.getRevisions', ado('GET', '/wit/workItems/:id/revisions'), (call, c) => {
    const w = workItemOf(c, call.params.id);
    const top = qInt(call.req, '$top') ?? 200;
    const skip = qInt(call.req, '$skip') ?? 0;
    const revs = c.db.revisions.values().filter((r) => r.id === w.id).sort((a, b) => a.rev - b.rev).slice(skip, skip + top);
    return list(revs.map((r) => ({ id: r.id, rev: r.rev, fields: renderFields(c, r.fields), url: `${witUrl(c, r.id)}/revisions/${r.rev}` })));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/wit/workItems/:id/comments'>('wit.getComments', ado('GET', '/wit/workItems/:id/comments'), (call, c) => {
    projectOf(c, call.params.project);
    const w = workItemOf(c, call.params.id);
    const all = c.db.comments.values().filter((x) => x.workItemId === w.id).sort((a, b) => b.id - a.id);
    const top = qInt(call.req, '$top') ?? 200;
    const page = all.slice(0, top);
    return jsonResponse(200, { totalCount: all.length, count: page.length, comments: page.map((x) => renderComment(c, x)), url: `${c.base}/_apis/wit/workItems/${w.id}/comments` });
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/wit/workItems/:id/comments'>('wit.addComment', ado('POST', '/wit/workItems/:id/comments'), (call, c) => {
    projectOf(c, call.params.project);
    const w = workItemOf(c, call.params.id);
    const body = (bodyOf(call) ?? {}) as { text?: unknown };
    if (typeof body.text !== 'string') throw badRequest('The comment text is required.');
    return jsonResponse(200, renderComment(c, addComment(c, w, body.text, (q(call.req, 'format') ?? 'markdown').toLowerCase())));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/wit/workItems/:id/comments/:commentId'>('wit.updateComment', ado('PATCH', '/wit/workItems/:id/comments/:commentId'), (call, c) => {
    projectOf(c, call.params.project);
    const w = workItemOf(c, call.params.id);
    const existing = c.db.comments.get(`${w.id}:${call.params.commentId}`);
    if (!existing) throw witError(404, 'CommentNotFoundException', `VS402625: Comment ${call.params.commentId} does not exist on work item ${w.id}.`);
    const body = (bodyOf(call) ?? {}) as { text?: unknown };
    if (typeof body.text !== 'string' || body.text.trim() === '') throw badRequest('Comment text cannot be empty.');
    const doc = c.db.comments.put(`${w.id}:${existing.id}`, { ...existing, text: body.text, version: existing.version + 1, modifiedDate: iso(c.ctx.nowMs), format: (q(call.req, 'format') ?? existing.format).toLowerCase() });
    return jsonResponse(200, renderComment(c, doc));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/wit/attachments/:id'>('wit.getAttachmentContent', ado('GET', '/wit/attachments/:id'), (call) => {
    throw witError(404, 'AttachmentNotFoundException', `TF401223: The attachment ${call.params.id} does not exist or you do not have permission to access it.`);
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/wit/wiql'>('wit.queryByWiql', ado('POST', '/wit/wiql'), (call, c) => {
    const project = optionalProject(c, call.params.project);
    if (project && call.params.team !== '-') teamOf(c, project, call.params.team);
    const body = (bodyOf(call) ?? {}) as { query?: unknown };
    if (typeof body.query !== 'string' || body.query.trim() === '') throw badRequest('The WIQL query is required.');
    return jsonResponse(200, runWiql(c, body.query, project, qInt(call.req, '$top')));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/wit/wiql/:id'>('wit.queryById', ado('GET', '/wit/wiql/:id'), (call, c) => {
    const project = projectOf(c, call.params.project);
    const saved = c.db.queries.get(call.params.id.toLowerCase());
    if (!saved || saved.wiql === null || saved.project !== project.id) throw witError(404, 'QueryItemNotFoundException', `TF401243: The query ${call.params.id} does not exist, or you do not have permission to read it.`);
    return jsonResponse(200, runWiql(c, saved.wiql, project, qInt(call.req, '$top')));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/wit/queries'>('wit.getQueries', ado('GET', '/wit/queries'), (call, c) => {
    const project = projectOf(c, call.params.project);
    const depth = Math.min(qInt(call.req, '$depth') ?? 0, 2);
    const roots = c.db.queries.values().filter((x) => x.project === project.id && x.parent === null);
    return list(roots.map((r) => renderQuery(c, project, r.id, depth, (q(call.req, '$expand') ?? '').toLowerCase() === 'wiql' || (q(call.req, '$expand') ?? '').toLowerCase() === 'all')));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/wit/queries/*query'>('wit.getQuery', ado('GET', '/wit/queries/*query'), (call, c) => {
    const project = projectOf(c, call.params.project);
    const key = decodeURIComponent(call.params.query).replace(/\\/g, '/').toLowerCase();
    const doc = c.db.queries.values().find((x) => x.project === project.id && (x.id === key || x.path.toLowerCase() === key));
    if (!doc) throw witError(404, 'QueryItemNotFoundException', `TF401243: The query ${decodeURIComponent(call.params.query)} does not exist, or you do not have permission to read it.`);
    const expand = (q(call.req, '$expand') ?? 'none').toLowerCase();
    return jsonResponse(200, renderQuery(c, project, doc.id, Math.min(qInt(call.req, '$depth') ?? 0, 2), expand === 'wiql' || expand === 'all'));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/wit/workItemTypes'>('wit.getWorkItemTypes', ado('GET', '/wit/workItemTypes'), (call, c) => {
    const project = projectOf(c, call.params.project);
    return list(Object.keys(STATES).map((t) => renderType(c, project, t)));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/wit/workItemTypes/:type'>('wit.getWorkItemType', ado('GET', '/wit/workItemTypes/:type'), (call, c) => {
    const project = projectOf(c, call.params.project);
    return jsonResponse(200, renderType(c, project, typeOf(decodeURIComponent(call.params.type))));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/wit/classificationNodes'>('wit.getClassificationNodes', ado('GET', '/wit/classificationNodes'), (call, c) => {
    const project = projectOf(c, call.params.project);
    const depth = qInt(call.req, '$depth') ?? 0;
    return list([classificationTree(c, project, 'Areas', depth), classificationTree(c, project, 'Iterations', depth)]);
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/wit/classificationNodes/:group'>('wit.createOrUpdateClassificationNode', ado('POST', '/wit/classificationNodes/:group'), (call, c) => {
    const project = projectOf(c, call.params.project);
    const group = call.params.group.toLowerCase();
    const body = (bodyOf(call) ?? {}) as { name?: unknown; attributes?: { startDate?: string; finishDate?: string } };
    if (typeof body.name !== 'string' || body.name.trim() === '') throw badRequest('The node name is required.');
    const name = body.name.trim();
    if (group === 'areas') {
      if (project.areas.some((a) => a.toLowerCase() === name.toLowerCase())) throw witError(409, 'ClassificationNodeDuplicateNameException', `VS402371: Classification node name ${name} is already in use by a different child of parent classification node ${project.id}. Choose a different name and try again.`);
      c.db.projects.put(project.id, { ...project, areas: [...project.areas, name] });
      return jsonResponse(201, classificationTree(c, c.db.projects.get(project.id)!, 'Areas', 1));
    }
    if (group !== 'iterations') throw badRequest(`The structure group '${call.params.group}' is not valid.`);
    if (c.db.iterations.values().some((i) => i.project === project.id && i.name.toLowerCase() === name.toLowerCase())) {
      throw witError(409, 'ClassificationNodeDuplicateNameException', `VS402371: Classification node name ${name} is already in use by a different child of parent classification node ${project.id}. Choose a different name and try again.`);
    }
    const identifier = c.ctx.ids.next('iteration', 1000);
    const id = uuidId(c.ctx, 'iteration');
    const start = body.attributes?.startDate ? new Date(body.attributes.startDate).toISOString() : null;
    const finish = body.attributes?.finishDate ? new Date(body.attributes.finishDate).toISOString() : null;
    c.db.iterations.put(id, { id, identifier, project: project.id, name, path: `${project.name}\\${name}`, startDate: start, finishDate: finish, teams: [] });
    return jsonResponse(201, {
      id: identifier, identifier: id, name, structureType: 'iteration', hasChildren: false, path: `\\${project.name}\\Iteration\\${name}`,
      ...(start ? { attributes: { startDate: start, finishDate: finish } } : {}), url: `${c.base}/${project.id}/_apis/wit/classificationNodes/Iterations/${encodeURIComponent(name)}`,
    });
  }),
];

