import { bytes, emptyResponse, jsonResponse, type ServiceRequest, type ServiceResponse } from '../core/http.js';
import { operation, rest, type Operation } from '../kit/index.js';
import { jsonBody, me, ok, pageStart, pageToken, q, qInt } from './common.js';
import { googleError } from './errors.js';
import { masked } from './fields.js';
import {
  EXPORTS, fileDefault, fileResource, permissionResource, permissionsOf, queryView, rootIdFor, roleOn, textOf, userResource, visibleFile, writable,
} from './files.js';
import { exportDocument } from './docs.js';
import { DOCUMENT, FOLDER, PRESENTATION, SPREADSHEET, driveId, permissionIdFor, type FileDoc, type GoogleCtx, type PermissionDoc, type UserDoc } from './model.js';
import { parseQuery } from './query.js';
import { csvOf, newSpreadsheet } from './sheets.js';
import { newPresentation } from './slides.js';

/**
 * Drive v3 (www.googleapis.com/drive/v3, uploads under /upload/drive/v3): about, files (list with
 * the `q` language, `fields`, `orderBy`, page tokens; get, alt=media, create and upload,
 * update with addParents/removeParents, copy, delete, export) and permissions.
 */
const FILE_FIELDS = new Set(['name', 'mimeType', 'parents', 'description', 'starred', 'trashed', 'appProperties', 'properties', 'contentRestrictions', 'shortcutDetails', 'originalFilename', 'writersCanShare', 'copyRequiresWriterPermission', 'modifiedTime', 'createdTime', 'folderColorRgb', 'viewedByMeTime', 'contentHints', 'id', 'kind', 'driveId', 'ownedByMe', 'size', 'fileExtension', 'lockFile']);

function fileAnswer(req: ServiceRequest, c: GoogleCtx, file: FileDoc, user: UserDoc, status = 200): ServiceResponse {
  const fields = q(req, 'fields');
  return jsonResponse(status, fields ? masked(fileResource(c, file, user), fields) : fileDefault(c, file, user));
}

/** One part of a `multipart/related` upload. */
interface Part { type: string; body: Uint8Array }

function multipart(req: ServiceRequest): Part[] {
  const boundary = /boundary="?([^";]+)"?/i.exec(req.header('content-type') ?? '')?.[1];
  if (!boundary) throw googleError(400, 'badContent', 'Media type not supported; a multipart upload needs a boundary.');
  const text = Buffer.from(req.body).toString('latin1');
  const parts: Part[] = [];
  for (const chunk of text.split(`--${boundary}`).slice(1)) {
    if (chunk.startsWith('--')) break;
    const split = chunk.indexOf('\r\n\r\n');
    if (split === -1) continue;
    const head = chunk.slice(0, split);
    let body = chunk.slice(split + 4);
    if (body.endsWith('\r\n')) body = body.slice(0, -2);
    const type = /content-type:\s*([^\r\n;]+)/i.exec(head)?.[1]?.trim() ?? 'application/octet-stream';
    parts.push({ type, body: new Uint8Array(Buffer.from(body, 'latin1')) });
  }
  return parts;
}

/** Metadata and media of a create/update: plain JSON, `uploadType=media` or `multipart`. */
function upload(req: ServiceRequest): { meta: Record<string, unknown>; media?: { type: string; text: string } } {
  const type = q(req, 'uploadType');
  // Uploads (/upload/drive/v3/…, rewritten onto the metadata paths) say how the body is packed.
  if (type === undefined) return { meta: jsonBody(req) };
  if (type === 'media') return { meta: {}, media: { type: (req.header('content-type') ?? 'application/octet-stream').split(';')[0]!.trim(), text: req.text() } };
  if (type === 'multipart') {
    const parts = multipart(req);
    const meta = parts[0] ? JSON.parse(new TextDecoder().decode(parts[0].body) || '{}') as Record<string, unknown> : {};
    return { meta, ...(parts[1] ? { media: { type: parts[1].type, text: new TextDecoder().decode(parts[1].body) } } : {}) };
  }
  throw googleError(400, 'invalid', `Invalid upload type: ${type}`, { location: 'uploadType', locationType: 'parameter' });
}

