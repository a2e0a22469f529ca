import test from 'ava';
import { z } from 'zod';
import { jsonResponse } from '../mocks/core/http.js';
import { defineService } from '../mocks/kit/define.js';
import { ServiceError } from '../mocks/kit/errors.js';
import { specFallback, type OpenApiDocument } from '../mocks/kit/spec-fallback.js';
import { kitWorld } from './helpers/kit-world.js';
import { specValidator } from './helpers/spec-validate.js';

// The spec fallback's `method` style (RPC APIs such as Slack's Web API): a toy description of
// two methods, answered at `/rpc/<method>` whatever the HTTP method, named by the method, with
// required arguments checked and the success schema filled from the arguments and `sample`.

const spec: OpenApiDocument = {
  openapi: '3.0.0',
  paths: {
    '/notes.add': {
      post: {
        operationId: 'notes_add',
        requestBody: { content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', required: ['text'], properties: { text: { type: 'string' }, owner: { type: 'string' } } } } } },
        responses: { 200: { content: { 'application/json': { schema: { $ref: '#/components/schemas/added' } } } } },
      },
    },
    '/notes.count': {
      get: {
        operationId: 'notes_count',
        parameters: [{ in: 'query', name: 'folder', required: true, schema: { type: 'string' } }, { in: 'header', name: 'token', required: true, schema: { type: 'string' } }],
        responses: { 200: { content: { 'application/json': { schema: { type: 'object', required: ['ok', 'count', 'folder'], additionalProperties: false,
          properties: { ok: { type: 'boolean', enum: [true] }, count: { type: 'integer' }, folder: { type: 'string' } } } } } } },
      },
    },
  },
  components: { schemas: {
    added: { type: 'object', required: ['ok', 'note'], additionalProperties: false, properties: { ok: { type: 'boolean', enum: [true] }, text: { type: 'string' }, owner: { type: 'string', pattern: '^U[0-9]+$' },
      note: { type: 'object', required: ['id', 'text'], properties: { id: { type: 'string', pattern: '^N[0-9]+$' }, text: { type: 'string' } } } } },
  } },
};

const fallback = specFallback<null>({
  spec,
  style: 'method',
  basePath: '/rpc',
  notFound: () => new ServiceError(404, 'unknown_method', 'unknown_method'),
  invalid: (param, message) => new ServiceError(200, 'invalid_arguments', message, { param }),
  sample: (schema, field, _context, ctx) => (schema.pattern === '^N[0-9]+$' ? `N${ctx.seq}` : field === 'owner' ? 'U0' : undefined),
});
const service = defineService<Record<string, never>, null>({
  id: 'rpc', version: '1', dataset: z.object({}).strict() as never, load: () => {}, context: () => null, operations: [],
  errors: (error) => jsonResponse(error.status, { ok: false, error: error.code, ...error.details }),
  refusal: () => new ServiceError(404, 'unknown_method', 'unknown_method'),
  fallback,
});
const { send } = kitWorld(service);
const validate = specValidator(spec);
const form = [['Content-Type', 'application/x-www-form-urlencoded']] as [string, string][];

test('operations are the spec paths under the base path, named by the method', (t) => {
  t.deepEqual(fallback.operations.map((op) => [op.id, op.method, op.template, op.required]), [
    ['notes.add', 'POST', '/rpc/notes.add', ['text']],
    ['notes.count', 'POST', '/rpc/notes.count', ['folder']],
  ]);
});

test('answers fill the success schema from the arguments (query, form or JSON) and the samples', (t) => {
  const added = send('POST', '/rpc/notes.add', form, 'text=Buy+milk&owner=U42');
  t.is(added.status, 200);
  t.deepEqual(added.entry.operation, { name: 'notes.add', via: 'spec' });
  t.deepEqual(added.json, { ok: true, text: 'Buy milk', owner: 'U42', note: { id: `N${added.entry.seq}`, text: '' } });
  t.is(validate('notes_add', added.json), null);
  // An argument the schema's pattern refuses is not echoed; the sample stands in.
  t.is(send('POST', '/rpc/notes.add', [['Content-Type', 'application/json']], JSON.stringify({ text: 'x', owner: 'bob' })).json.owner, undefined, 'owner is optional: left out');
  const counted = send('GET', '/rpc/notes.count?folder=inbox');
  t.deepEqual(counted.json, { ok: true, count: 0, folder: 'inbox' });
  t.deepEqual(counted.entry.operation, { name: 'notes.count', via: 'spec' });
  t.is(validate('notes_count', counted.json), null);
});

test('a required argument left out is the service\'s invalid error; an unknown method its 404', (t) => {
  const missing = send('POST', '/rpc/notes.count', form, 'folder=');
  t.deepEqual(missing.json, { ok: false, error: 'invalid_arguments', param: 'folder' });
  t.is(send('POST', '/rpc/notes.add', form, 'owner=U1').json.param, 'text');
  const unknown = send('POST', '/rpc/notes.remove');
  t.is(unknown.status, 404);
  t.is(unknown.entry.operation, null);
  t.is(send('POST', '/notes.add', form, 'text=x').status, 404, 'only under the base path');
});

// `stateful`: a family kept by its methods' names. `widgets.create` answers a `widget` with an id,
// so `widgets.*` keep widgets; the error schema names the family's `widget_not_found`.
const widget = { type: 'object', required: ['id', 'name'], additionalProperties: false,
  properties: { id: { type: 'string', pattern: '^W[0-9]+$' }, name: { type: 'string' }, colour: { type: 'string' }, date_end: { type: 'integer' } } };
const answers = (extra: Record<string, unknown> = {}) => ({ content: { 'application/json': { schema: { type: 'object', required: ['ok'], additionalProperties: false, properties: { ok: { type: 'boolean', enum: [true] }, ...extra } } } } });
const errors = { content: { 'application/json': { schema: { type: 'object', required: ['ok', 'error'], properties: { ok: { type: 'boolean', enum: [false] }, error: { type: 'string', enum: ['widget_not_found', 'invalid_auth'] } } } } } };
const method = (operationId: string, response: Record<string, unknown>, required: string[] = []) => ({ post: { operationId, responses: { 200: answers(response), default: errors },
  requestBody: { content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', required, properties: { widget: { type: 'string' }, name: { type: 'string' }, colour: { type: 'string' } } } } } } } });
const widgetSpec: OpenApiDocument = {
  openapi: '3.0.0',
  paths: {
    '/widgets.create': method('widgets_create', { widget: { $ref: '#/components/schemas/widget' } }, ['name']),
    '/widgets.list': method('widgets_list', { widgets: { type: 'array', items: { $ref: '#/components/schemas/widget' } } }),
    '/widgets.info': method('widgets_info', { widget: { $ref: '#/components/schemas/widget' } }, ['widget']),
    '/widgets.rename': method('widgets_rename', { widget: { $ref: '#/components/schemas/widget' } }, ['widget']),
    '/widgets.end': method('widgets_end', { widget: { $ref: '#/components/schemas/widget' } }, ['widget']),
    '/widgets.delete': method('widgets_delete', {}, ['widget']),
  },
  components: { schemas: { widget } },
};
const statefulService = (stateful: boolean) => defineService<Record<string, never>, null>({
  id: 'widgets', version: '1', dataset: z.object({}).strict() as never, load: () => {}, context: () => null, operations: [],
  errors: (error) => jsonResponse(error.status, { ok: false, error: error.code }),
  refusal: () => new ServiceError(404, 'unknown_method', 'unknown_method'),
  fallback: specFallback<null>({
    spec: widgetSpec, style: 'method', basePath: '/api', stateful,
    notFound: () => new ServiceError(404, 'unknown_method', 'unknown_method'),
    invalid: (param) => new ServiceError(200, 'invalid_arguments', param),
    missing: (code) => new ServiceError(200, code, code),
    sample: (schema, _field, _context, ctx) => (schema.pattern === '^W[0-9]+$' ? `W${ctx.seq}` : undefined),
  }),
});

test('stateful: create, list, info, rename, end and delete keep the family\'s objects, in the schema', (t) => {
  const { send: call } = kitWorld(statefulService(true));
  const validateWidgets = specValidator(widgetSpec);
  const ok = (name: string, body: string) => {
    const reply = call('POST', `/api/widgets.${name}`, form, body);
    t.is(validateWidgets(`widgets_${name}`, reply.json), null, `${name}: ${reply.text}`);
    return reply;
  };
  const created = ok('create', 'name=Sprocket&colour=red');
  t.deepEqual(created.json, { ok: true, widget: { id: `W${created.entry.seq}`, name: 'Sprocket', colour: 'red' } });
  const id = created.json.widget.id as string;
  const other = ok('create', 'name=Gear').json.widget.id as string;
  t.deepEqual(ok('list', '').json.widgets.map((w: { id: string }) => w.id), [id, other]);
  t.is(ok('info', `widget=${id}`).json.widget.name, 'Sprocket');
  t.deepEqual(ok('rename', `widget=${id}&name=Cog`).json.widget, { id, name: 'Cog', colour: 'red' });
  t.is(ok('info', `widget=${id}`).json.widget.name, 'Cog');
  const ended = ok('end', `widget=${id}`);
  t.is(ended.json.widget.date_end, Date.parse(ended.entry.time) / 1000, 'ended at the logical time, kept');
  t.is(ok('info', `widget=${id}`).json.widget.date_end, ended.json.widget.date_end);
  t.deepEqual(ok('delete', `widget=${other}`).json, { ok: true });
  t.deepEqual(ok('list', '').json.widgets.map((w: { id: string }) => w.id), [id]);
  for (const name of ['info', 'rename', 'end', 'delete']) {
    t.deepEqual(call('POST', `/api/widgets.${name}`, form, `widget=${other}`).json, { ok: false, error: 'widget_not_found' }, name);
  }
});

test('without `stateful` the method style keeps nothing', (t) => {
  const { send: call } = kitWorld(statefulService(false));
  t.true(call('POST', '/api/widgets.create', form, 'name=Sprocket').json.ok);
  t.deepEqual(call('POST', '/api/widgets.list', form, '').json, { ok: true });
  t.deepEqual(call('POST', '/api/widgets.info', form, 'widget=W1').json, { ok: true }, 'answered from the schema alone');
});
