import { operation, rest, type Operation } from '../kit/index.js';
import { jsonBody, me, ok, q, qBool } from './common.js';
import { createFile } from './drive.js';
import { googleError } from './errors.js';
import { workspaceFile, writable } from './files.js';
import { DOCUMENT, type DocumentDoc, type FileDoc, type GoogleCtx, type Paragraph, type UserDoc } from './model.js';

/**
 * Google Docs v1 (docs.googleapis.com): documents.get renders the body as Docs does (a section
 * break at 0, then paragraphs with UTF-16 start/end indexes, text runs, named styles, bullets;
 * under `tabs[0].documentTab` with includeTabsContent), documents.create, and batchUpdate, where
 * insertText, deleteContentRange, replaceAllText, updateParagraphStyle (namedStyleType) and
 * create/deleteParagraphBullets change the text; other requests are checked and acknowledged
 * (character formatting, tables and images are not modelled: docs/google-mock.md).
 */
const LIST_ID = 'kix.list.1';
const TAB_ID = 't.0';

interface Rendered { content: unknown[]; lists: Record<string, unknown>; end: number }

function render(doc: DocumentDoc): Rendered {
  const content: unknown[] = [{ endIndex: 1, sectionBreak: { sectionStyle: { columnSeparatorStyle: 'NONE', contentDirection: 'LEFT_TO_RIGHT', sectionType: 'CONTINUOUS' } } }];
  let at = 1;
  for (const p of doc.paragraphs) {
    const text = `${p.text}\n`;
    const start = at, end = at + text.length;
    content.push({
      startIndex: start, endIndex: end,
      paragraph: {
        elements: [{ startIndex: start, endIndex: end, textRun: { content: text, textStyle: {} } }],
        paragraphStyle: { namedStyleType: p.style, direction: 'LEFT_TO_RIGHT', ...(p.style.startsWith('HEADING') || p.style === 'TITLE' ? { headingId: `h.${start}` } : {}) },
        ...(p.bullet ? { bullet: { listId: LIST_ID, textStyle: { underline: false } } } : {}),
      },
    });
    at = end;
  }
  const lists = doc.paragraphs.some((p) => p.bullet)
    ? { [LIST_ID]: { listProperties: { nestingLevels: [{ bulletAlignment: 'START', glyphSymbol: '●', glyphFormat: '%0', indentFirstLine: { magnitude: 18, unit: 'PT' }, indentStart: { magnitude: 36, unit: 'PT' }, textStyle: { underline: false }, startNumber: 1 }] } } }
    : {};
  return { content, lists, end: at };
}

const DOCUMENT_STYLE = {
  background: { color: {} }, pageNumberStart: 1, marginTop: { magnitude: 72, unit: 'PT' }, marginBottom: { magnitude: 72, unit: 'PT' },
  marginRight: { magnitude: 72, unit: 'PT' }, marginLeft: { magnitude: 72, unit: 'PT' }, pageSize: { height: { magnitude: 792, unit: 'PT' }, width: { magnitude: 612, unit: 'PT' } },
};
const NAMED_STYLES = { styles: ['NORMAL_TEXT', 'TITLE', 'SUBTITLE', 'HEADING_1', 'HEADING_2', 'HEADING_3', 'HEADING_4', 'HEADING_5', 'HEADING_6'].map((namedStyleType) => ({ namedStyleType, textStyle: {}, paragraphStyle: { namedStyleType, direction: 'LEFT_TO_RIGHT' } })) };

export function documentResource(file: FileDoc, doc: DocumentDoc, tabs: boolean): Record<string, unknown> {
  const { content, lists } = render(doc);
  const tab = { body: { content }, documentStyle: DOCUMENT_STYLE, namedStyles: NAMED_STYLES, lists, headers: {}, footers: {}, footnotes: {}, inlineObjects: {} };
  const head = { title: file.name, documentId: file.id, revisionId: revisionId(doc), suggestionsViewMode: 'SUGGESTIONS_INLINE' };
  // Object.assign on the fresh head, not `{ ...head, … }`: Node 20's V8 adds each field after a leading spread through a slow path (docs/benchmarks.md, issue 14's eighth pass).
  return tabs ? Object.assign(head, { tabs: [{ tabProperties: { tabId: TAB_ID, title: 'Tab 1', index: 0 }, documentTab: tab }] }) : Object.assign(head, tab);
}