function checkMeta(meta: Record<string, unknown>): void {
  for (const key of Object.keys(meta)) {
    if (!FILE_FIELDS.has(key)) throw googleError(400, 'invalid', `Invalid field selection ${key}`, { location: key, locationType: 'body' });
  }
  if (meta.name !== undefined && typeof meta.name !== 'string') throw googleError(400, 'invalid', "Invalid value at 'name'", { location: 'name', locationType: 'body' });
  if (meta.parents !== undefined && (!Array.isArray(meta.parents) || meta.parents.some((p) => typeof p !== 'string'))) throw googleError(400, 'invalid', "Invalid value at 'parents'", { location: 'parents', locationType: 'body' });
}

/** Parent ids the caller may add to: folders it can write (`root` stays the alias). */
function parentsFor(c: GoogleCtx, user: UserDoc, ids: readonly string[]): string[] {
  return ids.map((id) => {
    if (id === 'root' || id === rootIdFor(c.ctx.ids, user.email)) return 'root';
    const folder = visibleFile(c, user, id);
    if (folder.mimeType !== FOLDER) throw googleError(400, 'invalid', 'The specified parent is not a folder.', { location: 'parents', locationType: 'body' });
    return folder.id;
  });
}

const GOOGLE_CONVERT: Record<string, string> = {
  'text/plain': DOCUMENT, 'text/html': DOCUMENT, 'text/markdown': DOCUMENT, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document': DOCUMENT, 'application/pdf': DOCUMENT,
  'text/csv': SPREADSHEET, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': SPREADSHEET,
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': PRESENTATION,
};

/** A new file: its Drive document, its owner's permission, and the body of a Google type. */
export function createFile(c: GoogleCtx, user: UserDoc, fields: { name: string; mimeType: string; parents: string[]; description?: string; content?: string; appProperties?: Record<string, string>; properties?: Record<string, string>; starred?: boolean; shortcutDetails?: FileDoc['shortcutDetails'] }): FileDoc {
  const id = driveId(c.ctx.ids);
  const file: FileDoc = {
    id, name: fields.name, mimeType: fields.mimeType, parents: fields.parents, owner: user.email,
    ...(fields.description !== undefined ? { description: fields.description } : {}),
    createdTime: c.now, modifiedTime: c.now, trashed: false, starred: fields.starred ?? false, version: 1,
    ...(fields.appProperties ? { appProperties: fields.appProperties } : {}), ...(fields.properties ? { properties: fields.properties } : {}),
    ...(fields.content !== undefined && !fields.mimeType.startsWith('application/vnd.google-apps.') ? { content: fields.content } : {}),
    ...(fields.shortcutDetails ? { shortcutDetails: fields.shortcutDetails } : {}),
  };
  c.db.files.put(id, file);
  c.db.permissions.put(`${id}/${user.permissionId}`, { fileId: id, id: user.permissionId, type: 'user', role: 'owner', emailAddress: user.email, displayName: user.displayName });
  if (fields.mimeType === DOCUMENT) {
    const lines = (fields.content ?? '').replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n');
    c.db.documents.put(id, { documentId: id, paragraphs: lines.map((text) => ({ text, style: 'NORMAL_TEXT', bullet: false })), revision: 1 });
  }
  if (fields.mimeType === SPREADSHEET) c.db.spreadsheets.put(id, newSpreadsheet(id, fields.content));
  if (fields.mimeType === PRESENTATION) c.db.presentations.put(id, newPresentation(id));
  return file;
}

function touch(c: GoogleCtx, file: FileDoc, patch: Partial<FileDoc>): FileDoc {
  return c.db.files.put(file.id, { ...file, ...patch, modifiedTime: c.now, version: file.version + 1 });
}

function orderOf(spec: string | undefined): (a: FileDoc, b: FileDoc) => number {
  const keys = (spec ?? 'modifiedTime desc').split(',').map((s) => s.trim()).filter(Boolean).map((s) => {
    const [key, dir] = s.split(/\s+/);
    if (!['name', 'name_natural', 'modifiedTime', 'createdTime', 'folder', 'starred', 'quotaBytesUsed', 'recency', 'viewedByMeTime', 'modifiedByMeTime', 'sharedWithMeTime'].includes(key!)) {
      throw googleError(400, 'invalid', 'Invalid Value', { location: 'orderBy', locationType: 'parameter' });
    }
    return { key: key!, desc: dir?.toLowerCase() === 'desc' };
  });
  return (a, b) => {
    for (const { key, desc } of keys) {
      const va = key === 'folder' ? Number(a.mimeType !== FOLDER) : key.startsWith('name') ? a.name.toLowerCase() : key === 'starred' ? Number(!a.starred) : key === 'createdTime' ? a.createdTime : a.modifiedTime;
      const vb = key === 'folder' ? Number(b.mimeType !== FOLDER) : key.startsWith('name') ? b.name.toLowerCase() : key === 'starred' ? Number(!b.starred) : key === 'createdTime' ? b.createdTime : b.modifiedTime;
      if (va < vb) return desc ? 1 : -1;
      if (va > vb) return desc ? -1 : 1;
    }
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  };
}

