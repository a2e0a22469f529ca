import test from 'ava';
import { ServiceRequest } from '../mocks/core/http.js';
import { googleFault } from '../mocks/google/errors.js';
import { applyFields, parseFields } from '../mocks/google/fields.js';
import { openWorld, type OpenedWorld } from '../scenarios/world.js';

// The Google mock's own rules, in process over the conformance world (one world for the file):
// Drive's q language and `fields` masks, page tokens, Docs' UTF-16 indexes under insert/delete,
// A1 ranges, Google's error envelope and its throttling faults.

const NOTES = '1ConfDocMeetingNotes000000000000';
const ORDERS = '1ConfSheetOrders0000000000000000';
let opened: OpenedWorld;
test.before(async () => {
  opened = await openWorld({ scenarioDir: 'mocks/google/conformance' });
});
test.after.always(async () => {
  await opened?.world.journal.close();
});

async function call(host: string, method: string, target: string, body?: unknown, token = 'google-conformance-token'): Promise<{ status: number; json: any; text: string }> {
  const response = await opened.world.dispatch({ host, method, target, headers: [['Authorization', `Bearer ${token}`], ...(body === undefined ? [] : [['Content-Type', 'application/json'] as [string, string]])], body: new TextEncoder().encode(body === undefined ? '' : JSON.stringify(body)) });
  const text = Buffer.from(response.body).toString('utf8');
  let json: unknown = null;
  try { json = JSON.parse(text); } catch { /* not JSON */ }
  return { status: response.status, json, text };
}
const drive = (target: string) => call('www.googleapis.com', 'GET', target);
const names = async (q: string, extra = '') => (await drive(`/drive/v3/files?q=${encodeURIComponent(q)}&orderBy=name&fields=files(name)${extra}`)).json.files.map((f: { name: string }) => f.name);

test.serial('Drive q: name prefix matching, fullText phrases, parents, mimeType, trashed, dates, not/or', async (t) => {
  t.deepEqual(await names("name contains 'sync'"), ['Weekly sync notes']);
  t.deepEqual(await names("name contains 'ync'"), [], 'contains on a name matches word prefixes only');
  t.deepEqual(await names("fullText contains 'CSV parser'"), ['Weekly sync notes']);
  t.deepEqual(await names("fullText contains 'parser CSV'"), [], 'a phrase keeps its word order');
  t.deepEqual(await names("'1ConfFolderProjects0000000000000' in parents and mimeType != 'application/vnd.google-apps.folder'"), ['readme.txt', 'Weekly sync notes']);
  t.deepEqual(await names('trashed = true'), ['Old plan']);
  t.true((await names("'root' in parents")).includes('Projects'));
  t.deepEqual(await names("createdTime < '2025-01-06T10:01:00Z' and trashed = false"), ['Orders 2025', 'Projects']);
  t.deepEqual(await names("(name = 'Projects' or name = 'Archive') and not name contains 'Arch'"), ['Projects']);
  t.deepEqual(await names("'sam@northwind.example' in owners"), ["Sam's budget"], 'a file shared with the caller is visible');
  t.deepEqual(await names("sharedWithMe and 'me' in writers"), ["Sam's budget"]);
  t.false((await names("'me' in owners")).includes("Sam's budget"));
  const bad = await drive(`/drive/v3/files?q=${encodeURIComponent("name contains 'x")}`);
  t.is(bad.status, 400);
  t.like(bad.json.error, { code: 400, status: 'INVALID_ARGUMENT', errors: [{ reason: 'invalid', location: 'q', locationType: 'parameter', domain: 'global', message: 'Invalid Value' }] });
});

