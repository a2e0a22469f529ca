import type { ServiceRequest } from '../core/http.js';
import { operation, rest, type Operation } from '../kit/index.js';
import { jsonBody, me, ok, q } from './common.js';
import { createFile } from './drive.js';
import { googleError } from './errors.js';
import { workspaceFile, writable } from './files.js';
import { SPREADSHEET, type Cell, type FileDoc, type GoogleCtx, type SheetTab, type SpreadsheetDoc, type UserDoc } from './model.js';

/**
 * Google Sheets v4 (sheets.googleapis.com): spreadsheets get/create/batchUpdate (sheet tabs added,
 * renamed, deleted, rows and columns inserted or deleted; formatting requests acknowledged) and
 * values get/update/append/clear and their batch forms, in A1 notation (`'Q3 Orders'!A2:D`),
 * with RAW / USER_ENTERED input and FORMATTED / UNFORMATTED rendering. Formulas are kept as
 * text, not evaluated (docs/google-mock.md).
 */

export function newSpreadsheet(id: string, csv?: string): SpreadsheetDoc {
  const rows = csv ? csv.replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n').map((line) => line.split(',').map(parseEntered)) : [];
  return { spreadsheetId: id, sheets: [{ sheetId: 0, title: 'Sheet1', index: 0, rowCount: Math.max(1000, rows.length), columnCount: 26, rows }] };
}

export function csvOf(doc: SpreadsheetDoc, sep: string): string {
  const rows = doc.sheets[0]?.rows ?? [];
  const width = Math.max(0, ...rows.map((r) => r.length));
  const cell = (v: Cell | undefined) => {
    const s = formatted(v);
    return sep === ',' && /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return rows.map((r) => Array.from({ length: width }, (_, i) => cell(r[i])).join(sep)).join('\r\n');
}

function formatted(v: Cell | undefined): string {
  if (v === undefined) return '';
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  return String(v);
}

/** USER_ENTERED: numbers and booleans as a person would type them; everything else text (formulas kept as text). */
function parseEntered(v: unknown): Cell {
  if (typeof v === 'number' || typeof v === 'boolean') return v;
  const s = v === null || v === undefined ? '' : String(v);
  if (/^-?\d+(\.\d+)?$/.test(s.trim())) return Number(s.trim());
  if (/^true$/i.test(s)) return true;
  if (/^false$/i.test(s)) return false;
  return s;
}

function raw(v: unknown): Cell {
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'string') return v;
  return v === null || v === undefined ? '' : JSON.stringify(v);
}

// ---- A1 notation ----

/** A range on a sheet: rows and columns from 0, ends exclusive (null: to the sheet's edge); `anchor` when it named one cell. */
interface Grid { sheet: SheetTab; r0: number; c0: number; r1: number | null; c1: number | null; anchor?: boolean }

function colIndex(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

export function colName(i: number): string {
  let s = '';
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

function quoteSheet(title: string): string {
  return /^[A-Za-z0-9_]+$/.test(title) ? title : `'${title.replace(/'/g, "''")}'`;
}

function badRange(range: string): never {
  throw googleError(400, 'badRequest', `Unable to parse range: ${range}`);
}

export function parseA1(doc: SpreadsheetDoc, range: string): Grid {
  let sheetName: string | null = null;
  let cells = range;
  const m = /^'((?:[^']|'')+)'(?:!(.*))?$/.exec(range) ?? /^([^!']+)!(.*)$/.exec(range);
  if (m) {
    sheetName = m[1]!.replace(/''/g, "'");
    cells = m[2] ?? '';
  } else if (doc.sheets.some((s) => s.title === range) || !/^[A-Za-z]*\d*(:[A-Za-z]*\d*)?$/.test(range)) {
    // A bare name is a sheet when one has it (`Summary`), else cells of the first sheet (`B2`, `A:C`).
    sheetName = range;
    cells = '';
  }
  const sheet = sheetName === null ? doc.sheets[0] : doc.sheets.find((s) => s.title === sheetName);
  if (!sheet) badRange(range);
  if (cells === '') return { sheet, r0: 0, c0: 0, r1: null, c1: null };
  const parts = cells.split(':');
  if (parts.length > 2) badRange(range);
  const cell = (s: string) => {
    const x = /^([A-Za-z]*)(\d*)$/.exec(s);
    if (!x || (x[1] === '' && x[2] === '')) badRange(range);
    return { c: x[1] ? colIndex(x[1]) : null, r: x[2] ? Number(x[2]) - 1 : null };
  };
  const a = cell(parts[0]!);
  const b = parts[1] !== undefined ? cell(parts[1]) : a;
  return { sheet, r0: a.r ?? 0, c0: a.c ?? 0, r1: b.r === null ? null : b.r + 1, c1: b.c === null ? null : b.c + 1, ...(parts.length === 1 ? { anchor: true } : {}) };
}

