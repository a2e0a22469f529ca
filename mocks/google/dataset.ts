import { z } from 'zod';

/**
 * The Google Workspace dataset (`<scenario>/dataset/google.json`, and the background world in
 * scenarios/baseline/dataset/google.json): one Google account's Drive (folders, Docs, Sheets,
 * Slides, plain files, their permissions) and Calendar. The single source of truth for its
 * format; docs/google-mock.md.
 */
const Email = z.string().email();
const Time = z.string().datetime({ offset: true });

const User = z.object({
  email: Email,
  displayName: z.string().min(1),
  /** OAuth access tokens that act as this user (`ya29.…`). */
  tokens: z.array(z.string().min(1)).default([]),
}).strict();

const Permission = z.object({
  id: z.string().min(1).optional(),
  type: z.enum(['user', 'group', 'domain', 'anyone']),
  role: z.enum(['owner', 'organizer', 'fileOrganizer', 'writer', 'commenter', 'reader']),
  emailAddress: Email.optional(),
  domain: z.string().optional(),
  displayName: z.string().optional(),
}).strict();

/** A paragraph of a Google Doc: its text (no newline) and, optionally, its style and bullet. */
export const ParagraphSchema = z.union([
  z.string(),
  z.object({
    text: z.string(),
    style: z.enum(['NORMAL_TEXT', 'TITLE', 'SUBTITLE', 'HEADING_1', 'HEADING_2', 'HEADING_3', 'HEADING_4', 'HEADING_5', 'HEADING_6']).default('NORMAL_TEXT'),
    bullet: z.boolean().default(false),
  }).strict(),
]);

const Cell = z.union([z.string(), z.number(), z.boolean()]);
const Sheet = z.object({
  title: z.string().min(1),
  sheetId: z.number().int().min(0).optional(),
  /** Rows of cells from A1; numbers and booleans stay typed (UNFORMATTED_VALUE). */
  rows: z.array(z.array(Cell)).default([]),
  rowCount: z.number().int().min(1).optional(),
  columnCount: z.number().int().min(1).optional(),
}).strict();

const Slide = z.object({
  objectId: z.string().min(1).optional(),
  /** Text boxes on the slide, in order (the first is its title). */
  texts: z.array(z.string()).default([]),
  notes: z.string().default(''),
}).strict();

const FileSchema = z.object({
  /** Default: a seeded Drive ID. */
  id: z.string().min(1).optional(),
  name: z.string().min(1),
  /** `folder`, `document`, `spreadsheet`, `presentation` (Google types), or any MIME type. */
  mimeType: z.string().min(1),
  /** Parent folder ids; default the owner's My Drive root (`root`). */
  parents: z.array(z.string().min(1)).optional(),
  /** The owner's email; default the dataset's first user. */
  owner: Email.optional(),
  description: z.string().optional(),
  createdTime: Time.optional(),
  modifiedTime: Time.optional(),
  trashed: z.boolean().default(false),
  starred: z.boolean().default(false),
  permissions: z.array(Permission).default([]),
  appProperties: z.record(z.string()).optional(),
  /** Plain files: their text content. */
  content: z.string().optional(),
  /** Docs: the body's paragraphs. */
  paragraphs: z.array(ParagraphSchema).optional(),
  /** Sheets: the tabs. */
  sheets: z.array(Sheet).optional(),
  /** Slides: the slides. */
  slides: z.array(Slide).optional(),
}).strict();
export type DatasetFile = z.infer<typeof FileSchema>;

const EventTime = z.union([z.object({ dateTime: Time, timeZone: z.string().optional() }).strict(), z.object({ date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/) }).strict()]);

const Calendar = z.object({
  id: z.string().min(1),
  summary: z.string().min(1),
  description: z.string().optional(),
  timeZone: z.string().default('UTC'),
  primary: z.boolean().default(false),
  accessRole: z.enum(['owner', 'writer', 'reader', 'freeBusyReader']).default('owner'),
}).strict();

const Event = z.object({
  id: z.string().regex(/^[a-v0-9]{5,1024}$/).optional(),
  /** Default: the primary calendar. */
  calendarId: z.string().min(1).optional(),
  summary: z.string(),
  description: z.string().optional(),
  location: z.string().optional(),
  start: EventTime,
  end: EventTime,
  attendees: z.array(z.object({ email: Email, responseStatus: z.enum(['needsAction', 'declined', 'tentative', 'accepted']).default('needsAction') }).strict()).default([]),
  status: z.enum(['confirmed', 'tentative', 'cancelled']).default('confirmed'),
  created: Time.optional(),
}).strict();

export const GoogleDatasetSchema = z.object({
  /** The account's users; the first is the one tokens act as unless a user names its own. */
  users: z.array(User).default([]),
  files: z.array(FileSchema).default([]),
  calendars: z.array(Calendar).default([]),
  events: z.array(Event).default([]),
  /** Records of the spec fallback's collections (`/drive/v3/drives`, …), in the spec's shape. */
  spec: z.record(z.array(z.record(z.unknown()))).default({}),
}).strict();
export type GoogleDataset = z.infer<typeof GoogleDatasetSchema>;