test.serial('Drive: fields masks, default fields, page tokens to the end', async (t) => {
  const plain = await drive(`/drive/v3/files/${NOTES}`);
  t.deepEqual(plain.json, { kind: 'drive#file', id: NOTES, name: 'Weekly sync notes', mimeType: 'application/vnd.google-apps.document' });
  const masked = await drive(`/drive/v3/files/${NOTES}?fields=${encodeURIComponent('id,owners(emailAddress),capabilities/canEdit')}`);
  t.deepEqual(masked.json, { id: NOTES, owners: [{ emailAddress: 'alex@northwind.example' }], capabilities: { canEdit: true } });
  t.deepEqual(applyFields({ a: [{ b: 1, c: 2 }], d: 3 }, parseFields('a(c),d')), { a: [{ c: 2 }], d: 3 });
  t.throws(() => parseFields('a(b'));
  const seen: string[] = [];
  let token = '';
  for (let i = 0; i < 10; i++) {
    const page = await drive(`/drive/v3/files?pageSize=3&orderBy=name&fields=nextPageToken,files(name)${token ? `&pageToken=${token}` : ''}`);
    seen.push(...page.json.files.map((f: { name: string }) => f.name));
    if (!page.json.nextPageToken) break;
    token = page.json.nextPageToken;
  }
  const all = await names('trashed = false or trashed = true');
  t.deepEqual(seen, all, 'pages of 3 add up to the whole list');
  t.is((await drive('/drive/v3/files?pageToken=garbage')).status, 400);
  t.is((await drive('/drive/v3/files/1ConfSharedBySam0000000000000000')).status, 200);
  const trash = await call('www.googleapis.com', 'PATCH', '/drive/v3/files/1ConfSharedBySam0000000000000000', { trashed: true });
  t.like(trash.json.error, { code: 403, errors: [{ reason: 'insufficientFilePermissions' }] }, 'a writer cannot trash the owner\'s file');
  const unknown = await call('www.googleapis.com', 'GET', `/drive/v3/files/${NOTES}`, undefined, 'ya29.unknown');
  t.is(unknown.status, 401);
  t.like(unknown.json.error, { status: 'UNAUTHENTICATED', errors: [{ reason: 'authError', location: 'Authorization' }] });
});

test.serial('Docs: indexes count UTF-16 units; insert, delete and replace keep paragraphs and styles', async (t) => {
  const get = async () => (await call('docs.googleapis.com', 'GET', `/v1/documents/${NOTES}`)).json;
  const before = await get();
  const paras = before.body.content.filter((e: any) => e.paragraph);
  t.is(paras[0].startIndex, 1);
  t.is(paras[0].paragraph.paragraphStyle.namedStyleType, 'TITLE');
  // Insert an emoji (two UTF-16 units) at the start of the second paragraph.
  const second = paras[1].startIndex;
  let r = await call('docs.googleapis.com', 'POST', `/v1/documents/${NOTES}:batchUpdate`, { requests: [{ insertText: { location: { index: second }, text: '✅ ' } }] });
  t.is(r.status, 200);
  let after = (await get()).body.content.filter((e: any) => e.paragraph);
  t.is(after[1].paragraph.elements[0].textRun.content, '✅ Attendees: Alex, Sam, Priya\n');
  t.is(after[2].startIndex, paras[2].startIndex + 2);
  // Delete the heading's newline: "Decisions" and the next paragraph merge, keeping the latter's style.
  r = await call('docs.googleapis.com', 'POST', `/v1/documents/${NOTES}:batchUpdate`, { requests: [{ deleteContentRange: { range: { startIndex: after[2].endIndex - 1, endIndex: after[2].endIndex } } }] });
  after = (await get()).body.content.filter((e: any) => e.paragraph);
  t.is(after[2].paragraph.elements[0].textRun.content, 'DecisionsShip the importer behind a flag.\n');
  t.is(after[2].paragraph.paragraphStyle.namedStyleType, 'NORMAL_TEXT');
  // Out of range, and the final newline, are Docs' 400s; a failed batch writes nothing.
  const end = (await get()).body.content.at(-1).endIndex;
  r = await call('docs.googleapis.com', 'POST', `/v1/documents/${NOTES}:batchUpdate`, { requests: [{ insertText: { location: { index: 1 }, text: 'X' } }, { insertText: { location: { index: end + 5 }, text: 'Y' } }] });
  t.is(r.status, 400);
  t.like(r.json.error, { code: 400, status: 'INVALID_ARGUMENT' });
  t.false('errors' in r.json.error, 'Docs answers without the errors list');
  t.false((await get()).body.content[1].paragraph.elements[0].textRun.content.startsWith('X'), 'nothing of the failed batch was applied');
  r = await call('docs.googleapis.com', 'POST', `/v1/documents/${NOTES}:batchUpdate`, { requests: [{ deleteContentRange: { range: { startIndex: end - 2, endIndex: end } } }] });
  t.is(r.status, 400);
  r = await call('docs.googleapis.com', 'POST', `/v1/documents/${NOTES}:batchUpdate`, { requests: [{ replaceAllText: { containsText: { text: 'alex', matchCase: false }, replaceText: 'Alexandra' } }, { bogusRequest: {} }] });
  t.is(r.status, 400, 'an unknown request kind fails the batch');
  const view = opened.world.gradingState('now').google!.doc_text![NOTES] as { text: string };
  t.false(view.text.includes('Alexandra'));
});