function a1(grid: Grid, r1: number, c1: number): string {
  const start = `${colName(grid.c0)}${grid.r0 + 1}`, end = `${colName(c1 - 1)}${r1}`;
  return `${quoteSheet(grid.sheet.title)}!${start === end ? start : `${start}:${end}`}`;
}

function bounds(grid: Grid): [number, number] {
  return [Math.min(grid.r1 ?? grid.sheet.rowCount, grid.sheet.rowCount), Math.min(grid.c1 ?? grid.sheet.columnCount, grid.sheet.columnCount)];
}

type Render = 'FORMATTED_VALUE' | 'UNFORMATTED_VALUE' | 'FORMULA';

function renderOption(req: ServiceRequest): Render {
  const v = q(req, 'valueRenderOption') ?? 'FORMATTED_VALUE';
  if (v !== 'FORMATTED_VALUE' && v !== 'UNFORMATTED_VALUE' && v !== 'FORMULA') throw googleError(400, 'badRequest', `Invalid value at 'value_render_option' (type.googleapis.com/google.apps.sheets.v4.ValueRenderOption), "${v}"`);
  return v;
}

function valueRange(doc: SpreadsheetDoc, range: string, render: Render, major: string): Record<string, unknown> {
  const grid = parseA1(doc, range);
  const [r1, c1] = bounds(grid);
  let rows: (string | number | boolean)[][] = [];
  for (let r = grid.r0; r < r1 && r < grid.sheet.rows.length; r++) {
    const row = grid.sheet.rows[r] ?? [];
    const cells = row.slice(grid.c0, c1).map((v) => (render === 'FORMATTED_VALUE' ? formatted(v) : v));
    while (cells.length && (cells[cells.length - 1] === '' || cells[cells.length - 1] === undefined)) cells.pop();
    rows.push(cells);
  }
  while (rows.length && rows[rows.length - 1]!.length === 0) rows.pop();
  if (major === 'COLUMNS') {
    const width = Math.max(0, ...rows.map((r) => r.length));
    rows = Array.from({ length: width }, (_, c) => {
      const col = rows.map((r) => r[c] ?? '');
      while (col.length && col[col.length - 1] === '') col.pop();
      return col;
    });
  }
  return { range: a1(grid, r1, c1), majorDimension: major, ...(rows.length ? { values: rows } : {}) };
}

function inputOption(value: unknown): (v: unknown) => Cell {
  if (value === 'RAW') return raw;
  if (value === 'USER_ENTERED') return parseEntered;
  if (value === undefined) throw googleError(400, 'badRequest', "'valueInputOption' is required but not specified");
  throw googleError(400, 'badRequest', `Invalid value at 'value_input_option' (type.googleapis.com/google.apps.sheets.v4.ValueInputOption), "${String(value)}"`);
}

