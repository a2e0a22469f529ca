import test from 'ava';
import { z } from 'zod';
import { ServiceRequest, jsonResponse, type HeaderList } from '../mocks/core/http.js';
import { SeededIds } from '../mocks/core/ids.js';
import { DocumentStore } from '../mocks/core/store.js';
import { MemoryJournal } from '../mocks/core/journal.js';
import type { JournalHeader } from '../mocks/core/journal-format.js';
import { World } from '../mocks/core/world.js';
import { bodyForPredicates, decodeBody, parseNestedForm } from '../mocks/kit/bodies.js';
import { defineService, type Middleware } from '../mocks/kit/define.js';
import { ServiceError } from '../mocks/kit/errors.js';
import { prefixedId, slackStyleId, uuidId } from '../mocks/kit/ids.js';
import { action, graphqlRoute, operation, rest } from '../mocks/kit/operation.js';
import { gradeForbidden, gradeRequired } from '../scenarios/grade/calls.js';
import { CallMatcherSchema } from '../scenarios/expectations.js';

/** A toy service over the kit: REST, an AWS-style action, a GraphQL route, middleware and errors. */
interface Note { id: string; text: string }
type Ctx = { notes: ReturnType<typeof notesOf>; caller: string | null };
const notesOf = (store: { collection<T>(name: string): import('../mocks/core/store.js').Collection<T> }) => store.collection<Note>('notes');

const calls: string[] = [];
const trace: Middleware<Ctx> = (req, _c, next, matched) => {
  calls.push(`before ${matched?.name ?? 'none'}`);
  const response = next();
  return { ...response, headers: [...response.headers, ['X-Trace', matched?.name ?? 'none']] };
};
const auth: Middleware<Ctx> = (_req, c, next) => {
  if (c.caller === null) throw new ServiceError(401, 'not_authed', 'who are you');
  return next();
};

