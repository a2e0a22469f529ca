// The official `googleapis` client (unmodified), run in its own Node process with the proxy
// preload: Drive, Docs, Sheets, Slides and Calendar against the Google mock's conformance world.
// Prints one JSON object of what it saw; test/google-sdk.test.ts checks it.
import { google } from 'googleapis';

const auth = new google.auth.OAuth2();
auth.setCredentials({ access_token: process.env.GOOGLE_TOKEN });
const drive = google.drive({ version: 'v3', auth });
const docs = google.docs({ version: 'v1', auth });
const sheets = google.sheets({ version: 'v4', auth });
const slides = google.slides({ version: 'v1', auth });
const calendar = google.calendar({ version: 'v3', auth });
const out = {};

const about = await drive.about.get({ fields: 'user(displayName,emailAddress)' });
out.about = about.data;

// q subset, fields mask and page tokens.
const first = await drive.files.list({ q: "'1ConfFolderProjects0000000000000' in parents and trashed = false", pageSize: 2, orderBy: 'name', fields: 'nextPageToken, files(id, name, mimeType)' });
const second = await drive.files.list({ q: "'1ConfFolderProjects0000000000000' in parents and trashed = false", pageSize: 2, orderBy: 'name', pageToken: first.data.nextPageToken, fields: 'nextPageToken, files(id, name)' });
out.paged = { first: first.data.files.map((f) => f.name), hasNext: Boolean(first.data.nextPageToken), second: second.data.files.map((f) => f.name), more: Boolean(second.data.nextPageToken), keys: Object.keys(first.data.files[0]).sort() };
const search = await drive.files.list({ q: "fullText contains 'migration guide' and trashed = false", fields: 'files(name)' });
out.fullText = search.data.files.map((f) => f.name);
const docsOnly = await drive.files.list({ q: "mimeType = 'application/vnd.google-apps.document' and name contains 'weekly'", fields: 'files(name)' });
out.nameContains = docsOnly.data.files.map((f) => f.name);

// create (multipart upload), get, media download, update, copy, export, permissions, delete.
const created = await drive.files.create({ requestBody: { name: 'sdk.txt', parents: ['1ConfFolderProjects0000000000000'] }, media: { mimeType: 'text/plain', body: 'hello from googleapis' }, fields: 'id, name, mimeType, size, parents' });
out.created = { name: created.data.name, mimeType: created.data.mimeType, size: created.data.size, parents: created.data.parents };
const media = await drive.files.get({ fileId: created.data.id, alt: 'media' }, { responseType: 'text' });
out.media = media.data;
const renamed = await drive.files.update({ fileId: created.data.id, addParents: '1ConfFolderArchive00000000000000', removeParents: '1ConfFolderProjects0000000000000', requestBody: { name: 'sdk-renamed.txt' }, fields: 'name, parents' });
out.updated = renamed.data;
const copy = await drive.files.copy({ fileId: '1ConfDocMeetingNotes000000000000', requestBody: { name: 'Notes copy' }, fields: 'id, name, mimeType' });
out.copy = { name: copy.data.name, mimeType: copy.data.mimeType };
const exported = await drive.files.export({ fileId: '1ConfDocMeetingNotes000000000000', mimeType: 'text/plain' }, { responseType: 'text' });
out.exported = exported.data;
const perm = await drive.permissions.create({ fileId: created.data.id, requestBody: { type: 'user', role: 'reader', emailAddress: 'sam@northwind.example' }, fields: 'id, role, emailAddress' });
const perms = await drive.permissions.list({ fileId: created.data.id, fields: 'permissions(role,emailAddress)' });
out.permissions = { created: { role: perm.data.role, emailAddress: perm.data.emailAddress }, list: perms.data.permissions };
await drive.files.delete({ fileId: copy.data.id });
try {
  await drive.files.get({ fileId: copy.data.id });
  out.deleted = 'still there';
} catch (error) {
  out.deleted = { status: error.status, reason: error.errors?.[0]?.reason, message: error.message };
}

