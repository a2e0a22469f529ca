import { emptyResponse } from '../core/http.js';
import { operation, rest, type Operation } from '../kit/index.js';
import { jsonBody, me, ok, pageStart, pageToken, q, qBool, qInt } from './common.js';
import { googleError } from './errors.js';
import { eventId, type CalendarDoc, type EventDoc, type EventTime, type GoogleCtx } from './model.js';

/**
 * Calendar v3 (www.googleapis.com/calendar/v3): the calendar list, calendars.get, and events
 * list (timeMin/timeMax, q, orderBy startTime or updated, singleEvents, page tokens, cancelled
 * events hidden unless showDeleted), get, insert, update, patch and delete (a cancelled event
 * stays, as Google keeps it). Recurring events are stored with their rule, not expanded.
 */
const WRITABLE = ['summary', 'description', 'location', 'start', 'end', 'attendees', 'status', 'visibility', 'recurrence', 'attachments', 'colorId', 'transparency', 'reminders', 'conferenceData', 'guestsCanModify', 'guestsCanInviteOthers', 'guestsCanSeeOtherGuests', 'extendedProperties', 'source', 'eventType', 'sequence', 'id', 'iCalUID', 'organizer', 'creator', 'kind', 'etag', 'htmlLink', 'created', 'updated', 'hangoutLink'];

interface StoredEvent extends EventDoc { extra?: Record<string, unknown> }

function calendarOf(c: GoogleCtx, id: string): CalendarDoc {
  const email = me(c).email;
  const found = id === 'primary' ? c.db.calendars.values().find((cal) => cal.primary) ?? c.db.calendars.get(email) : c.db.calendars.get(id);
  if (!found) throw googleError(404, 'notFound', 'Not Found');
  return found;
}

function eventOf(c: GoogleCtx, cal: CalendarDoc, id: string): StoredEvent {
  const found = c.db.events.get(`${cal.id}/${id}`) as StoredEvent | undefined;
  if (!found) throw googleError(404, 'notFound', 'Not Found');
  return found;
}

function writableCal(cal: CalendarDoc): void {
  if (cal.accessRole !== 'owner' && cal.accessRole !== 'writer') throw googleError(403, 'requiredAccessLevel', 'You need to have writer access to this calendar.');
}

function etag(e: { updated: string; sequence: number }): string {
  return `"${Date.parse(e.updated) * 1000 + e.sequence}"`;
}

function eventResource(c: GoogleCtx, e: StoredEvent): Record<string, unknown> {
  const user = me(c);
  const organizer = c.db.users.get(e.organizer);
  return {
    kind: 'calendar#event', etag: etag(e), id: e.id, status: e.status,
    htmlLink: `https://www.google.com/calendar/event?eid=${Buffer.from(`${e.id} ${e.calendarId}`).toString('base64url')}`,
    created: e.created, updated: e.updated, summary: e.summary,
    ...(e.description !== undefined ? { description: e.description } : {}), ...(e.location !== undefined ? { location: e.location } : {}),
    creator: { email: e.organizer, ...(e.organizer === user.email ? { self: true } : {}) },
    organizer: { email: e.organizer, ...(organizer ? { displayName: organizer.displayName } : {}), ...(e.organizer === user.email ? { self: true } : {}) },
    start: e.start, end: e.end, iCalUID: `${e.id}@google.com`, sequence: e.sequence,
    ...(e.attendees.length ? { attendees: e.attendees.map((a) => ({ email: a.email, responseStatus: a.responseStatus, ...(a.email === user.email ? { self: true } : {}) })) } : {}),
    reminders: { useDefault: true }, eventType: 'default',
    ...(e.extra ?? {}),
  };
}