/** Writes `values` (rows) at the grid's top-left; answers the UpdateValuesResponse fields. */
function write(doc: SpreadsheetDoc, grid: Grid, values: unknown, parse: (v: unknown) => Cell, major = 'ROWS'): Record<string, unknown> {
  if (!Array.isArray(values) || values.some((r) => !Array.isArray(r))) throw googleError(400, 'badRequest', "Invalid value at 'data.values' (type.googleapis.com/google.protobuf.ListValue)");
  let rows = (values as unknown[][]).map((r) => r.map(parse));
  if (major === 'COLUMNS') {
    const height = Math.max(0, ...rows.map((r) => r.length));
    rows = Array.from({ length: height }, (_, i) => rows.map((col) => col[i] ?? ''));
  }
  const height = rows.length, width = Math.max(0, ...rows.map((r) => r.length));
  // One cell is where the values start; a range with two corners bounds them.
  if (!grid.anchor && (grid.r1 !== null && grid.r0 + height > grid.r1 || grid.c1 !== null && grid.c0 + width > grid.c1)) {
    throw googleError(400, 'badRequest', `Requested writing within range [${a1(grid, grid.r1 ?? grid.r0 + 1, grid.c1 ?? grid.c0 + 1)}], but tried writing to ${grid.r1 !== null && grid.r0 + height > grid.r1 ? `row [${grid.r0 + height}]` : `column [${colName(grid.c0 + width - 1)}]`}`);
  }
  const sheet = grid.sheet;
  const next = sheet.rows.map((r) => [...r]);
  rows.forEach((row, i) => {
    const r = grid.r0 + i;
    while (next.length <= r) next.push([]);
    const line = next[r]!;
    row.forEach((v, j) => {
      while (line.length < grid.c0 + j) line.push('');
      line[grid.c0 + j] = v;
    });
  });
  const tab: SheetTab = { ...sheet, rows: trim(next), rowCount: Math.max(sheet.rowCount, grid.r0 + height), columnCount: Math.max(sheet.columnCount, grid.c0 + width) };
  doc.sheets = doc.sheets.map((s) => (s.sheetId === sheet.sheetId ? tab : s));
  grid.sheet = tab;
  const cells = rows.reduce((n, r) => n + r.length, 0);
  return height && width
    ? { spreadsheetId: doc.spreadsheetId, updatedRange: a1(grid, grid.r0 + height, grid.c0 + width), updatedRows: height, updatedColumns: width, updatedCells: cells }
    : { spreadsheetId: doc.spreadsheetId, updatedRange: a1(grid, grid.r0 + 1, grid.c0 + 1) };
}

function trim(rows: Cell[][]): Cell[][] {
  const out = rows.map((r) => {
    const line = [...r];
    while (line.length && line[line.length - 1] === '') line.pop();
    return line;
  });
  while (out.length && out[out.length - 1]!.length === 0) out.pop();
  return out;
}

function clear(doc: SpreadsheetDoc, range: string): string {
  const grid = parseA1(doc, range);
  const [r1, c1] = bounds(grid);
  const rows = grid.sheet.rows.map((row, r) => (r < grid.r0 || r >= r1 ? [...row] : row.map((v, c) => (c >= grid.c0 && c < c1 ? '' : v))));
  doc.sheets = doc.sheets.map((s) => (s.sheetId === grid.sheet.sheetId ? { ...s, rows: trim(rows) } : s));
  return a1(grid, r1, c1);
}

function spreadsheetOf(c: GoogleCtx, user: UserDoc, id: string): [FileDoc, SpreadsheetDoc] {
  const [file, doc] = workspaceFile(c, user, id, SPREADSHEET, (fileId) => c.db.spreadsheets.get(fileId));
  return [file, structuredClone(doc) as SpreadsheetDoc];
}

/** What a values write starts from: the sheet (a copy to change), its file, the range, the rows and how to read them. */
function valuesWrite(c: GoogleCtx, req: ServiceRequest, spreadsheetId: string, range: string) {
  const user = me(c);
  const [file, doc] = spreadsheetOf(c, user, spreadsheetId);
  writable(c, user, file);
  const parse = inputOption(q(req, 'valueInputOption'));
  return { file, doc, parse, body: jsonBody(req), grid: parseA1(doc, range) };
}

function save(c: GoogleCtx, file: FileDoc, doc: SpreadsheetDoc): void {
  c.db.spreadsheets.put(file.id, doc);
  c.db.files.put(file.id, { ...file, modifiedTime: c.now, version: file.version + 1 });
}

function sheetProperties(s: SheetTab): Record<string, unknown> {
  return { sheetId: s.sheetId, title: s.title, index: s.index, sheetType: 'GRID', gridProperties: { rowCount: s.rowCount, columnCount: s.columnCount } };
}