/** A permission of a file the caller may change (update and delete start here). */
function changeablePermission(c: GoogleCtx, fileId: string, permissionId: string): PermissionDoc {
  const user = me(c);
  const file = visibleFile(c, user, fileId);
  writable(c, user, file);
  return permissionOf(c, file.id, permissionId);
}

function permissionOf(c: GoogleCtx, fileId: string, permissionId: string): PermissionDoc {
  const p = c.db.permissions.get(`${fileId}/${permissionId}`);
  if (!p) throw googleError(404, 'notFound', `Permission not found: ${permissionId}.`, { location: 'permissionId', locationType: 'parameter' });
  return p;
}

export const driveOperations: Operation<GoogleCtx>[] = [
  operation('drive.about.get', rest('GET', '/drive/v3/about'), (call, c: GoogleCtx) => {
    const user = me(c);
    if (!q(call.req, 'fields')) throw googleError(400, 'required', "The 'fields' parameter is required for this method.", { location: 'fields', locationType: 'parameter' });
    const used = c.db.files.filter((f) => f.owner === user.email).reduce((n, f) => n + (f.content ? Buffer.byteLength(f.content) : 0), 0);
    return ok(call.req, {
      kind: 'drive#about', user: { ...userResource(c, user.email, user) },
      storageQuota: { limit: '16106127360', usage: String(used), usageInDrive: String(used), usageInDriveTrash: '0' },
      importFormats: {}, exportFormats: Object.fromEntries(Object.entries(EXPORTS).map(([k, v]) => [k, Object.keys(v)])),
      maxImportSizes: {}, maxUploadSize: '5242880000000', appInstalled: false, folderColorPalette: ['#ac725e'], canCreateDrives: true,
    });
  }),

  operation('drive.files.list', rest('GET', '/drive/v3/files'), (call, c: GoogleCtx) => {
    const user = me(c);
    const query = q(call.req, 'q');
    const test = query ? parseQuery(query.replace(/'root'\s+in\s+parents/g, `'${rootIdFor(c.ctx.ids, user.email)}' in parents`)) : null;
    const size = qInt(call.req, 'pageSize', 1, 1000) ?? 100;
    const start = pageStart(call.req);
    const order = orderOf(q(call.req, 'orderBy'));
    const all = c.db.files.filter((f) => roleOn(c, f, user) !== null && (test ? test(queryView(c, f, user)) : true)).sort(order);
    const page = all.slice(start, start + size);
    const fields = q(call.req, 'fields');
    const body: Record<string, unknown> = {
      ...(start + size < all.length ? { nextPageToken: pageToken(start + size) } : {}),
      kind: 'drive#fileList', incompleteSearch: false,
      files: page.map((f) => (fields ? fileResource(c, f, user) : fileDefault(c, f, user))),
    };
    return jsonResponse(200, masked(body, fields));
  }),

  operation('drive.files.get', rest('GET', '/drive/v3/files/:fileId'), (call, c: GoogleCtx) => {
    const user = me(c);
    const file = visibleFile(c, user, call.params.fileId);
    if (q(call.req, 'alt') === 'media') {
      if (file.mimeType.startsWith('application/vnd.google-apps.')) {
        throw googleError(403, 'fileNotDownloadable', 'Only files with binary content can be downloaded. Use Export with Docs Editors files.', { location: 'alt', locationType: 'parameter' });
      }
      return { status: 200, headers: [['Content-Type', file.mimeType]], body: bytes(file.content ?? '') };
    }
    return fileAnswer(call.req, c, file, user);
  }),

  operation('drive.files.export', rest('GET', '/drive/v3/files/:fileId/export'), (call, c: GoogleCtx) => {
    const user = me(c);
    const file = visibleFile(c, user, call.params.fileId);
    const mime = q(call.req, 'mimeType');
    if (!mime) throw googleError(400, 'required', 'Required parameter: mimeType', { location: 'mimeType', locationType: 'parameter' });
    if (!EXPORTS[file.mimeType]) throw googleError(403, 'fileNotExportable', 'Export only supports Docs Editors files.', { location: 'fileId', locationType: 'parameter' });
    if (!EXPORTS[file.mimeType]![mime]) throw googleError(400, 'badRequest', 'The requested conversion is not supported.', { location: 'convertTo', locationType: 'parameter' });
    let text: string;
    if (file.mimeType === DOCUMENT) text = exportDocument(c.db.documents.get(file.id)!, mime);
    else if (file.mimeType === SPREADSHEET) text = csvOf(c.db.spreadsheets.get(file.id)!, mime === 'text/tab-separated-values' ? '\t' : ',');
    else text = textOf(c, file);
    // Binary formats are not rendered: their bytes would be a real converter's; the text stands in.
    return { status: 200, headers: [['Content-Type', mime]], body: bytes(text) };
  }),

  operation('drive.files.create', rest('POST', '/drive/v3/files'), (call, c: GoogleCtx) => {
    const user = me(c);
    const { meta, media } = upload(call.req);
    checkMeta(meta);
    const declared = typeof meta.mimeType === 'string' ? meta.mimeType : undefined;
    const mimeType = declared && media && GOOGLE_CONVERT[media.type] === declared ? declared : declared ?? media?.type ?? 'application/octet-stream';
    const file = createFile(c, user, {
      name: typeof meta.name === 'string' ? meta.name : 'Untitled', mimeType,
      parents: parentsFor(c, user, (meta.parents as string[] | undefined) ?? ['root']),
      ...(typeof meta.description === 'string' ? { description: meta.description } : {}),
      ...(media ? { content: media.text } : {}),
      ...(meta.appProperties && typeof meta.appProperties === 'object' ? { appProperties: meta.appProperties as Record<string, string> } : {}),
      ...(meta.properties && typeof meta.properties === 'object' ? { properties: meta.properties as Record<string, string> } : {}),
      ...(meta.starred === true ? { starred: true } : {}),
      ...(meta.shortcutDetails && typeof meta.shortcutDetails === 'object' ? { shortcutDetails: shortcut(c, user, meta.shortcutDetails as Record<string, unknown>) } : {}),
    });
    return fileAnswer(call.req, c, file, user);
  }),

  operation('drive.files.update', rest('PATCH', '/drive/v3/files/:fileId'), (call, c: GoogleCtx) => {
    const user = me(c);
    const file = visibleFile(c, user, call.params.fileId);
    writable(c, user, file);
    const { meta, media } = upload(call.req);
    checkMeta(meta);
    let parents = [...file.parents];
    const add = q(call.req, 'addParents');
    const remove = q(call.req, 'removeParents');
    if (remove) {
      const drop = remove.split(',').map((id) => (id === 'root' || id === rootIdFor(c.ctx.ids, user.email) ? 'root' : id));
      parents = parents.filter((p) => !drop.includes(p));
    }
    if (add) parents = [...parents, ...parentsFor(c, user, add.split(',')).filter((p) => !parents.includes(p))];
    if (typeof meta.trashed === 'boolean' && meta.trashed !== file.trashed && roleOn(c, file, user) !== 'owner') {
      throw googleError(403, 'insufficientFilePermissions', 'The user does not have sufficient permissions for this file.');
    }
    if (meta.parents !== undefined) throw googleError(403, 'fieldNotWritable', 'The resource body includes fields which are not directly writable.', { location: 'parents', locationType: 'body' });
    if (media && file.mimeType.startsWith('application/vnd.google-apps.') && file.mimeType !== DOCUMENT) {
      throw googleError(400, 'badRequest', 'Media uploads to this Google Workspace file type are not supported.');
    }
    const restrictions = Array.isArray(meta.contentRestrictions)
      ? (meta.contentRestrictions as Record<string, unknown>[]).map((r) => ({ readOnly: r.readOnly === true, reason: typeof r.reason === 'string' ? r.reason : '' }))
      : file.contentRestrictions;
    if (file.contentRestrictions?.some((r) => r.readOnly) && (media || meta.name !== undefined) && meta.contentRestrictions === undefined) {
      throw googleError(403, 'contentRestriction', 'The file is locked: content restrictions prevent this change.');
    }
    const updated = touch(c, file, {
      parents,
      ...(typeof meta.name === 'string' ? { name: meta.name } : {}),
      ...(typeof meta.description === 'string' ? { description: meta.description } : {}),
      ...(typeof meta.starred === 'boolean' ? { starred: meta.starred } : {}),
      ...(typeof meta.trashed === 'boolean' ? { trashed: meta.trashed } : {}),
      ...(meta.appProperties && typeof meta.appProperties === 'object' ? { appProperties: mergeProps(file.appProperties, meta.appProperties as Record<string, string | null>) } : {}),
      ...(meta.properties && typeof meta.properties === 'object' ? { properties: mergeProps(file.properties, meta.properties as Record<string, string | null>) } : {}),
      ...(media && !file.mimeType.startsWith('application/vnd.google-apps.') ? { content: media.text } : {}),
      ...(restrictions ? { contentRestrictions: restrictions } : {}),
    });
    if (media && file.mimeType === DOCUMENT) {
      const lines = media.text.replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n');
      const doc = c.db.documents.get(file.id)!;
      c.db.documents.put(file.id, { ...doc, paragraphs: lines.map((text) => ({ text, style: 'NORMAL_TEXT', bullet: false })), revision: doc.revision + 1 });
    }
    return fileAnswer(call.req, c, updated, user);
  }),

  operation('drive.files.copy', rest('POST', '/drive/v3/files/:fileId/copy'), (call, c: GoogleCtx) => {
    const user = me(c);
    const source = visibleFile(c, user, call.params.fileId);
    if (source.mimeType === FOLDER) throw googleError(403, 'cannotCopyFile', 'This file cannot be copied by the user.');
    const meta = jsonBody(call.req);
    checkMeta(meta);
    const file = createFile(c, user, {
      name: typeof meta.name === 'string' ? meta.name : `Copy of ${source.name}`, mimeType: source.mimeType,
      parents: meta.parents ? parentsFor(c, user, meta.parents as string[]) : source.owner === user.email ? source.parents : ['root'],
      ...(source.description !== undefined ? { description: source.description } : {}),
      ...(source.content !== undefined ? { content: source.content } : {}),
    });
    const body = c.db.documents.get(source.id);
    if (body) c.db.documents.put(file.id, { ...body, documentId: file.id, revision: 1 });
    const sheet = c.db.spreadsheets.get(source.id);
    if (sheet) c.db.spreadsheets.put(file.id, { ...sheet, spreadsheetId: file.id });
    const deck = c.db.presentations.get(source.id);
    if (deck) c.db.presentations.put(file.id, { ...deck, presentationId: file.id, revision: 1 });
    return fileAnswer(call.req, c, file, user);
  }),

  operation('drive.files.delete', rest('DELETE', '/drive/v3/files/:fileId'), (call, c: GoogleCtx) => {
    const user = me(c);
    const file = visibleFile(c, user, call.params.fileId);
    if (roleOn(c, file, user) !== 'owner') throw googleError(403, 'insufficientFilePermissions', 'The user does not have sufficient permissions for this file.');
    // Deleting a folder deletes what it holds (what only it holds, in Drive; here every child).
    const doomed = [file.id];
    for (let i = 0; i < doomed.length; i++) for (const child of c.db.files.filter((f) => f.parents.includes(doomed[i]!))) doomed.push(child.id);
    for (const id of doomed) {
      c.db.files.delete(id);
      c.db.documents.delete(id);
      c.db.spreadsheets.delete(id);
      c.db.presentations.delete(id);
      for (const p of permissionsOf(c, id)) c.db.permissions.delete(`${id}/${p.id}`);
    }
    return emptyResponse(204);
  }),

  operation('drive.permissions.list', rest('GET', '/drive/v3/files/:fileId/permissions'), (call, c: GoogleCtx) => {
    const user = me(c);
    const file = visibleFile(c, user, call.params.fileId);
    const all = permissionsOf(c, file.id);
    const size = qInt(call.req, 'pageSize', 1, 100) ?? 100;
    const start = pageStart(call.req);
    return ok(call.req, { ...(start + size < all.length ? { nextPageToken: pageToken(start + size) } : {}), kind: 'drive#permissionList', permissions: all.slice(start, start + size).map(permissionResource) });
  }),

  operation('drive.permissions.get', rest('GET', '/drive/v3/files/:fileId/permissions/:permissionId'), (call, c: GoogleCtx) => {
    const user = me(c);
    const file = visibleFile(c, user, call.params.fileId);
    return ok(call.req, permissionResource(permissionOf(c, file.id, call.params.permissionId)));
  }),

  operation('drive.permissions.create', rest('POST', '/drive/v3/files/:fileId/permissions'), (call, c: GoogleCtx) => {
    const user = me(c);
    const file = visibleFile(c, user, call.params.fileId);
    writable(c, user, file);
    const body = jsonBody(call.req);
    const type = body.type, role = body.role;
    if (!['user', 'group', 'domain', 'anyone'].includes(String(type))) throw googleError(400, 'required', 'The permission type field is required.', { location: 'permission.type', locationType: 'other' as 'body' });
    if (!['owner', 'organizer', 'fileOrganizer', 'writer', 'commenter', 'reader'].includes(String(role))) throw googleError(400, 'required', 'The permission role field is required.', { location: 'permission.role', locationType: 'other' as 'body' });
    const email = typeof body.emailAddress === 'string' ? body.emailAddress : undefined;
    const domain = typeof body.domain === 'string' ? body.domain : undefined;
    if ((type === 'user' || type === 'group') && !email) throw googleError(400, 'invalidSharingRequest', 'Bad Request. User message: "You must specify an email address."');
    if (type === 'domain' && !domain) throw googleError(400, 'invalidSharingRequest', 'Bad Request. User message: "You must specify a domain."');
    if (role === 'owner' && q(call.req, 'transferOwnership') !== 'true') {
      throw googleError(403, 'consentRequiredForOwnershipTransfer', 'Consent is required to transfer ownership of a file to another user.');
    }
    const id = type === 'anyone' ? 'anyoneWithLink' : email ? permissionIdFor(c.ctx.ids, email) : `${permissionIdFor(c.ctx.ids, domain!)}k`;
    const known = email ? c.db.users.get(email) : undefined;
    const permission: PermissionDoc = {
      fileId: file.id, id, type: type as PermissionDoc['type'], role: String(role),
      ...(email ? { emailAddress: email } : {}), ...(domain ? { domain } : {}), ...(known ? { displayName: known.displayName } : {}),
    };
    c.db.permissions.put(`${file.id}/${id}`, permission);
    return ok(call.req, permissionResource(permission));
  }),

  operation('drive.permissions.update', rest('PATCH', '/drive/v3/files/:fileId/permissions/:permissionId'), (call, c: GoogleCtx) => {
    const old = changeablePermission(c, call.params.fileId, call.params.permissionId);
    const body = jsonBody(call.req);
    if (body.role !== undefined && !['owner', 'organizer', 'fileOrganizer', 'writer', 'commenter', 'reader'].includes(String(body.role))) {
      throw googleError(400, 'invalid', 'Invalid value for role.', { location: 'role', locationType: 'body' });
    }
    if (old.role === 'owner') throw googleError(403, 'cannotModifyOwner', 'The owner of a file cannot be changed this way.');
    const permission = c.db.permissions.put(`${old.fileId}/${old.id}`, { ...old, ...(body.role ? { role: String(body.role) } : {}) });
    return ok(call.req, permissionResource(permission));
  }),

  operation('drive.permissions.delete', rest('DELETE', '/drive/v3/files/:fileId/permissions/:permissionId'), (call, c: GoogleCtx) => {
    const old = changeablePermission(c, call.params.fileId, call.params.permissionId);
    if (old.role === 'owner') throw googleError(403, 'cannotRemoveOwner', 'The owner of a file cannot be removed.');
    c.db.permissions.delete(`${old.fileId}/${old.id}`);
    return emptyResponse(204);
  }),
];

function mergeProps(old: Record<string, string> | undefined, patch: Record<string, string | null>): Record<string, string> {
  const out = { ...(old ?? {}) };
  for (const [k, v] of Object.entries(patch)) if (v === null) delete out[k]; else out[k] = String(v);
  return out;
}

function shortcut(c: GoogleCtx, user: UserDoc, details: Record<string, unknown>): FileDoc['shortcutDetails'] {
  const target = visibleFile(c, user, String(details.targetId ?? ''));
  return { targetId: target.id, targetMimeType: target.mimeType };
}

