import type { ServiceContext } from '../core/service.js';
import { googleError } from './errors.js';
import { DOCUMENT, FOLDER, PRESENTATION, SPREADSHEET, SHORTCUT, type FileDoc, type GoogleCtx, type PermissionDoc, type UserDoc } from './model.js';
import type { QueryFile } from './query.js';

/** Drive files as the API shows them: access, the root folder, the File resource, text for search and export. */

/** The ID of a user's My Drive root folder (`root` is its alias). */
export function rootIdFor(ids: ServiceContext['ids'], email: string): string {
  return `0A${ids.opaqueBase64('root', email.toLowerCase(), 17)}Uk9PVA`;
}

export function permissionsOf(c: GoogleCtx, fileId: string): PermissionDoc[] {
  return c.db.permissions.filter((p) => p.fileId === fileId);
}

/** The caller's role on a file: owner, writer, commenter, reader, or null (Drive then says the file does not exist). */
export function roleOn(c: GoogleCtx, file: FileDoc, user: UserDoc): string | null {
  if (file.owner === user.email) return 'owner';
  const domain = user.email.slice(user.email.indexOf('@') + 1);
  const rank = ['reader', 'commenter', 'writer', 'fileOrganizer', 'organizer', 'owner'];
  let best: string | null = null;
  for (const p of permissionsOf(c, file.id)) {
    const applies = (p.type === 'user' || p.type === 'group') ? p.emailAddress?.toLowerCase() === user.email.toLowerCase()
      : p.type === 'domain' ? p.domain === domain : p.type === 'anyone';
    if (applies && (best === null || rank.indexOf(p.role) > rank.indexOf(best))) best = p.role;
  }
  return best;
}

export function fileNotFound(fileId: string): never {
  throw googleError(404, 'notFound', `File not found: ${fileId}.`, { location: 'fileId', locationType: 'parameter' });
}

/** The file the caller can see, `root` resolved; Drive's 404 otherwise. */
export function visibleFile(c: GoogleCtx, user: UserDoc, fileId: string): FileDoc {
  const id = fileId === 'root' ? rootIdFor(c.ctx.ids, user.email) : fileId;
  if (id === rootIdFor(c.ctx.ids, user.email)) return rootFolder(c, user);
  const file = c.db.files.get(id);
  if (!file || roleOn(c, file, user) === null) return fileNotFound(fileId);
  return file;
}

export function rootFolder(c: GoogleCtx, user: UserDoc): FileDoc {
  return { id: rootIdFor(c.ctx.ids, user.email), name: 'My Drive', mimeType: FOLDER, parents: [], owner: user.email, createdTime: new Date(c.ctx.epochMs).toISOString(), modifiedTime: new Date(c.ctx.epochMs).toISOString(), trashed: false, starred: false, version: 1 };
}

/**
 * A Docs, Sheets or Slides file by ID for those APIs: their 404 `Requested entity was not found.`
 * for one the caller cannot see, their 400 for a file of another type.
 */
export function workspaceFile<T>(c: GoogleCtx, user: UserDoc, id: string, mimeType: string, body: (id: string) => T | undefined): [FileDoc, T] {
  let file: FileDoc;
  try {
    file = visibleFile(c, user, id);
  } catch {
    throw googleError(404, 'notFound', 'Requested entity was not found.');
  }
  const found = file.mimeType === mimeType ? body(file.id) : undefined;
  if (found === undefined) throw googleError(400, 'failedPrecondition', 'This operation is not supported for this document');
  return [file, found];
}

/** The caller may change the file (owner or writer); Drive's 403 otherwise. */
export function writable(c: GoogleCtx, user: UserDoc, file: FileDoc): void {
  const role = roleOn(c, file, user);
  if (role !== 'owner' && role !== 'writer' && role !== 'organizer' && role !== 'fileOrganizer') {
    throw googleError(403, 'insufficientFilePermissions', 'The user does not have sufficient permissions for this file.');
  }
}

/** Parents as stored (`root` is kept literally) shown with the owner's real root ID. */
function shownParents(c: GoogleCtx, file: FileDoc): string[] {
  return file.parents.map((p) => (p === 'root' ? rootIdFor(c.ctx.ids, file.owner) : p));
}