const notes = defineService<{ notes: string[] }, Ctx>({
  id: 'notes',
  version: '3',
  dataset: z.object({ notes: z.array(z.string()).default([]) }),
  load(data, ctx) {
    for (const text of data.notes) {
      const id = prefixedId(ctx, 'note_');
      notesOf(ctx.store).put(id, { id, text });
    }
  },
  context: (req, ctx) => ({ notes: notesOf(ctx.store), caller: req.header('authorization')?.replace(/^Bearer /, '') ?? null }),
  operations: [
    operation('notes.list', rest('GET', '/v1/notes'), (_call, c) => jsonResponse(200, { data: c.notes.values() })),
    operation('notes.create', rest('POST', '/v1/notes'), (call, c) => {
      const body = call.body as { text: string; tags?: string[] };
      const id = `note_${c.notes.size + 1}`;
      return jsonResponse(200, c.notes.put(id, { id, text: body.text + (body.tags ? ` #${body.tags.join(' #')}` : '') }));
    }, { input: { body: z.object({ text: z.string().min(1), tags: z.array(z.string()).optional() }).strict() } }),
    operation('notes.get', rest('GET', '/v1/notes/:id'), (call, c) => {
      const note = c.notes.get(call.params.id);
      if (!note) throw new ServiceError(404, 'resource_missing', `No such note: '${call.params.id}'`);
      return jsonResponse(200, note);
    }),
    { name: 'DescribeNotes', matcher: action('DescribeNotes'), handle: (_call, c) => jsonResponse(200, { count: c.notes.size }) },
    {
      name: 'graphql', matcher: graphqlRoute('/graphql'),
      nameOf: (_req, decoded) => {
        const body = decoded();
        if (body.kind !== 'graphql') return null;
        const field = /\{\s*(\w+)/.exec(body.value.query)?.[1];
        return field ? `${body.value.query.trim().startsWith('mutation') ? 'Mutation' : 'Query'}.${field}` : null;
      },
      handle: (call) => jsonResponse(200, { data: { operation: call.operation } }),
    },
  ],
  middleware: [trace, auth],
  errors: (error) => jsonResponse(error.status, { error: { type: error.code, message: error.message, ...error.details } }, [...error.headers]),
  refusal: (reason, detail) => {
    if (reason === 'invalid_params') return new ServiceError(400, 'invalid_request_error', `Invalid ${detail.where}: ${detail.issues?.[0]?.path.join('.')}`);
    if (reason === 'not_found' || reason === 'method_not_allowed') return new ServiceError(404, 'invalid_request_error', 'Unrecognized request URL', detail.allowed ? { allowed: detail.allowed } : {});
    return new ServiceError(reason === 'payload_too_large' ? 413 : 500, reason, reason);
  },
});

const header: JournalHeader = { format: 2, toolbench: 'test', scenario: 'kit', datasetHash: '', seed: 7, catalogHash: '', epoch: '2025-01-01T00:00:00.000Z', tickMs: 1000, scenarioDir: '/nowhere' };

function world(seed = 7, faults: World['config']['faults'] = undefined) {
  const journal = new MemoryJournal(header);
  return new World({ seed, epochMs: 0, tickMs: 1000, journal, services: [{ id: 'notes', hostnames: ['api.notes.test'], definition: notes, data: { notes: ['one', 'two'] } }], faults });
}

const enc = (text: string) => new TextEncoder().encode(text);
function send(w: World, method: string, target: string, body = '', headers: HeaderList = []) {
  const entry = w.process({ host: 'api.notes.test', method, target, headers: [['Authorization', 'Bearer me'], ...headers], body: enc(body) });
  return { entry, json: entry.response.body.length ? JSON.parse(new TextDecoder().decode(entry.response.body)) : undefined };
}

test('operations are matched and named; the journal entry records the name and who answered', (t) => {
  const w = world();
  const list = send(w, 'GET', '/v1/notes');
  t.is(list.entry.response.status, 200);
  t.deepEqual(list.entry.operation, { name: 'notes.list', via: 'handler' });
  t.is(list.json.data.length, 2);
  t.regex(list.json.data[0].id, /^note_[0-9A-Za-z]{14}$/);
  t.deepEqual(send(w, 'GET', '/v1/notes/nope').json, { error: { type: 'resource_missing', message: "No such note: 'nope'" } });
  t.is(send(w, 'GET', '/?Action=DescribeNotes&Version=2016-11-15').entry.operation?.name, 'DescribeNotes', 'an action in the query');
  t.is(send(w, 'POST', '/v1/notes', 'Action=DescribeNotes', [['Content-Type', 'application/x-www-form-urlencoded']]).entry.operation?.name, 'notes.create',
    'an action matcher only answers on its own path');
  t.is(send(w, 'POST', '/', '{}', [['X-Amz-Target', 'Notes_2020.DescribeNotes'], ['Content-Type', 'application/x-amz-json-1.1']]).json.count, 2);
  const gql = send(w, 'POST', '/graphql', JSON.stringify({ query: 'mutation { noteCreate(text: "x") { id } }' }), [['Content-Type', 'application/json']]);
  t.deepEqual(gql.entry.operation, { name: 'Mutation.noteCreate', via: 'handler' });
  t.deepEqual(gql.json, { data: { operation: 'Mutation.noteCreate' } });
  const unknown = send(w, 'GET', '/v2/whatever');
  t.is(unknown.entry.operation, null);
  t.is(unknown.entry.response.status, 404);
  t.deepEqual(send(w, 'DELETE', '/v1/notes').json.error.allowed, ['GET', 'POST']);
});

test('bodies: JSON and nested forms decode for handlers; schema failures and malformed bodies are the service\'s errors', (t) => {
  const w = world();
  const form = send(w, 'POST', '/v1/notes', 'text=hello&tags[0]=a&tags[1]=b', [['Content-Type', 'application/x-www-form-urlencoded']]);
  t.is(form.json.text, 'hello #a #b');
  t.is(send(w, 'POST', '/v1/notes', JSON.stringify({ text: 'json' }), [['Content-Type', 'application/json']]).json.text, 'json');
  t.deepEqual(send(w, 'POST', '/v1/notes', JSON.stringify({ text: '' }), [['Content-Type', 'application/json']]).json, { error: { type: 'invalid_request_error', message: 'Invalid body: text' } });
  t.is(send(w, 'POST', '/v1/notes', '{"text":', [['Content-Type', 'application/json']]).json.error.type, 'malformed_body');
});

test('middleware runs outermost first around the handler and the error; a thrown ServiceError renders in the envelope', (t) => {
  const w = world();
  calls.length = 0;
  const anonymous = w.process({ host: 'api.notes.test', method: 'GET', target: '/v1/notes', headers: [], body: new Uint8Array() });
  t.is(anonymous.response.status, 401);
  t.deepEqual(JSON.parse(new TextDecoder().decode(anonymous.response.body)), { error: { type: 'not_authed', message: 'who are you' } });
  t.true(anonymous.response.headers.some(([k, v]) => k === 'X-Trace' && v === 'notes.list'), 'the outer middleware decorates the inner one\'s error');
  t.deepEqual(calls, ['before notes.list']);
});

test('IDs are seeded: the same seed gives the same IDs, another seed others; styles look like the services\'', (t) => {
  const ids = (seed: number) => send(world(seed), 'GET', '/v1/notes').json.data.map((n: Note) => n.id);
  t.deepEqual(ids(7), ids(7));
  t.notDeepEqual(ids(7), ids(8));
  const w = world();
  const ctx = { ids: (w as unknown as { runtimes: Map<string, { ids: import('../mocks/core/ids.js').SeededIds }> }).runtimes.get('notes')!.ids };
  t.regex(uuidId(ctx, 'issue'), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  t.regex(slackStyleId(ctx, 'C'), /^C[0-9A-Z]{10}$/);
});

test('fault rules and grading name operations; grading sees decoded form and GraphQL bodies', (t) => {
  const w = world(7, { chaos: 'none', rules: [{ route: '/**', operation: 'notes.cr*', kind: '503', nth: [1], retry_after: 1 } as never] });
  t.is(send(w, 'GET', '/v1/notes').entry.fault, null);
  const faulted = send(w, 'POST', '/v1/notes', 'text=a', [['Content-Type', 'application/x-www-form-urlencoded']]);
  t.is(faulted.entry.fault?.kind, '503');
  const created = send(w, 'POST', '/v1/notes', 'text=refund&tags[0]=urgent', [['Content-Type', 'application/x-www-form-urlencoded']]);
  t.is(created.entry.response.status, 200);
  const entries = [faulted.entry, created.entry];
  const required = CallMatcherSchema.parse({ operation: 'notes.create', body: { tags: { $contains: 'urgent' } } });
  t.true(gradeRequired([required], entries, [])[0]!.ok);
  const forbidden = CallMatcherSchema.parse({ operation: 'notes.*', body: { text: 'other' } });
  t.true(gradeForbidden([forbidden], entries, [])[0]!.ok);
});

test('body decoders: nested forms, appends, multipart, GraphQL, text', (t) => {
  t.deepEqual(parseNestedForm('a[b][0]=x&a[b][1]=y&c=z&d[]=1&d[]=2&e=1&e=2&metadata[order_id]=6735'),
    { a: { b: ['x', 'y'] }, c: 'z', d: ['1', '2'], e: ['1', '2'], metadata: { order_id: '6735' } });
  t.deepEqual(parseNestedForm('weird[=1&x]=2'), { 'weird[': '1', 'x]': '2' });
  const multipart = '--XX\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--XX\r\nContent-Disposition: form-data; name="channels"\r\n\r\nC1\r\n--XX--\r\n';
  t.deepEqual(bodyForPredicates([['Content-Type', 'multipart/form-data; boundary=XX']], enc(multipart)), { file: 'hello', channels: 'C1' });
  const graphql = decodeBody([['Content-Type', 'application/json']], enc('{"query":"{ viewer { id } }","variables":{"a":1}}'), { graphql: true });
  t.deepEqual(graphql, { kind: 'graphql', value: { query: '{ viewer { id } }', variables: { a: 1 }, operationName: null } });
  t.deepEqual(decodeBody([['Content-Type', 'text/plain']], enc('hi')), { kind: 'text', value: 'hi' });
  t.throws(() => decodeBody([['Content-Type', 'multipart/form-data']], enc('x')), { name: 'BodyParseError' });
});

test('a lazy call reads each input once, on first use; a failed read fails again; a second definition handed the same request matches it afresh', (t) => {
  let decodes = 0;
  const seen: string[] = [];
  const lazyService = (id: string) => defineService<Record<string, never>, null>({
    id, version: '1', dataset: z.object({}), load: () => undefined, context: () => null,
    decode: (req) => {
      decodes += 1;
      return decodeBody(req.headers, req.body, { graphql: false });
    },
    operations: [
      operation(`${id}.echo`, rest('POST', '/echo/:n'), (call) => {
        // Destructuring and repeated reads see one decoded value (getters on the prototype).
        const { params, body } = call;
        t.is(call.body, body);
        t.is(call.decoded.kind, 'json');
        seen.push(`${id} ${params.n} ${JSON.stringify(call.query)}`);
        return jsonResponse(200, { n: params.n, body });
      }, { lazy: true, input: { path: z.object({ n: z.coerce.number() }), body: z.object({ text: z.string() }) } }),
      operation(`${id}.broken`, rest('POST', '/broken'), (call) => {
        const first = t.throws(() => call.body);
        const second = t.throws(() => call.body);
        t.is(first?.constructor, second?.constructor, 'a body that failed to parse fails on every read');
        throw first;
      }, { lazy: true }),
    ],
    errors: (error) => jsonResponse(error.status, { code: error.code }),
    refusal: (reason) => new ServiceError(reason === 'malformed_body' ? 400 : 404, reason, reason),
  });
  const a = lazyService('a');
  const b = lazyService('b');
  const ctx = { service: 'a', store: new DocumentStore(), ids: new SeededIds(7, 'a'), epochMs: 0, seq: 1, nowMs: 0 };
  const req = new ServiceRequest('POST', '/echo/7?x=1', [['Content-Type', 'application/json']], enc('{"text":"hi"}'));
  t.deepEqual(a.operation!(req), { name: 'a.echo', via: 'handler' });
  const answer = a.handle(req, ctx);
  t.deepEqual(JSON.parse(new TextDecoder().decode(answer.body)), { n: 7, body: { text: 'hi' } });
  t.is(decodes, 1, 'naming and handling share one match; the body is decoded once');
  t.deepEqual(b.operation!(req), { name: 'b.echo', via: 'handler' }, 'another definition does not take the first one\'s match');
  b.handle(req, ctx);
  t.is(decodes, 2);
  t.deepEqual(seen, ['a 7 {"x":"1"}', 'b 7 {"x":"1"}']);
  const broken = a.handle(new ServiceRequest('POST', '/broken', [['Content-Type', 'application/json']], enc('{"text":')), ctx);
  t.is(broken.status, 400);
  t.deepEqual(JSON.parse(new TextDecoder().decode(broken.body)), { code: 'malformed_body' });
});