function time(value: unknown, field: string): EventTime {
  const t = value as Record<string, unknown> | undefined;
  if (!t || typeof t !== 'object') throw googleError(400, 'required', 'Missing end time.', { location: field, locationType: 'body' });
  if (typeof t.dateTime === 'string') {
    if (Number.isNaN(Date.parse(t.dateTime))) throw googleError(400, 'invalid', 'Bad Request', { location: field, locationType: 'body' });
    return { dateTime: t.dateTime, ...(typeof t.timeZone === 'string' ? { timeZone: t.timeZone } : {}) };
  }
  if (typeof t.date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(t.date)) return { date: t.date };
  throw googleError(400, 'required', field === 'end' ? 'Missing end time.' : 'Missing start time.', { location: field, locationType: 'body' });
}

function ms(t: EventTime): number {
  return Date.parse(t.dateTime ?? `${t.date}T00:00:00Z`);
}

/** The fields of an event body, checked; `base` is the event a patch starts from. */
function fromBody(body: Record<string, unknown>, base: Partial<StoredEvent>): Partial<StoredEvent> {
  for (const key of Object.keys(body)) if (!WRITABLE.includes(key)) throw googleError(400, 'invalid', `Invalid field: ${key}`, { location: key, locationType: 'body' });
  const start = body.start !== undefined ? time(body.start, 'start') : base.start;
  const end = body.end !== undefined ? time(body.end, 'end') : base.end;
  if (!start) throw googleError(400, 'required', 'Missing start time.');
  if (!end) throw googleError(400, 'required', 'Missing end time.');
  if (ms(end) < ms(start)) throw googleError(400, 'timeRangeEmpty', 'The specified time range is empty.', { location: 'end.dateTime', locationType: 'body' });
  const attendees = body.attendees === undefined ? base.attendees ?? []
    : Array.isArray(body.attendees) ? (body.attendees as Record<string, unknown>[]).map((a) => {
      if (typeof a?.email !== 'string') throw googleError(400, 'required', 'Missing attendee email.', { location: 'attendees.email', locationType: 'body' });
      return { email: a.email, responseStatus: typeof a.responseStatus === 'string' ? a.responseStatus : 'needsAction' };
    }) : [];
  const extra: Record<string, unknown> = { ...(base.extra ?? {}) };
  for (const key of ['visibility', 'recurrence', 'attachments', 'colorId', 'transparency', 'extendedProperties', 'guestsCanModify', 'guestsCanInviteOthers', 'guestsCanSeeOtherGuests']) {
    if (body[key] === null) delete extra[key];
    else if (body[key] !== undefined) extra[key] = body[key];
  }
  const text = (k: 'summary' | 'description' | 'location') => (body[k] === null ? undefined : typeof body[k] === 'string' ? body[k] as string : base[k]);
  const status = typeof body.status === 'string' ? body.status : base.status ?? 'confirmed';
  const summary = text('summary') ?? '';
  const description = text('description'), location = text('location');
  return { summary, ...(description !== undefined ? { description } : {}), ...(location !== undefined ? { location } : {}), start, end, attendees, status, ...(Object.keys(extra).length ? { extra } : {}) };
}

function calendarListEntry(cal: CalendarDoc): Record<string, unknown> {
  return {
    kind: 'calendar#calendarListEntry', etag: `"${cal.id.length}000"`, id: cal.id, summary: cal.summary, ...(cal.description ? { description: cal.description } : {}),
    timeZone: cal.timeZone, colorId: '14', backgroundColor: '#9fe1e7', foregroundColor: '#000000', selected: true, accessRole: cal.accessRole,
    defaultReminders: cal.primary ? [{ method: 'popup', minutes: 10 }] : [], ...(cal.primary ? { primary: true } : {}),
    conferenceProperties: { allowedConferenceSolutionTypes: ['hangoutsMeet'] },
  };
}