test.serial('Sheets: A1 ranges, appends after the table, a bounded range refuses overflow', async (t) => {
  const sheets = (method: string, target: string, body?: unknown) => call('sheets.googleapis.com', method, target, body);
  t.deepEqual((await sheets('GET', `/v4/spreadsheets/${ORDERS}/values/${encodeURIComponent("'Orders'!B2:C")}`)).json, { range: 'Orders!B2:C1000', majorDimension: 'ROWS', values: [['Globex', '1200'], ['Initech', '450.5'], ['Umbrella', '980']] });
  t.deepEqual((await sheets('GET', `/v4/spreadsheets/${ORDERS}/values/Summary?valueRenderOption=UNFORMATTED_VALUE&majorDimension=COLUMNS`)).json.values, [['Total'], [2630.5]]);
  const append = await sheets('POST', `/v4/spreadsheets/${ORDERS}/values/Orders!A1%3AD1:append?valueInputOption=USER_ENTERED`, { values: [['A-1004', 'Hooli', '12.50', 'TRUE']] });
  t.is(append.json.updates.updatedRange, 'Orders!A5:D5');
  t.deepEqual((await sheets('GET', `/v4/spreadsheets/${ORDERS}/values/Orders!A5:D5?valueRenderOption=UNFORMATTED_VALUE`)).json.values, [['A-1004', 'Hooli', 12.5, true]]);
  const over = await sheets('PUT', `/v4/spreadsheets/${ORDERS}/values/Orders!A6:B6?valueInputOption=RAW`, { values: [['a', 'b', 'c']] });
  t.is(over.status, 400);
  t.regex(over.json.error.message, /tried writing to column \[C\]/);
  t.is((await sheets('PUT', `/v4/spreadsheets/${ORDERS}/values/Orders!A6?valueInputOption=RAW`, { values: [['a', 'b'], ['c', 'd']] })).json.updatedRange, 'Orders!A6:B7');
  t.is((await sheets('PUT', `/v4/spreadsheets/${ORDERS}/values/Orders!A6`, { values: [['a']] })).status, 400, 'valueInputOption is required');
  // INSERT_ROWS pushes the rows below the table down: Summary's A3 note moves to A4.
  await sheets('PUT', `/v4/spreadsheets/${ORDERS}/values/Summary!A3?valueInputOption=RAW`, { values: [['note']] });
  const inserted = await sheets('POST', `/v4/spreadsheets/${ORDERS}/values/Summary!A1:B1:append?valueInputOption=RAW&insertDataOption=INSERT_ROWS`, { values: [['Tax', 10]] });
  t.is(inserted.json.updates.updatedRange, 'Summary!A2:B2');
  t.deepEqual((await sheets('GET', `/v4/spreadsheets/${ORDERS}/values/Summary!A1:A4`)).json.values, [['Total'], ['Tax'], [], ['note']]);
  const rows = opened.world.gradingState('now').google!.sheet_rows!;
  t.like(rows[`${ORDERS}/Orders/7`], { values: ['c', 'd'], text: ['c', 'd'] });
});

test('faults: Drive and Calendar throttle with 403 rateLimitExceeded, Docs/Sheets/Slides with 429 RESOURCE_EXHAUSTED', (t) => {
  const drive429 = googleFault({ kind: '429', retryAfter: 3 }, new ServiceRequest('GET', '/drive/v3/files', [], new Uint8Array()));
  t.is(drive429.status, 403);
  t.deepEqual(JSON.parse(Buffer.from(drive429.body).toString()), { error: { code: 403, message: 'Rate Limit Exceeded', errors: [{ message: 'Rate Limit Exceeded', domain: 'usageLimits', reason: 'rateLimitExceeded' }], status: 'PERMISSION_DENIED' } });
  t.true(drive429.headers.some(([k, v]) => k === 'Retry-After' && v === '3'));
  const sheets429 = googleFault({ kind: '429', retryAfter: 3 }, new ServiceRequest('GET', `/v4/spreadsheets/${ORDERS}`, [], new Uint8Array()));
  t.is(sheets429.status, 429);
  t.like(JSON.parse(Buffer.from(sheets429.body).toString()).error, { code: 429, status: 'RESOURCE_EXHAUSTED' });
  t.is(googleFault({ kind: 'timeout', retryAfter: 0 }, new ServiceRequest('GET', '/calendar/v3/users/me/calendarList', [], new Uint8Array())).status, 504);
});