function gridData(s: SheetTab): Record<string, unknown>[] {
  return [{
    rowData: s.rows.map((row) => ({
      values: row.map((v) => (v === '' ? {} : {
        userEnteredValue: typeof v === 'number' ? { numberValue: v } : typeof v === 'boolean' ? { boolValue: v } : v.startsWith('=') ? { formulaValue: v } : { stringValue: v },
        effectiveValue: typeof v === 'number' ? { numberValue: v } : typeof v === 'boolean' ? { boolValue: v } : { stringValue: v },
        formattedValue: formatted(v),
      })),
    })),
    rowMetadata: [], columnMetadata: [],
  }];
}

function spreadsheetResource(file: FileDoc, doc: SpreadsheetDoc, withData: boolean): Record<string, unknown> {
  return {
    spreadsheetId: file.id,
    properties: { title: file.name, locale: 'en_US', autoRecalc: 'ON_CHANGE', timeZone: 'Etc/GMT', defaultFormat: { backgroundColor: { red: 1, green: 1, blue: 1 }, verticalAlignment: 'BOTTOM', wrapStrategy: 'OVERFLOW_CELL', textFormat: { fontFamily: 'arial,sans,sans-serif', fontSize: 10, bold: false, italic: false, strikethrough: false, underline: false } } },
    sheets: doc.sheets.map((s) => ({ properties: sheetProperties(s), ...(withData ? { data: gridData(s) } : {}) })),
    spreadsheetUrl: `https://docs.google.com/spreadsheets/d/${file.id}/edit`,
  };
}

function bad(i: number, kind: string, message: string): never {
  throw googleError(400, 'badRequest', `Invalid requests[${i}].${kind}: ${message}`);
}

function sheetById(doc: SpreadsheetDoc, id: unknown, i: number, kind: string): SheetTab {
  const sheet = doc.sheets.find((s) => s.sheetId === (id ?? 0));
  if (!sheet) bad(i, kind, `No grid with id: ${String(id)}`);
  return sheet;
}

