import type { ServiceContext } from '../core/service.js';
import type { Collection, DocumentStore } from '../core/store.js';

/** What the store keeps for the Google mock (docs/google-mock.md, "What graders see"). */
export type Cell = string | number | boolean;

export interface UserDoc { email: string; displayName: string; permissionId: string }
export interface TokenDoc { token: string; email: string }

/** A Drive file, in the Drive v3 `File` resource's own field names. */
export interface FileDoc {
  id: string;
  name: string;
  mimeType: string;
  parents: string[];
  owner: string;
  description?: string;
  createdTime: string;
  modifiedTime: string;
  trashed: boolean;
  starred: boolean;
  version: number;
  appProperties?: Record<string, string>;
  properties?: Record<string, string>;
  /** Plain files: the bytes as text. */
  content?: string;
  shortcutDetails?: { targetId: string; targetMimeType: string };
  /** A lock (`readOnly` content restriction) and its reason. */
  contentRestrictions?: { readOnly: boolean; reason: string }[];
}

export interface PermissionDoc {
  fileId: string;
  id: string;
  type: 'user' | 'group' | 'domain' | 'anyone';
  role: string;
  emailAddress?: string;
  domain?: string;
  displayName?: string;
}

export interface Paragraph { text: string; style: string; bullet: boolean }
/** A Google Doc's body, by file id; the title is the file's name. */
export interface DocumentDoc { documentId: string; paragraphs: Paragraph[]; revision: number }

export interface SheetTab { sheetId: number; title: string; index: number; rowCount: number; columnCount: number; rows: Cell[][] }
export interface SpreadsheetDoc { spreadsheetId: string; sheets: SheetTab[] }

/** A slide: its text boxes in order (layout placeholders say which is the title and which the body), its speaker notes. */
export interface SlideDoc { objectId: string; texts: { objectId: string; text: string; placeholder?: string }[]; notes: string; notesId: string }
export interface PresentationDoc { presentationId: string; slides: SlideDoc[]; revision: number }

export interface CalendarDoc { id: string; summary: string; description?: string; timeZone: string; primary: boolean; accessRole: string }
export interface EventTime { dateTime?: string; date?: string; timeZone?: string }
export interface EventDoc {
  calendarId: string;
  id: string;
  summary: string;
  description?: string;
  location?: string;
  start: EventTime;
  end: EventTime;
  attendees: { email: string; responseStatus: string }[];
  status: string;
  created: string;
  updated: string;
  sequence: number;
  organizer: string;
}

export const FOLDER = 'application/vnd.google-apps.folder';
export const DOCUMENT = 'application/vnd.google-apps.document';
export const SPREADSHEET = 'application/vnd.google-apps.spreadsheet';
export const PRESENTATION = 'application/vnd.google-apps.presentation';
export const SHORTCUT = 'application/vnd.google-apps.shortcut';
/** Dataset shorthands for the Google types. */
export const MIME_ALIASES: Record<string, string> = { folder: FOLDER, document: DOCUMENT, spreadsheet: SPREADSHEET, presentation: PRESENTATION };

export interface Db {
  users: Collection<UserDoc>;
  tokens: Collection<TokenDoc>;
  files: Collection<FileDoc>;
  permissions: Collection<PermissionDoc>;
  documents: Collection<DocumentDoc>;
  spreadsheets: Collection<SpreadsheetDoc>;
  presentations: Collection<PresentationDoc>;
  calendars: Collection<CalendarDoc>;
  events: Collection<EventDoc>;
}

export function dbOf(store: DocumentStore): Db {
  return {
    users: store.collection('users'), tokens: store.collection('tokens'), files: store.collection('files'), permissions: store.collection('permissions'),
    documents: store.collection('documents'), spreadsheets: store.collection('spreadsheets'), presentations: store.collection('presentations'),
    calendars: store.collection('calendars'), events: store.collection('events'),
  };
}

/** What a Google handler gets: the collections, the caller, seeded IDs and the logical time. */
export interface GoogleCtx {
  db: Db;
  ctx: ServiceContext;
  /** The user the access token acts as; null when the token is unknown (the auth middleware refuses). */
  user: UserDoc | null;
  /** RFC 3339 of the request's logical time, milliseconds included, as Google writes them. */
  now: string;
  /** The request's path (which API's error style answers). */
  path: string;
}

/** Drive-style IDs: `1` + 32 base64url characters, seeded. */
export function driveId(ids: Pick<ServiceContext, 'ids'>['ids'], kind = 'file'): string {
  return `1${ids.opaqueBase64(`drive:${kind}`, ids.next(`drive:${kind}`), 32)}`;
}

/** Calendar event IDs: base32hex (a–v, 0–9), 26 characters, seeded. */
export function eventId(ids: Pick<ServiceContext, 'ids'>['ids']): string {
  return ids.opaque('calendar:event', ids.next('calendar:event'), 26);
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** Drive's permission ID of a user or group: 20 digits, the same for an address wherever it appears. */
export function permissionIdFor(ids: Pick<ServiceContext, 'ids'>['ids'], email: string): string {
  return BigInt(`0x${ids.opaque('permission-id', email.toLowerCase(), 16)}`).toString().padStart(20, '0').slice(0, 20);
}
