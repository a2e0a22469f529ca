import test from 'ava';
import { z } from 'zod';
import { sweep } from '../mocks/google/conformance.js';
import { conformance } from './helpers/conformance.js';

// The conformance suite over the Google Workspace mock (test/helpers/conformance.ts):
// determinism, seeds, Google's error envelope for errors and faults, volatile fields, and all
// 120 tools of @piotr-agier/google-drive-mcp through MCP.

const GoogleError = z.object({
  error: z.object({
    code: z.number().int(),
    message: z.string(),
    errors: z.array(z.object({ message: z.string(), domain: z.string(), reason: z.string(), location: z.string().optional(), locationType: z.string().optional() }).strict()).optional(),
    status: z.string(),
  }).strict(),
}).strict();

const NOTES = '1ConfDocMeetingNotes000000000000';
const ORDERS = '1ConfSheetOrders0000000000000000';

conformance(test, {
  service: 'google',
  sweep,
  headers: [['Authorization', 'Bearer google-conformance-token']],
  values: {
    fileId: [NOTES, ORDERS, '1ConfTextReadme00000000000000000', '1ConfMissing000000000000000000000'],
    documentId: [NOTES, '1ConfDocDraft0000000000000000000', 'missing-doc'],
    spreadsheetId: [ORDERS, 'missing-sheet'],
    presentationId: ['1ConfSlidesPitch0000000000000000', 'missing-deck'],
    pageObjectId: ['slide_intro', 'nope'],
    range: ['Orders!A1:D4', 'Orders!A:D', 'Summary', 'Nope!A1'],
    permissionId: ['08000000000000000001', '999'],
    calendarId: ['primary', 'team-northwind@group.calendar.google.com', 'missing@group.calendar.google.com'],
    eventId: ['conf0meet0000001', 'conf0design00002', 'missing00000'],
    commentId: ['AAAAConfComment1', 'missing'], driveId: ['0AConfSharedDrive00Uk9PVA', 'missing'],
  },
  bodies: {
    'POST /drive/v3/files': (r, i) => ({ name: `Generated ${i}.txt`, mimeType: r.pick(['text/plain', 'application/vnd.google-apps.document', 'application/vnd.google-apps.folder']) }),
    'PATCH /drive/v3/files/:fileId': (r) => ({ starred: r.pick([true, false]), description: 'touched' }),
    'POST /drive/v3/files/:fileId/copy': (_r, i) => ({ name: `Copy ${i}` }),
    'POST /drive/v3/files/:fileId/permissions': (r) => ({ type: 'user', role: r.pick(['reader', 'writer']), emailAddress: 'gen@northwind.example' }),
    'PATCH /drive/v3/files/:fileId/permissions/:permissionId': () => ({ role: 'commenter' }),
    'POST /v1/documents': (_r, i) => ({ title: `Doc ${i}` }),
    'POST /v1/documents/:documentId/@batchUpdate': (r, i) => ({ requests: [{ insertText: { location: { index: 1 }, text: `Line ${i}\n` } }, { replaceAllText: { containsText: { text: r.pick(['Alex', 'Sam']), matchCase: true }, replaceText: 'Someone' } }] }),
    'POST /v4/spreadsheets': (_r, i) => ({ properties: { title: `Sheet ${i}` } }),
    'POST /v4/spreadsheets/:spreadsheetId/@batchUpdate': (_r, i) => ({ requests: [{ addSheet: { properties: { title: `Tab ${i}` } } }] }),
    'PUT /v4/spreadsheets/:spreadsheetId/values/:range': (r) => ({ values: [[r.pick(['x', 'y']), r.int(1, 9)]] }),
    'POST /v4/spreadsheets/:spreadsheetId/values/:range/@append': (r, i) => ({ values: [[`A-${2000 + i}`, 'Gen', r.int(1, 900), 'open']] }),
    'POST /v1/presentations': (_r, i) => ({ title: `Deck ${i}` }),
    'POST /v1/presentations/:presentationId/@batchUpdate': () => ({ requests: [{ createSlide: {} }] }),
    'POST /calendar/v3/calendars/:calendarId/events': (r, i) => ({ summary: `Event ${i}`, start: { dateTime: `2025-03-1${r.int(0, 9)}T09:00:00Z` }, end: { dateTime: `2025-03-1${r.int(0, 9)}T23:00:00Z` } }),
    'PATCH /calendar/v3/calendars/:calendarId/events/:eventId': () => ({ location: 'Room 9' }),
    'PUT /calendar/v3/calendars/:calendarId/events/:eventId': (_r, i) => ({ summary: `Replaced ${i}`, start: { dateTime: '2025-03-03T10:00:00Z' }, end: { dateTime: '2025-03-03T11:00:00Z' } }),
  },
  requests: [
    (r) => ({ method: 'GET', target: `/drive/v3/files?q=${encodeURIComponent(r.pick(["trashed = false", "name contains 'notes'", "mimeType = 'application/vnd.google-apps.folder'", "'root' in parents", "fullText contains 'importer'"]))}&pageSize=${r.int(1, 5)}&fields=nextPageToken,files(id,name)` }),
    (r) => ({ method: 'GET', target: `/v4/spreadsheets/${ORDERS}/values/${encodeURIComponent(r.pick(['Orders!A1:D4', 'Orders!A:B', 'Summary']))}?valueRenderOption=${r.pick(['FORMATTED_VALUE', 'UNFORMATTED_VALUE'])}` }),
    () => ({ method: 'POST', target: `/v4/spreadsheets/${ORDERS}/values/Orders!A1%3AD1:append?valueInputOption=RAW`, body: { values: [['A-3000', 'Colon', 1, 'open']] } }),
    () => ({ method: 'POST', target: `/v1/documents/${NOTES}:batchUpdate`, body: { requests: [{ insertText: { endOfSegmentLocation: {}, text: 'tail' } }] } }),
    () => ({ method: 'GET', target: '/drive/v3/about' }),
  ],
  seeded: { patterns: [/1[A-Za-z0-9_-]{32}/g, /"0A[A-Za-z0-9_-]{17,}/g, /"A[A-Za-z0-9_-]{20}"/g, /\b[0-9a-f]{26}\b/g, /[0-9a-f]{10,12}/g, /eid=[A-Za-z0-9_-]+/g, /"id":"[0-9]{20}"/g], headers: ['Content-Length'] },
  errorShape: GoogleError,
});