function applySheetRequests(c: GoogleCtx, doc: SpreadsheetDoc, requests: unknown[]): unknown[] {
  return requests.map((raw, i) => {
    if (!raw || typeof raw !== 'object' || Object.keys(raw).length !== 1) throw googleError(400, 'badRequest', `Invalid requests[${i}]: exactly one request kind must be set.`);
    const kind = Object.keys(raw)[0]!;
    const req = (raw as Record<string, Record<string, unknown>>)[kind]!;
    switch (kind) {
      case 'addSheet': {
        const props = (req.properties ?? {}) as Record<string, unknown>;
        const title = typeof props.title === 'string' ? props.title : `Sheet${doc.sheets.length + 1}`;
        if (doc.sheets.some((s) => s.title.toLowerCase() === title.toLowerCase())) bad(i, kind, `A sheet with the name "${title}" already exists. Please enter another name.`);
        const grid = (props.gridProperties ?? {}) as Record<string, unknown>;
        const sheetId = typeof props.sheetId === 'number' ? props.sheetId : c.ctx.ids.next(`sheet:${doc.spreadsheetId}`, 1) * 104_729 % 2_000_000_000;
        const tab: SheetTab = { sheetId, title, index: doc.sheets.length, rowCount: Number(grid.rowCount ?? 1000), columnCount: Number(grid.columnCount ?? 26), rows: [] };
        doc.sheets.push(tab);
        return { addSheet: { properties: sheetProperties(tab) } };
      }
      case 'deleteSheet': {
        const sheet = sheetById(doc, req.sheetId, i, kind);
        if (doc.sheets.length === 1) bad(i, kind, "You can't remove all the sheets in a document.");
        doc.sheets = doc.sheets.filter((s) => s !== sheet).map((s, index) => ({ ...s, index }));
        return {};
      }
      case 'updateSheetProperties': {
        const props = (req.properties ?? {}) as Record<string, unknown>;
        const sheet = sheetById(doc, props.sheetId, i, kind);
        if (!req.fields) bad(i, kind, 'fields is required.');
        const fields = String(req.fields).split(',').map((f) => f.trim());
        const all = fields.includes('*');
        if ((all || fields.includes('title')) && typeof props.title === 'string') {
          if (doc.sheets.some((s) => s !== sheet && s.title.toLowerCase() === (props.title as string).toLowerCase())) bad(i, kind, `A sheet with the name "${props.title}" already exists. Please enter another name.`);
          sheet.title = props.title;
        }
        return {};
      }
      case 'insertDimension': case 'deleteDimension': case 'appendDimension': {
        const r = (req.range ?? req) as Record<string, unknown>;
        const sheet = sheetById(doc, r.sheetId, i, kind);
        const rows = r.dimension === 'ROWS';
        if (kind === 'appendDimension') {
          const n = Number(req.length ?? 0);
          if (rows) sheet.rowCount += n; else sheet.columnCount += n;
          return {};
        }
        const start = Number(r.startIndex ?? 0), end = Number(r.endIndex ?? start);
        if (end <= start) bad(i, kind, 'The range is empty.');
        const n = end - start;
        if (rows) {
          if (kind === 'insertDimension') { sheet.rows.splice(start, 0, ...Array.from({ length: n }, () => [])); sheet.rowCount += n; }
          else { sheet.rows.splice(start, n); sheet.rowCount = Math.max(1, sheet.rowCount - n); }
        } else {
          sheet.rows = sheet.rows.map((row) => {
            const line = [...row];
            if (kind === 'insertDimension') { if (line.length > start) line.splice(start, 0, ...Array<Cell>(n).fill('')); } else line.splice(start, n);
            return line;
          });
          sheet.columnCount = kind === 'insertDimension' ? sheet.columnCount + n : Math.max(1, sheet.columnCount - n);
        }
        sheet.rows = trim(sheet.rows);
        return {};
      }
      case 'addProtectedRange': return { addProtectedRange: { protectedRange: { protectedRangeId: c.ctx.ids.next(`protected:${doc.spreadsheetId}`, 1) * 7_919, ...((req.protectedRange ?? {}) as object) } } };
      case 'addNamedRange': return { addNamedRange: { namedRange: { namedRangeId: c.ctx.ids.opaque('named-range', c.ctx.ids.next('named-range'), 12), ...((req.namedRange ?? {}) as object) } } };
      case 'addConditionalFormatRule': case 'repeatCell': case 'updateCells': case 'updateBorders': case 'mergeCells': case 'unmergeCells': case 'setDataValidation':
      case 'autoResizeDimensions': case 'updateDimensionProperties': case 'addDimensionGroup': case 'deleteDimensionGroup': case 'updateDimensionGroup':
      case 'setBasicFilter': case 'clearBasicFilter': case 'sortRange': case 'addBanding': case 'updateSpreadsheetProperties': case 'addChart': case 'deleteNamedRange':
      case 'deleteProtectedRange': case 'updateProtectedRange': case 'deleteConditionalFormatRule': case 'addFilterView': case 'autoFill': case 'copyPaste': case 'cutPaste':
      case 'findReplace': case 'textToColumns': case 'trimWhitespace': case 'deleteDuplicates': case 'duplicateSheet': case 'updateNamedRange':
        if (kind === 'addDimensionGroup' || kind === 'deleteDimensionGroup') return { [kind]: { dimensionGroups: [] } };
        if (kind === 'findReplace') return { findReplace: {} };
        return {};
      default:
        throw googleError(400, 'badRequest', `Invalid JSON payload received. Unknown name "${kind}" at 'requests[${i}]': Cannot find field.`);
    }
  });
}

function ranges(req: ServiceRequest): string[] {
  return req.query.getAll('ranges');
}

