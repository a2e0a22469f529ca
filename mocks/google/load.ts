import type { LoadContext } from '../core/service.js';
import type { GoogleDataset } from './dataset.js';
import { DOCUMENT, MIME_ALIASES, PRESENTATION, SPREADSHEET, dbOf, driveId, eventId, iso, permissionIdFor, type Paragraph, type SheetTab, type SlideDoc } from './model.js';

/** The dataset into the store, once, at world start; missing IDs and times are seeded / the epoch. */
export function loadGoogle(data: GoogleDataset, ctx: LoadContext): void {
  const db = dbOf(ctx.store);
  const epoch = iso(ctx.epochMs);
  data.users.forEach((user) => {
    db.users.put(user.email, { email: user.email, displayName: user.displayName, permissionId: permissionIdFor(ctx.ids, user.email) });
    for (const token of user.tokens) db.tokens.put(token, { token, email: user.email });
  });
  const me = data.users[0]?.email ?? 'owner@example.com';
  for (const file of data.files) {
    const id = file.id ?? driveId(ctx.ids);
    const mimeType = MIME_ALIASES[file.mimeType] ?? file.mimeType;
    const createdTime = file.createdTime ?? epoch;
    db.files.put(id, {
      id, name: file.name, mimeType, parents: file.parents ?? ['root'], owner: file.owner ?? me,
      ...(file.description !== undefined ? { description: file.description } : {}),
      createdTime, modifiedTime: file.modifiedTime ?? createdTime, trashed: file.trashed, starred: file.starred, version: 1,
      ...(file.appProperties ? { appProperties: file.appProperties } : {}),
      ...(file.content !== undefined ? { content: file.content } : {}),
    });
    const owner = db.users.get(file.owner ?? me);
    const ownerPermission = owner?.permissionId ?? permissionIdFor(ctx.ids, file.owner ?? me);
    db.permissions.put(`${id}/${ownerPermission}`, { fileId: id, id: ownerPermission, type: 'user', role: 'owner', emailAddress: file.owner ?? me, ...(owner ? { displayName: owner.displayName } : {}) });
    file.permissions.forEach((p, i) => {
      const pid = p.id ?? (p.type === 'anyone' ? 'anyoneWithLink' : p.emailAddress ? permissionIdFor(ctx.ids, p.emailAddress) : p.domain ? `${permissionIdFor(ctx.ids, p.domain)}k` : `${i}`);
      db.permissions.put(`${id}/${pid}`, { fileId: id, ...p, id: pid });
    });
    if (mimeType === DOCUMENT) {
      const paragraphs: Paragraph[] = (file.paragraphs ?? []).map((p) => (typeof p === 'string' ? { text: p, style: 'NORMAL_TEXT', bullet: false } : p));
      db.documents.put(id, { documentId: id, paragraphs: paragraphs.length ? paragraphs : [{ text: '', style: 'NORMAL_TEXT', bullet: false }], revision: 1 });
    }
    if (mimeType === SPREADSHEET) {
      const tabs = file.sheets?.length ? file.sheets : [{ title: 'Sheet1', rows: [] }];
      const sheets: SheetTab[] = tabs.map((s, index) => ({
        sheetId: s.sheetId ?? (index === 0 ? 0 : ctx.ids.next('sheet-id', 100_000_000)), title: s.title, index,
        rowCount: Math.max(s.rowCount ?? 1000, s.rows.length), columnCount: Math.max(s.columnCount ?? 26, ...s.rows.map((r) => r.length)), rows: s.rows.map((r) => [...r]),
      }));
      db.spreadsheets.put(id, { spreadsheetId: id, sheets });
    }
    if (mimeType === PRESENTATION) {
      const slides: SlideDoc[] = (file.slides ?? []).map((s, i) => {
        const objectId = s.objectId ?? `p${i + 1}`;
        return { objectId, texts: s.texts.map((text, j) => ({ objectId: `${objectId}_t${j}`, text, ...(j < 2 ? { placeholder: j === 0 ? 'TITLE' : 'BODY' } : {}) })), notes: s.notes, notesId: `${objectId}_notes` };
      });
      db.presentations.put(id, { presentationId: id, slides, revision: 1 });
    }
  }
  for (const calendar of data.calendars) db.calendars.put(calendar.id, { ...calendar });
  if (!db.calendars.values().some((c) => c.primary) && data.users.length) {
    db.calendars.put(me, { id: me, summary: me, timeZone: 'UTC', primary: true, accessRole: 'owner' });
  }
  const primary = db.calendars.values().find((c) => c.primary)?.id ?? me;
  for (const event of data.events) {
    const calendarId = event.calendarId === 'primary' || event.calendarId === undefined ? primary : event.calendarId;
    const id = event.id ?? eventId(ctx.ids);
    const created = event.created ?? epoch;
    db.events.put(`${calendarId}/${id}`, {
      calendarId, id, summary: event.summary, ...(event.description !== undefined ? { description: event.description } : {}),
      ...(event.location !== undefined ? { location: event.location } : {}), start: event.start, end: event.end,
      attendees: event.attendees, status: event.status, created, updated: created, sequence: 0, organizer: calendarId === primary ? me : calendarId,
    });
  }
}