function revisionId(doc: DocumentDoc): string {
  return `ALBJ4Lt${String(doc.revision).padStart(8, '0')}`;
}

/** Export as text/plain, text/markdown or text/html; the other formats get the plain text. */
export function exportDocument(doc: DocumentDoc, mime: string): string {
  if (mime === 'text/markdown') {
    const prefix: Record<string, string> = { TITLE: '# ', HEADING_1: '# ', HEADING_2: '## ', HEADING_3: '### ', HEADING_4: '#### ', HEADING_5: '##### ', HEADING_6: '###### ' };
    return doc.paragraphs.map((p) => `${p.bullet ? '- ' : prefix[p.style] ?? ''}${p.text}`).join('\n\n').replace(/\n\n(- )/g, '\n$1') + '\n';
  }
  if (mime === 'text/html') {
    const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    const tag: Record<string, string> = { TITLE: 'h1', HEADING_1: 'h1', HEADING_2: 'h2', HEADING_3: 'h3', HEADING_4: 'h4', HEADING_5: 'h5', HEADING_6: 'h6' };
    return `<html><body>${doc.paragraphs.map((p) => (p.bullet ? `<ul><li>${esc(p.text)}</li></ul>` : `<${tag[p.style] ?? 'p'}>${esc(p.text)}</${tag[p.style] ?? 'p'}>`)).join('')}</body></html>`;
  }
  // Docs' plain-text export starts with a byte-order mark and ends lines with CRLF.
  return `\ufeff${doc.paragraphs.map((p) => `${p.bullet ? '* ' : ''}${p.text}`).join('\r\n')}`;
}

/** Per UTF-16 unit of the body (every paragraph with its newline): the paragraph it belongs to. */
interface Flat { text: string; owner: Paragraph[] }

function flatten(doc: DocumentDoc): Flat {
  let text = '';
  const owner: Paragraph[] = [];
  for (const p of doc.paragraphs) {
    const t = `${p.text}\n`;
    text += t;
    for (let i = 0; i < t.length; i++) owner.push(p);
  }
  return { text, owner };
}

/** Paragraphs again: each ends at a newline and takes that newline's paragraph's style. */
function rebuild(flat: Flat): Paragraph[] {
  const out: Paragraph[] = [];
  let start = 0;
  for (let i = 0; i < flat.text.length; i++) {
    if (flat.text[i] === '\n') {
      const style = flat.owner[i]!;
      out.push({ text: flat.text.slice(start, i), style: style.style, bullet: style.bullet });
      start = i + 1;
    }
  }
  return out;
}

function bad(i: number, kind: string, message: string): never {
  throw googleError(400, 'badRequest', `Invalid requests[${i}].${kind}: ${message}`);
}

function index(value: unknown, i: number, kind: string, field: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) bad(i, kind, `${field} must be an integer.`);
  return value;
}

function range(req: Record<string, unknown>, i: number, kind: string, end: number): [number, number] {
  const r = req.range as Record<string, unknown> | undefined;
  if (!r || typeof r !== 'object') bad(i, kind, 'The range is required.');
  const start = index(r.startIndex, i, kind, 'startIndex');
  const stop = index(r.endIndex, i, kind, 'endIndex');
  if (start < 1) bad(i, kind, 'The start index must be greater than or equal to 1.');
  if (stop <= start) bad(i, kind, 'The range should not be empty.');
  if (stop > end) bad(i, kind, `Index ${stop - 1} must be less than the end index of the referenced segment, ${end}.`);
  return [start, stop];
}