export const sheetsOperations: Operation<GoogleCtx>[] = [
  operation('sheets.spreadsheets.get', rest('GET', '/v4/spreadsheets/:spreadsheetId'), (call, c: GoogleCtx) => {
    const [file, doc] = spreadsheetOf(c, me(c), call.params.spreadsheetId);
    const wanted = ranges(call.req);
    const withData = q(call.req, 'includeGridData') === 'true';
    if (wanted.length) for (const r of wanted) parseA1(doc, r);
    return ok(call.req, spreadsheetResource(file, doc, withData));
  }),

  operation('sheets.spreadsheets.create', rest('POST', '/v4/spreadsheets'), (call, c: GoogleCtx) => {
    const user = me(c);
    const body = jsonBody(call.req);
    const props = (body.properties ?? {}) as Record<string, unknown>;
    const file = createFile(c, user, { name: typeof props.title === 'string' ? props.title : 'Untitled spreadsheet', mimeType: SPREADSHEET, parents: ['root'] });
    const doc = structuredClone(c.db.spreadsheets.get(file.id)!) as SpreadsheetDoc;
    const tabs = Array.isArray(body.sheets) ? body.sheets as { properties?: { title?: string; sheetId?: number } }[] : [];
    if (tabs.length) {
      doc.sheets = tabs.map((t, index) => ({ sheetId: t.properties?.sheetId ?? (index === 0 ? 0 : c.ctx.ids.next(`sheet:${file.id}`, 1) * 104_729), title: t.properties?.title ?? `Sheet${index + 1}`, index, rowCount: 1000, columnCount: 26, rows: [] }));
      c.db.spreadsheets.put(file.id, doc);
    }
    return ok(call.req, spreadsheetResource(file, doc, false));
  }),

  operation('sheets.spreadsheets.batchUpdate', rest('POST', '/v4/spreadsheets/:spreadsheetId/@batchUpdate'), (call, c: GoogleCtx) => {
    const user = me(c);
    const [file, doc] = spreadsheetOf(c, user, call.params.spreadsheetId);
    writable(c, user, file);
    const body = jsonBody(call.req);
    if (!Array.isArray(body.requests)) throw googleError(400, 'badRequest', 'Invalid JSON payload received. requests must be a list.');
    const replies = applySheetRequests(c, doc, body.requests);
    save(c, file, doc);
    return ok(call.req, { spreadsheetId: file.id, replies, ...(body.includeSpreadsheetInResponse === true ? { updatedSpreadsheet: spreadsheetResource(file, doc, false) } : {}) });
  }),

  operation('sheets.spreadsheets.values.batchGet', rest('GET', '/v4/spreadsheets/:spreadsheetId/values/@batchGet'), (call, c: GoogleCtx) => {
    const [file, doc] = spreadsheetOf(c, me(c), call.params.spreadsheetId);
    const render = renderOption(call.req);
    return ok(call.req, { spreadsheetId: file.id, valueRanges: ranges(call.req).map((r) => valueRange(doc, r, render, q(call.req, 'majorDimension') ?? 'ROWS')) });
  }),

  operation('sheets.spreadsheets.values.get', rest('GET', '/v4/spreadsheets/:spreadsheetId/values/:range'), (call, c: GoogleCtx) => {
    const [, doc] = spreadsheetOf(c, me(c), call.params.spreadsheetId);
    return ok(call.req, valueRange(doc, call.params.range, renderOption(call.req), q(call.req, 'majorDimension') ?? 'ROWS'));
  }),

  operation('sheets.spreadsheets.values.update', rest('PUT', '/v4/spreadsheets/:spreadsheetId/values/:range'), (call, c: GoogleCtx) => {
    const { file, doc, parse, body, grid } = valuesWrite(c, call.req, call.params.spreadsheetId, call.params.range);
    const result = write(doc, grid, body.values, parse, typeof body.majorDimension === 'string' ? body.majorDimension : 'ROWS');
    save(c, file, doc);
    return ok(call.req, q(call.req, 'includeValuesInResponse') === 'true' ? { ...result, updatedData: valueRange(doc, String(result.updatedRange), 'FORMATTED_VALUE', 'ROWS') } : result);
  }),

  operation('sheets.spreadsheets.values.append', rest('POST', '/v4/spreadsheets/:spreadsheetId/values/:range/@append'), (call, c: GoogleCtx) => {
    const { file, doc, parse, body, grid } = valuesWrite(c, call.req, call.params.spreadsheetId, call.params.range);
    // The table: the rows with data in the range's columns from its first row down to the first empty one; append after it.
    let last = grid.r0 - 1;
    const c1 = grid.c1 ?? Number.MAX_SAFE_INTEGER;
    while ((grid.sheet.rows[last + 1] ?? []).slice(grid.c0, c1).some((v) => v !== '')) last++;
    const tableRange = last >= grid.r0 ? `${quoteSheet(grid.sheet.title)}!${colName(grid.c0)}${grid.r0 + 1}:${colName(Math.max(grid.c0, Math.max(...grid.sheet.rows.slice(grid.r0, last + 1).map((r) => Math.min(r.length, c1))) - 1))}${last + 1}` : undefined;
    const option = q(call.req, 'insertDataOption') ?? 'OVERWRITE';
    if (option !== 'OVERWRITE' && option !== 'INSERT_ROWS') throw googleError(400, 'badRequest', `Invalid value at 'insert_data_option' (type.googleapis.com/google.apps.sheets.v4.InsertDataOption), "${option}"`);
    // INSERT_ROWS pushes what lies below the table down; OVERWRITE writes over it.
    const count = Array.isArray(body.values) ? body.values.length : 0;
    if (option === 'INSERT_ROWS' && grid.sheet.rows.length > last + 1) {
      grid.sheet.rows.splice(last + 1, 0, ...Array.from({ length: count }, () => [] as Cell[]));
      grid.sheet.rowCount += count;
    }
    const target: Grid = { sheet: grid.sheet, r0: last + 1, c0: grid.c0, r1: null, c1: null };
    const updates = write(doc, target, body.values, parse);
    save(c, file, doc);
    return ok(call.req, { spreadsheetId: file.id, ...(tableRange ? { tableRange } : {}), updates });
  }),

  operation('sheets.spreadsheets.values.clear', rest('POST', '/v4/spreadsheets/:spreadsheetId/values/:range/@clear'), (call, c: GoogleCtx) => {
    const user = me(c);
    const [file, doc] = spreadsheetOf(c, user, call.params.spreadsheetId);
    writable(c, user, file);
    const cleared = clear(doc, call.params.range);
    save(c, file, doc);
    return ok(call.req, { spreadsheetId: file.id, clearedRange: cleared });
  }),

  operation('sheets.spreadsheets.values.batchUpdate', rest('POST', '/v4/spreadsheets/:spreadsheetId/values/@batchUpdate'), (call, c: GoogleCtx) => {
    const user = me(c);
    const [file, doc] = spreadsheetOf(c, user, call.params.spreadsheetId);
    writable(c, user, file);
    const body = jsonBody(call.req);
    const parse = inputOption(body.valueInputOption);
    const data = Array.isArray(body.data) ? body.data as Record<string, unknown>[] : [];
    const responses = data.map((d) => write(doc, parseA1(doc, String(d.range ?? '')), d.values, parse, typeof d.majorDimension === 'string' ? d.majorDimension : 'ROWS'));
    save(c, file, doc);
    const sum = (k: string) => responses.reduce((n, r) => n + Number(r[k] ?? 0), 0);
    return ok(call.req, { spreadsheetId: file.id, totalUpdatedRows: sum('updatedRows'), totalUpdatedColumns: Math.max(0, ...responses.map((r) => Number(r.updatedColumns ?? 0))), totalUpdatedCells: sum('updatedCells'), totalUpdatedSheets: new Set(data.map((d) => parseA1(doc, String(d.range ?? '')).sheet.sheetId)).size, responses });
  }),

  operation('sheets.spreadsheets.values.batchClear', rest('POST', '/v4/spreadsheets/:spreadsheetId/values/@batchClear'), (call, c: GoogleCtx) => {
    const user = me(c);
    const [file, doc] = spreadsheetOf(c, user, call.params.spreadsheetId);
    writable(c, user, file);
    const body = jsonBody(call.req);
    const cleared = (Array.isArray(body.ranges) ? body.ranges as string[] : []).map((r) => clear(doc, String(r)));
    save(c, file, doc);
    return ok(call.req, { spreadsheetId: file.id, clearedRanges: cleared });
  }),
];