export const calendarOperations: Operation<GoogleCtx>[] = [
  operation('calendar.calendarList.list', rest('GET', '/calendar/v3/users/me/calendarList'), (call, c: GoogleCtx) => {
    me(c);
    qBool(call.req, 'showHidden');
    const size = qInt(call.req, 'maxResults', 1, 250) ?? 100;
    const start = pageStart(call.req);
    const all = c.db.calendars.values().sort((a, b) => Number(b.primary) - Number(a.primary) || (a.id < b.id ? -1 : 1));
    return ok(call.req, { kind: 'calendar#calendarList', etag: '"p33g9vsm1ic8o0g"', ...(start + size < all.length ? { nextPageToken: pageToken(start + size) } : {}), nextSyncToken: 'CPDAlvWDx70CEPDAlvWDx70CGAU=', items: all.slice(start, start + size).map(calendarListEntry) });
  }),

  operation('calendar.calendars.get', rest('GET', '/calendar/v3/calendars/:calendarId'), (call, c: GoogleCtx) => {
    const cal = calendarOf(c, call.params.calendarId);
    return ok(call.req, { kind: 'calendar#calendar', etag: `"${cal.id.length}000"`, id: cal.id, summary: cal.summary, ...(cal.description ? { description: cal.description } : {}), timeZone: cal.timeZone, conferenceProperties: { allowedConferenceSolutionTypes: ['hangoutsMeet'] } });
  }),

  operation('calendar.events.list', rest('GET', '/calendar/v3/calendars/:calendarId/events'), (call, c: GoogleCtx) => {
    const cal = calendarOf(c, call.params.calendarId);
    const size = qInt(call.req, 'maxResults', 1, 2500) ?? 250;
    const single = qBool(call.req, 'singleEvents') ?? false;
    const deleted = qBool(call.req, 'showDeleted') ?? false;
    const order = q(call.req, 'orderBy');
    if (order !== undefined && order !== 'startTime' && order !== 'updated') throw googleError(400, 'invalid', 'Invalid Value', { location: 'orderBy', locationType: 'parameter' });
    if (order === 'startTime' && !single) throw googleError(400, 'invalid', 'The requested ordering is not available for the particular query.', { location: 'orderBy', locationType: 'parameter' });
    const bound = (name: string) => {
      const v = q(call.req, name);
      if (v === undefined) return undefined;
      const t = Date.parse(v);
      if (Number.isNaN(t) || !/[zZ]|[+-]\d{2}:?\d{2}$/.test(v)) throw googleError(400, 'badRequest', 'Bad Request', { location: name, locationType: 'parameter' });
      return t;
    };
    const min = bound('timeMin'), max = bound('timeMax');
    const text = q(call.req, 'q')?.toLowerCase();
    let items = (c.db.events.filter((e) => e.calendarId === cal.id) as StoredEvent[]).filter((e) =>
      (deleted || e.status !== 'cancelled')
      && (min === undefined || ms(e.end) > min) && (max === undefined || ms(e.start) < max)
      && (text === undefined || text.split(/\s+/).filter(Boolean).every((w) => `${e.summary} ${e.description ?? ''} ${e.location ?? ''} ${e.attendees.map((a) => a.email).join(' ')}`.toLowerCase().includes(w))));
    items = order === 'updated'
      ? items.sort((a, b) => (a.updated < b.updated ? -1 : a.updated > b.updated ? 1 : 0))
      : items.sort((a, b) => ms(a.start) - ms(b.start) || (a.id < b.id ? -1 : 1));
    const start = pageStart(call.req);
    return ok(call.req, {
      kind: 'calendar#events', etag: '"p32ofplf5rnbo80g"', summary: cal.summary, ...(cal.description ? { description: cal.description } : {}), updated: c.now,
      timeZone: cal.timeZone, accessRole: cal.accessRole, defaultReminders: cal.primary ? [{ method: 'popup', minutes: 10 }] : [],
      ...(start + size < items.length ? { nextPageToken: pageToken(start + size) } : { nextSyncToken: 'CKCbqKyDx70CEKCbqKyDx70CGAUgl8fS8QEol8fS8QE=' }),
      items: items.slice(start, start + size).map((e) => eventResource(c, e)),
    });
  }),

  operation('calendar.events.get', rest('GET', '/calendar/v3/calendars/:calendarId/events/:eventId'), (call, c: GoogleCtx) => {
    const cal = calendarOf(c, call.params.calendarId);
    return ok(call.req, eventResource(c, eventOf(c, cal, call.params.eventId)));
  }),

  operation('calendar.events.insert', rest('POST', '/calendar/v3/calendars/:calendarId/events'), (call, c: GoogleCtx) => {
    const cal = calendarOf(c, call.params.calendarId);
    writableCal(cal);
    const body = jsonBody(call.req);
    const fields = fromBody(body, {});
    const id = typeof body.id === 'string' ? body.id : eventId(c.ctx.ids);
    if (!/^[a-v0-9]{5,1024}$/.test(id)) throw googleError(400, 'invalid', 'Invalid resource id value.', { location: 'id', locationType: 'body' });
    if (c.db.events.has(`${cal.id}/${id}`)) throw googleError(409, 'duplicate', 'The requested identifier already exists.');
    const conference = call.req.query.get('conferenceDataVersion') === '1' && body.conferenceData
      ? { conferenceData: { conferenceId: `${id.slice(0, 3)}-${id.slice(3, 7)}-${id.slice(7, 10)}`, conferenceSolution: { key: { type: 'hangoutsMeet' }, name: 'Google Meet' }, entryPoints: [{ entryPointType: 'video', uri: `https://meet.google.com/${id.slice(0, 3)}-${id.slice(3, 7)}-${id.slice(7, 10)}` }] }, hangoutLink: `https://meet.google.com/${id.slice(0, 3)}-${id.slice(3, 7)}-${id.slice(7, 10)}` }
      : {};
    const event: StoredEvent = {
      calendarId: cal.id, id, created: c.now, updated: c.now, sequence: 0, organizer: cal.primary ? me(c).email : cal.id,
      ...(fields as Required<Pick<StoredEvent, 'summary' | 'start' | 'end' | 'attendees' | 'status'>>),
      ...(Object.keys(conference).length ? { extra: { ...(fields.extra ?? {}), ...conference } } : {}),
    };
    c.db.events.put(`${cal.id}/${id}`, event);
    return ok(call.req, eventResource(c, event));
  }),

  ...(['PUT', 'PATCH'] as const).map((method) => operation(method === 'PUT' ? 'calendar.events.update' : 'calendar.events.patch', rest(method, '/calendar/v3/calendars/:calendarId/events/:eventId'), (call, c: GoogleCtx) => {
    const cal = calendarOf(c, call.params.calendarId);
    writableCal(cal);
    const old = eventOf(c, cal, call.params.eventId);
    const body = jsonBody(call.req);
    // update replaces the event (what the body leaves out is cleared); patch merges.
    const base: Partial<StoredEvent> = method === 'PATCH' ? old : { start: old.start, end: old.end };
    const fields = fromBody(body, base);
    const timesChanged = JSON.stringify(fields.start) !== JSON.stringify(old.start) || JSON.stringify(fields.end) !== JSON.stringify(old.end);
    const next: StoredEvent = {
      calendarId: old.calendarId, id: old.id, created: old.created, organizer: old.organizer,
      summary: '', attendees: [], status: 'confirmed', start: old.start, end: old.end,
      ...fields, updated: c.now, sequence: old.sequence + (timesChanged ? 1 : 0),
    };
    if (next.extra === undefined) delete next.extra;
    c.db.events.put(`${cal.id}/${old.id}`, next);
    return ok(call.req, eventResource(c, next));
  })),

  operation('calendar.events.delete', rest('DELETE', '/calendar/v3/calendars/:calendarId/events/:eventId'), (call, c: GoogleCtx) => {
    const cal = calendarOf(c, call.params.calendarId);
    writableCal(cal);
    const old = eventOf(c, cal, call.params.eventId);
    if (old.status === 'cancelled') throw googleError(410, 'deleted', 'Resource has been deleted');
    c.db.events.put(`${cal.id}/${old.id}`, { ...old, status: 'cancelled', updated: c.now, sequence: old.sequence + 1 });
    return emptyResponse(204);
  }),
];