/** The text requests, applied in order to a copy; a failing request fails the whole batch (nothing is written). */
export function applyRequests(doc: DocumentDoc, requests: unknown[]): { paragraphs: Paragraph[]; replies: unknown[] } {
  let paragraphs = doc.paragraphs.map((p) => ({ ...p }));
  const replies: unknown[] = [];
  requests.forEach((raw, i) => {
    if (!raw || typeof raw !== 'object') throw googleError(400, 'badRequest', `Invalid requests[${i}]: a request must be an object.`);
    const kinds = Object.keys(raw);
    if (kinds.length !== 1) throw googleError(400, 'badRequest', `Invalid requests[${i}]: exactly one request kind must be set.`);
    const kind = kinds[0]!;
    const req = (raw as Record<string, Record<string, unknown>>)[kind]!;
    const current: DocumentDoc = { ...doc, paragraphs };
    const end = render(current).end;
    switch (kind) {
      case 'insertText': {
        if (typeof req.text !== 'string') bad(i, kind, 'text is required.');
        const loc = req.location as Record<string, unknown> | undefined;
        // Footnote, header and footer segments are not modelled: text inserted there is acknowledged.
        if (typeof loc?.segmentId === 'string' && loc.segmentId !== '') {
          if (!/^kix\./.test(loc.segmentId)) bad(i, kind, `The segment ID ${loc.segmentId} was not found.`);
          replies.push({});
          break;
        }
        const at = loc ? index(loc.index, i, kind, 'location.index') : req.endOfSegmentLocation ? end - 1 : bad(i, kind, 'A location is required.');
        if (at < 1) bad(i, kind, 'The insertion index must be greater than or equal to 1.');
        if (at > end - 1) bad(i, kind, `Index ${at} must be less than the end index of the referenced segment, ${end}.`);
        const flat = flatten(current);
        const owner = flat.owner[at - 1]!;
        const text = (req.text as string).replace(/\r\n?/g, '\n');
        paragraphs = rebuild({ text: flat.text.slice(0, at - 1) + text + flat.text.slice(at - 1), owner: [...flat.owner.slice(0, at - 1), ...Array<Paragraph>(text.length).fill(owner), ...flat.owner.slice(at - 1)] });
        replies.push({});
        break;
      }
      case 'deleteContentRange': {
        const [start, stop] = range(req, i, kind, end);
        if (stop === end) bad(i, kind, 'The range cannot include the newline character at the end of the segment.');
        const flat = flatten(current);
        paragraphs = rebuild({ text: flat.text.slice(0, start - 1) + flat.text.slice(stop - 1), owner: [...flat.owner.slice(0, start - 1), ...flat.owner.slice(stop - 1)] });
        replies.push({});
        break;
      }
      case 'replaceAllText': {
        const contains = req.containsText as Record<string, unknown> | undefined;
        if (!contains || typeof contains.text !== 'string' || contains.text === '') bad(i, kind, 'containsText.text is required.');
        const replace = typeof req.replaceText === 'string' ? req.replaceText : '';
        const needle = contains.text as string;
        const pattern = new RegExp(needle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), contains.matchCase === true ? 'g' : 'gi');
        let count = 0;
        paragraphs = paragraphs.map((p) => ({ ...p, text: p.text.replace(pattern, () => { count++; return replace; }) }));
        // A replacement with newlines splits paragraphs, as in Docs.
        paragraphs = rebuild(flatten({ ...doc, paragraphs }));
        replies.push({ replaceAllText: count ? { occurrencesChanged: count } : {} });
        break;
      }
      case 'updateParagraphStyle': case 'createParagraphBullets': case 'deleteParagraphBullets': {
        const [start, stop] = range(req, i, kind, end);
        let at = 1;
        paragraphs = paragraphs.map((p) => {
          const s = at, e = at + p.text.length + 1;
          at = e;
          if (e <= start || s >= stop) return p;
          if (kind === 'createParagraphBullets') return { ...p, bullet: true };
          if (kind === 'deleteParagraphBullets') return { ...p, bullet: false };
          const style = (req.paragraphStyle as Record<string, unknown> | undefined)?.namedStyleType;
          const fields = String(req.fields ?? '');
          if (fields === '') bad(i, kind, 'fields is required.');
          return typeof style === 'string' && (fields === '*' || fields.split(',').map((f) => f.trim()).includes('namedStyleType')) ? { ...p, style } : p;
        });
        replies.push({});
        break;
      }
      case 'updateTextStyle': {
        range(req, i, kind, end);
        if (!req.fields) bad(i, kind, 'fields is required.');
        replies.push({});
        break;
      }
      case 'createFootnote': replies.push({ createFootnote: { footnoteId: `kix.fn${i + 1}` } }); break;
      case 'insertInlineImage': replies.push({ insertInlineImage: { objectId: `kix.img${i + 1}` } }); break;
      case 'addDocumentTab': replies.push({ addDocumentTab: { tabProperties: { tabId: `t.${i + 1}`, title: String((req.tabProperties as Record<string, unknown> | undefined)?.title ?? 'Tab'), index: 1 } } }); break;
      case 'insertTable': case 'insertTableRow': case 'insertTableColumn': case 'deleteTableRow': case 'deleteTableColumn': case 'updateTableCellStyle':
      case 'insertPageBreak': case 'insertSectionBreak': case 'updateDocumentStyle': case 'updateDocumentTabProperties': case 'deleteDocumentTab':
      case 'createNamedRange': case 'deleteNamedRange': case 'replaceNamedRangeContent': case 'insertPerson': case 'insertDate': case 'insertRichLink':
      case 'mergeTableCells': case 'unmergeTableCells': case 'updateTableColumnProperties': case 'updateTableRowStyle': case 'pinTableHeaderRows':
      case 'deletePositionedObject': case 'replaceImage': case 'createHeader': case 'createFooter': case 'deleteHeader': case 'deleteFooter': case 'updateSectionStyle':
        replies.push({});
        break;
      default:
        throw googleError(400, 'badRequest', `Invalid JSON payload received. Unknown name "${kind}" at 'requests[${i}]': Cannot find field.`);
    }
  });
  return { paragraphs: paragraphs.length ? paragraphs : [{ text: '', style: 'NORMAL_TEXT', bullet: false }], replies };
}