const LINK: Record<string, string> = {
  [DOCUMENT]: 'https://docs.google.com/document/d/{id}/edit?usp=drivesdk',
  [SPREADSHEET]: 'https://docs.google.com/spreadsheets/d/{id}/edit?usp=drivesdk',
  [PRESENTATION]: 'https://docs.google.com/presentation/d/{id}/edit?usp=drivesdk',
  [FOLDER]: 'https://drive.google.com/drive/folders/{id}',
};

export const EXPORTS: Record<string, Record<string, string>> = {
  [DOCUMENT]: { 'text/plain': 'txt', 'text/markdown': 'md', 'text/html': 'html', 'application/pdf': 'pdf', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx', 'application/rtf': 'rtf', 'application/vnd.oasis.opendocument.text': 'odt' },
  [SPREADSHEET]: { 'text/csv': 'csv', 'text/tab-separated-values': 'tsv', 'application/pdf': 'pdf', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx' },
  [PRESENTATION]: { 'text/plain': 'txt', 'application/pdf': 'pdf', 'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx' },
};

export function userResource(c: GoogleCtx, email: string, caller: UserDoc | null): Record<string, unknown> {
  const user = c.db.users.get(email);
  return { kind: 'drive#user', displayName: user?.displayName ?? email, me: caller?.email === email, permissionId: user?.permissionId ?? '', emailAddress: email, photoLink: `https://lh3.googleusercontent.com/a/default-user=s64` };
}

export function permissionResource(p: PermissionDoc): Record<string, unknown> {
  return {
    kind: 'drive#permission', id: p.id, type: p.type, role: p.role,
    ...(p.emailAddress !== undefined ? { emailAddress: p.emailAddress } : {}), ...(p.domain !== undefined ? { domain: p.domain } : {}),
    ...(p.displayName !== undefined ? { displayName: p.displayName } : {}),
    ...(p.type === 'anyone' || p.type === 'domain' ? { allowFileDiscovery: false } : {}),
    deleted: false, pendingOwner: false,
    permissionDetails: [{ permissionType: 'file', role: p.role, inherited: false }],
  };
}

/** The full Drive v3 File resource (a `fields` mask cuts it down; without one Drive answers kind, id, name, mimeType). */
export function fileResource(c: GoogleCtx, file: FileDoc, caller: UserDoc): Record<string, unknown> {
  const role = roleOn(c, file, caller) ?? 'reader';
  const canEdit = role === 'owner' || role === 'writer' || role === 'organizer' || role === 'fileOrganizer';
  const permissions = permissionsOf(c, file.id);
  const google = file.mimeType.startsWith('application/vnd.google-apps.');
  const size = file.content !== undefined ? Buffer.byteLength(file.content, 'utf8') : undefined;
  const ext = /\.([A-Za-z0-9]{1,8})$/.exec(file.name)?.[1];
  return {
    kind: 'drive#file', id: file.id, name: file.name, mimeType: file.mimeType,
    ...(file.description !== undefined ? { description: file.description } : {}),
    starred: file.starred, trashed: file.trashed, explicitlyTrashed: file.trashed,
    parents: shownParents(c, file), spaces: ['drive'], version: String(file.version),
    webViewLink: (LINK[file.mimeType] ?? 'https://drive.google.com/file/d/{id}/view?usp=drivesdk').replace('{id}', file.id),
    ...(google ? {} : { webContentLink: `https://drive.google.com/uc?id=${file.id}&export=download` }),
    iconLink: `https://drive-thirdparty.googleusercontent.com/16/type/${file.mimeType}`,
    hasThumbnail: false, thumbnailVersion: '0', viewedByMe: true,
    createdTime: file.createdTime, modifiedTime: file.modifiedTime, modifiedByMe: file.owner === caller.email,
    owners: [userResource(c, file.owner, caller)], lastModifyingUser: userResource(c, file.owner, caller),
    shared: permissions.length > 1, ownedByMe: file.owner === caller.email,
    capabilities: { canEdit, canComment: canEdit || role === 'commenter', canShare: canEdit, canCopy: true, canDownload: true, canDelete: role === 'owner', canRename: canEdit, canTrash: role === 'owner', canAddChildren: canEdit && file.mimeType === FOLDER, canListChildren: file.mimeType === FOLDER, canReadRevisions: canEdit, canModifyContent: canEdit },
    viewersCanCopyContent: true, copyRequiresWriterPermission: false, writersCanShare: true,
    permissions: permissions.map(permissionResource), permissionIds: permissions.map((p) => p.id),
    ...(file.appProperties ? { appProperties: file.appProperties } : {}), ...(file.properties ? { properties: file.properties } : {}),
    ...(size !== undefined ? { size: String(size), quotaBytesUsed: String(size), originalFilename: file.name, ...(ext ? { fileExtension: ext, fullFileExtension: ext } : {}), headRevisionId: `0B${String(file.version).padStart(6, '0')}` } : { quotaBytesUsed: '0' }),
    ...(EXPORTS[file.mimeType] ? { exportLinks: Object.fromEntries(Object.entries(EXPORTS[file.mimeType]!).map(([mime, e]) => [mime, `https://docs.google.com/feeds/download/${file.mimeType === DOCUMENT ? 'documents' : file.mimeType === SPREADSHEET ? 'spreadsheets' : 'presentations'}/Export?id=${file.id}&exportFormat=${e}`])) } : {}),
    ...(file.mimeType === SHORTCUT && file.shortcutDetails ? { shortcutDetails: file.shortcutDetails } : {}),
    contentRestrictions: (file.contentRestrictions ?? []).filter((r) => r.readOnly).map((r) => ({ readOnly: true, reason: r.reason, type: 'globalContentRestriction', restrictingUser: userResource(c, file.owner, caller), restrictionTime: file.modifiedTime })),
  };
}

/** Drive's default answer for a file when no `fields` is given. */
export function fileDefault(c: GoogleCtx, file: FileDoc, caller: UserDoc): Record<string, unknown> {
  const r = fileResource(c, file, caller);
  return { kind: r.kind, id: r.id, name: r.name, mimeType: r.mimeType };
}

/** The text of a Doc, Sheet or Slides deck, or a plain file's content (search's fullText, export). */
export function textOf(c: GoogleCtx, file: FileDoc): string {
  if (file.mimeType === DOCUMENT) return (c.db.documents.get(file.id)?.paragraphs ?? []).map((p) => `${p.text}\n`).join('');
  if (file.mimeType === SPREADSHEET) return (c.db.spreadsheets.get(file.id)?.sheets ?? []).map((s) => s.rows.map((r) => r.join(' ')).join('\n')).join('\n');
  if (file.mimeType === PRESENTATION) return (c.db.presentations.get(file.id)?.slides ?? []).map((s) => s.texts.map((t) => t.text).join('\n')).join('\n');
  return file.content ?? '';
}

export function queryView(c: GoogleCtx, file: FileDoc, caller: UserDoc): QueryFile {
  const permissions = permissionsOf(c, file.id);
  const emails = (roles: string[]) => permissions.filter((p) => roles.includes(p.role) && p.emailAddress).map((p) => p.emailAddress!);
  const withMe = (list: string[]) => (list.some((e) => e.toLowerCase() === caller.email.toLowerCase()) ? [...list, 'me'] : list);
  return {
    name: file.name, mimeType: file.mimeType, trashed: file.trashed, starred: file.starred,
    sharedWithMe: file.owner !== caller.email, createdTime: file.createdTime, modifiedTime: file.modifiedTime,
    parents: [...shownParents(c, file), ...(file.owner === caller.email && file.parents.includes('root') ? ['root'] : [])],
    // `'me' in owners` (and writers, readers) is the caller.
    owners: withMe([file.owner]), writers: withMe(emails(['owner', 'writer', 'organizer', 'fileOrganizer'])), readers: withMe(emails(['owner', 'writer', 'organizer', 'fileOrganizer', 'commenter', 'reader'])),
    fullText: `${file.name}\n${file.description ?? ''}\n${textOf(c, file)}`,
    properties: file.properties ?? {}, appProperties: file.appProperties ?? {},
  };
}
