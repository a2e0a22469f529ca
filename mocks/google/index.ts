import { ServiceRequest } from '../core/http.js';
import type { DocumentStore, StoreDump } from '../core/store.js';
import { defineService } from '../kit/index.js';
import { calendarOperations } from './calendar.js';
import { googleAuth, googleContext } from './common.js';
import { GoogleDatasetSchema, type GoogleDataset } from './dataset.js';
import { docsOperations } from './docs.js';
import { driveOperations } from './drive.js';
import { googleFault, googleRefusal, renderGoogleError } from './errors.js';
import { googleTail, seedTail } from './fallback.js';
import { loadGoogle } from './load.js';
import { dbOf, type GoogleCtx } from './model.js';
import { sheetsOperations } from './sheets.js';
import { slidesOperations } from './slides.js';

/**
 * Google Workspace on the service kit: Drive v3 and Calendar v3 (www.googleapis.com), Docs v1
 * (docs.googleapis.com), Sheets v4 (sheets.googleapis.com) and Slides v1 (slides.googleapis.com)
 * as one account's world, with Google's error envelope, `fields` masks, page tokens and faults
 * (403 `rateLimitExceeded`). The APIs' paths do not overlap, so one service answers all four
 * hosts. docs/google-mock.md.
 */

/**
 * Google's custom methods put the verb after a colon in the last segment
 * (`/v4/spreadsheets/ID/values/A1%3AC9:append`, `/v1/documents/ID:batchUpdate`); the router
 * matches them as a literal segment `@verb`. Uploads are answered by the metadata paths' operations. Ranges' own colons arrive percent-encoded from
 * Google's clients; only these verbs are split off.
 */
const VERBS = new Set(['batchUpdate', 'append', 'clear', 'batchGet', 'batchClear', 'batchGetByDataFilter', 'batchUpdateByDataFilter', 'batchClearByDataFilter', 'getByDataFilter', 'copyTo', 'search']);

function rewrite(req: ServiceRequest): ServiceRequest {
  // Media uploads go to /upload/drive/v3/files[/ID]: the same methods (drive.files.create, update) as the metadata paths.
  if (req.path.startsWith('/upload/drive/v3/files')) return new ServiceRequest(req.method, req.target.slice('/upload'.length), req.headers, req.body);
  const m = /^(\/v\d+\/.*?):([A-Za-z]+)$/.exec(req.path);
  if (!m || !VERBS.has(m[2]!)) return req;
  const q = req.target.slice(req.path.length);
  return new ServiceRequest(req.method, `${m[1]}/@${m[2]}${q}`, req.headers, req.body);
}

/** Derived collections for graders: each Doc's text, each Sheet's rows (docs/google-mock.md). */
function views(store: DocumentStore): StoreDump {
  const db = dbOf(store);
  const docText: Record<string, unknown> = {};
  for (const doc of db.documents.values()) {
    const file = db.files.get(doc.documentId);
    docText[doc.documentId] = { id: doc.documentId, title: file?.name ?? '', text: doc.paragraphs.map((p) => `${p.text}\n`).join(''), paragraphs: doc.paragraphs.map((p) => p.text) };
  }
  const rows: Record<string, unknown> = {};
  for (const sheet of db.spreadsheets.values()) {
    for (const tab of sheet.sheets) {
      tab.rows.forEach((values, i) => {
        rows[`${sheet.spreadsheetId}/${tab.title}/${i + 1}`] = { spreadsheet: sheet.spreadsheetId, sheet: tab.title, row: i + 1, values, text: values.map(String) };
      });
    }
  }
  return { doc_text: docText, sheet_rows: rows } as StoreDump;
}

export const googleService = defineService<GoogleDataset, GoogleCtx>({
  id: 'google',
  // Bump when any answer changes a byte: journals of this service then need a re-record.
  version: '1',
  dataset: GoogleDatasetSchema,
  load(data, ctx) {
    loadGoogle(data, ctx);
    seedTail(data.spec, ctx);
  },
  context: googleContext,
  middleware: [googleAuth],
  rewrite,
  operations: [...driveOperations, ...docsOperations, ...sheetsOperations, ...slidesOperations, ...calendarOperations],
  fallback: googleTail,
  errors: (error, context) => renderGoogleError(error, context?.path ?? '/drive/v3'),
  refusal: googleRefusal,
  fault: googleFault,
  views,
  volatile: {
    files: ['modifiedTime', 'version'],
    documents: ['revision'],
    presentations: ['revision'],
    events: ['updated', 'sequence', 'created'],
    doc_text: '*',
    sheet_rows: '*',
  },
});