function documentOf(c: GoogleCtx, user: UserDoc, id: string): [FileDoc, DocumentDoc] {
  return workspaceFile(c, user, id, DOCUMENT, (fileId) => c.db.documents.get(fileId));
}

export const docsOperations: Operation<GoogleCtx>[] = [
  operation('docs.documents.get', rest('GET', '/v1/documents/:documentId'), (call, c: GoogleCtx) => {
    const user = me(c);
    const [file, doc] = documentOf(c, user, call.params.documentId);
    qBool(call.req, 'includeTabsContent');
    return ok(call.req, documentResource(file, doc, q(call.req, 'includeTabsContent') === 'true'));
  }),

  operation('docs.documents.create', rest('POST', '/v1/documents'), (call, c: GoogleCtx) => {
    const user = me(c);
    const body = jsonBody(call.req);
    const file = createFile(c, user, { name: typeof body.title === 'string' && body.title !== '' ? body.title : 'Untitled document', mimeType: DOCUMENT, parents: ['root'] });
    return ok(call.req, documentResource(file, c.db.documents.get(file.id)!, false));
  }),

  operation('docs.documents.batchUpdate', rest('POST', '/v1/documents/:documentId/@batchUpdate'), (call, c: GoogleCtx) => {
    const user = me(c);
    const [file, doc] = documentOf(c, user, call.params.documentId);
    writable(c, user, file);
    const body = jsonBody(call.req);
    if (!Array.isArray(body.requests)) throw googleError(400, 'badRequest', 'Invalid JSON payload received. requests must be a list.');
    const { paragraphs, replies } = applyRequests(doc, body.requests);
    const next = c.db.documents.put(doc.documentId, { ...doc, paragraphs, revision: doc.revision + 1 });
    c.db.files.put(file.id, { ...file, modifiedTime: c.now, version: file.version + 1 });
    return ok(call.req, { replies, writeControl: { requiredRevisionId: revisionId(next) }, documentId: file.id });
  }),
];