// Docs: structure, insertText, replaceAllText.
const doc = await docs.documents.get({ documentId: '1ConfDocMeetingNotes000000000000' });
const paragraphs = doc.data.body.content.filter((e) => e.paragraph);
out.doc = { title: doc.data.title, first: paragraphs[0].paragraph.paragraphStyle.namedStyleType, last: paragraphs.at(-1).paragraph.elements[0].textRun.content, end: doc.data.body.content.at(-1).endIndex, bullets: paragraphs.filter((p) => p.paragraph.bullet).length };
const end = doc.data.body.content.at(-1).endIndex;
const batch = await docs.documents.batchUpdate({ documentId: '1ConfDocMeetingNotes000000000000', requestBody: { requests: [{ insertText: { location: { index: end - 1 }, text: '\nPriya: book the room' } }, { replaceAllText: { containsText: { text: 'CSV parser', matchCase: true }, replaceText: 'CSV importer' } }] } });
out.batch = batch.data.replies;
const after = await docs.documents.get({ documentId: '1ConfDocMeetingNotes000000000000', includeTabsContent: true });
out.afterText = after.data.tabs[0].documentTab.body.content.filter((e) => e.paragraph).map((e) => e.paragraph.elements.map((x) => x.textRun.content).join('')).join('');

// Sheets: get, values get/update/append/batchGet in A1 notation.
const ss = await sheets.spreadsheets.get({ spreadsheetId: '1ConfSheetOrders0000000000000000' });
out.sheetTitles = ss.data.sheets.map((s) => s.properties.title);
const values = await sheets.spreadsheets.values.get({ spreadsheetId: '1ConfSheetOrders0000000000000000', range: 'Orders!A1:D3' });
out.values = values.data;
const appended = await sheets.spreadsheets.values.append({ spreadsheetId: '1ConfSheetOrders0000000000000000', range: 'Orders!A:D', valueInputOption: 'USER_ENTERED', requestBody: { values: [['A-1004', 'Hooli', '75', 'open']] } });
out.appended = appended.data;
const updated = await sheets.spreadsheets.values.update({ spreadsheetId: '1ConfSheetOrders0000000000000000', range: 'Orders!D3', valueInputOption: 'RAW', requestBody: { values: [['paid']] } });
out.valuesUpdated = updated.data;
const batchGet = await sheets.spreadsheets.values.batchGet({ spreadsheetId: '1ConfSheetOrders0000000000000000', ranges: ['Orders!A4:D5', 'Summary!A1:B1'], valueRenderOption: 'UNFORMATTED_VALUE' });
out.batchGet = batchGet.data.valueRanges;
try {
  await sheets.spreadsheets.values.get({ spreadsheetId: '1ConfSheetOrders0000000000000000', range: 'Nope!A1' });
} catch (error) {
  out.badRange = { status: error.status, message: error.message };
}

// Slides and Calendar.
const deck = await slides.presentations.get({ presentationId: '1ConfSlidesPitch0000000000000000' });
out.slides = deck.data.slides.map((s) => s.pageElements.map((e) => e.shape.text.textElements.map((t) => t.textRun?.content ?? '').join('')).join('|'));
const events = await calendar.events.list({ calendarId: 'primary', timeMin: '2025-03-04T00:00:00Z', timeMax: '2025-03-31T00:00:00Z', singleEvents: true, orderBy: 'startTime' });
out.events = events.data.items.map((e) => e.summary);
const inserted = await calendar.events.insert({ calendarId: 'primary', requestBody: { summary: 'SDK planning', start: { dateTime: '2025-03-05T09:00:00Z' }, end: { dateTime: '2025-03-05T09:30:00Z' } } });
const patched = await calendar.events.patch({ calendarId: 'primary', eventId: inserted.data.id, requestBody: { location: 'Room 4' } });
out.event = { summary: patched.data.summary, location: patched.data.location, status: patched.data.status };
await calendar.events.delete({ calendarId: 'primary', eventId: inserted.data.id });
const listed = await calendar.events.list({ calendarId: 'primary', q: 'SDK' });
out.afterDelete = listed.data.items.length;

// Errors: an unknown token.
const bad = new google.auth.OAuth2();
bad.setCredentials({ access_token: 'ya29.not-a-token' });
try {
  await google.drive({ version: 'v3', auth: bad }).files.list({});
} catch (error) {
  out.unauthenticated = { status: error.status, reason: error.errors?.[0]?.reason };
}

process.stdout.write(JSON.stringify(out));
