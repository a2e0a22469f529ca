import test from 'ava';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { jsonResponse, type HeaderList } from '../mocks/core/http.js';
import { MemoryJournal } from '../mocks/core/journal.js';
import type { JournalEntry, JournalHeader } from '../mocks/core/journal-format.js';
import { World } from '../mocks/core/world.js';
import { defineService } from '../mocks/kit/define.js';
import { ServiceError } from '../mocks/kit/errors.js';
import { prefixedId } from '../mocks/kit/ids.js';
import { operation, rest } from '../mocks/kit/operation.js';
import { specFallback, type OpenApiDocument } from '../mocks/kit/spec-fallback.js';
import { specValidator } from './helpers/spec-validate.js';
import { sourceUrl } from '../mocks/core/source-url.js';

// The spec fallback (mocks/kit/spec-fallback.ts) over a small hand-written OpenAPI document and
// over a pruned copy of Stripe's real one (test/fixtures/specs/stripe-tail.json: pruned from
// the APIs.guru bundle's stripe.com.json by mocks/kit/openapi.ts pruneSpec). Every answer the
// fallback gives is validated against the spec's response schema with ajv.

const readSpec = (name: string) => JSON.parse(readFileSync(new URL(`./fixtures/specs/${name}`, sourceUrl(import.meta.url)), 'utf8')) as OpenApiDocument;
const enc = (text: string) => new TextEncoder().encode(text);
const header: JournalHeader = { format: 2, toolbench: 'test', scenario: 'spec', datasetHash: '', seed: 7, catalogHash: '', epoch: '2025-01-01T00:00:00.000Z', tickMs: 1000, scenarioDir: '/nowhere' };

// --- A toy service over the hand-written spec ---------------------------------------------------

const shopSpec = readSpec('shop-api.json');
type ShopCtx = { who: string };
const shopFallback = specFallback<ShopCtx>({
  spec: shopSpec,
  notFound: (resource, id) => new ServiceError(404, 'not_found', `No such ${resource}: ${id}`),
  invalid: (param, message) => new ServiceError(400, 'invalid', message, { param }),
  malformed: () => new ServiceError(400, 'malformed', 'The body is not valid JSON.'),
  id: (ctx, { object, collection }) => prefixedId(ctx, object === 'widget' ? 'wid_' : 'pet_', collection),
  // The service's pagination: `limit`, and the total in the envelope.
  paginate: (items, page) => {
    const limit = Number(page.query.limit ?? 100);
    const envelope = page.envelope(items.slice(0, limit));
    return Array.isArray(envelope) ? envelope : { ...envelope as object, total: items.length };
  },
});
const shop = defineService<{ widgets: Record<string, unknown>[] }, ShopCtx>({
  id: 'shop',
  version: '1',
  dataset: z.object({ widgets: z.array(z.record(z.unknown())).default([]) }),
  load: (data, ctx) => shopFallback.seed({ '/v1/widgets': data.widgets }, ctx),
  context: (req) => ({ who: req.header('authorization') ?? 'nobody' }),
  operations: [operation('getSpecialWidget', rest('GET', '/v1/widgets/special'), () => jsonResponse(200, {
    id: 'wid_special', object: 'widget', name: 'Special', color: 'green', size: null, archived: false, created_at: '2025-01-01T00:00:00.000Z',
    tags: [], metadata: {}, dimensions: { width: 1, height: 1 },
  }))],
  errors: (error) => jsonResponse(error.status, { error: { code: error.code, message: error.message, ...error.details } }),
  refusal: (reason) => new ServiceError(reason === 'not_found' ? 404 : 400, reason, reason),
  fallback: shopFallback,
});

function shopWorld(seed = 7): World {
  return new World({
    seed, epochMs: Date.parse('2025-01-01T00:00:00Z'), tickMs: 1000, journal: new MemoryJournal(header),
    services: [{ id: 'shop', hostnames: ['api.shop.test'], definition: shop, data: { widgets: [{ name: 'Seeded one', color: 'blue' }, { id: 'wid_fixed', name: 'Seeded two', size: 3 }] } }],
  });
}

function sender(world: World, host: string, auth: HeaderList = []) {
  const sent: JournalEntry[] = [];
  const send = (method: string, target: string, body?: string | object, headers: HeaderList = []) => {
    const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
    const given = headers.some(([name]) => name.toLowerCase() === 'content-type');
    const type: HeaderList = body === undefined || given ? [] : typeof body === 'string' ? [['Content-Type', 'application/x-www-form-urlencoded']] : [['Content-Type', 'application/json']];
    const entry = world.process({ host, method, target, headers: [...auth, ...type, ...headers], body: enc(text) });
    sent.push(entry);
    const out = new TextDecoder().decode(entry.response.body);
    return { entry, status: entry.response.status, json: out === '' ? undefined : JSON.parse(out) };
  };
  return Object.assign(send, { sent });
}

const validateShop = specValidator(shopSpec);

/** Every spec-answered 2xx of `entries` against its operation's response schema. */
function validateAll(t: { is(a: unknown, b: unknown, m?: string): void }, entries: JournalEntry[], validate: (op: string, body: unknown) => string | null): number {
  let checked = 0;
  for (const entry of entries) {
    if (entry.operation?.via !== 'spec' || entry.response.status >= 300) continue;
    checked++;
    t.is(validate(entry.operation.name, JSON.parse(new TextDecoder().decode(entry.response.body))), null, `${entry.method} ${entry.target} (${entry.operation.name})`);
  }
  return checked;
}

test('create, read, list (seeded, then created), update, action, delete: stateful, named by operationId, in the spec\'s shape', (t) => {
  const send = sender(shopWorld(), 'api.shop.test');
  const created = send('POST', '/v1/widgets', { name: 'Gizmo', color: 'red', size: 4, tags: ['a'], metadata: { team: 'x' }, unknown_field: 1 });
  t.is(created.status, 201, 'the spec\'s success status');
  t.deepEqual(created.entry.operation, { name: 'createWidget', via: 'spec' });
  t.like(created.json, { object: 'widget', name: 'Gizmo', color: 'red', size: 4, archived: false, tags: ['a'], metadata: { team: 'x' }, dimensions: { width: 0, height: 0 } });
  t.regex(created.json.id, /^wid_[0-9A-Za-z]{14}$/, 'a seeded ID in the service\'s style');
  t.false('unknown_field' in created.json, 'fields outside the schema are not stored');
  t.false('notes' in created.json, 'optional fields the body does not give are left out');
  t.is(created.json.created_at, '2025-01-01T00:00:01.000Z', 'logical time');

  t.deepEqual(send('GET', `/v1/widgets/${created.json.id}`).json, created.json, 'a create is readable');
  const list = send('GET', '/v1/widgets');
  t.deepEqual(list.entry.operation, { name: 'listWidgets', via: 'spec' });
  t.deepEqual(list.json.items.map((w: { name: string }) => w.name), ['Seeded one', 'Seeded two', 'Gizmo'], 'the dataset\'s seeded items, then what was created');
  t.is(list.json.total, 3);
  t.is(send('GET', '/v1/widgets?limit=1').json.items.length, 1, 'the service\'s pagination');
  t.is(list.json.items[1].id, 'wid_fixed');
  t.is(list.json.items[0].color, 'blue');

  const updated = send('PATCH', `/v1/widgets/${created.json.id}`, { color: 'blue', size: '', metadata: { team: '', owner: 'y' } });
  t.like(updated.json, { color: 'blue', size: null, metadata: { owner: 'y' }, name: 'Gizmo' });
  t.deepEqual(send('GET', `/v1/widgets/${created.json.id}`).json, updated.json, 'an update is stored');
  const archived = send('POST', `/v1/widgets/${created.json.id}/archive`, { archived: true });
  t.deepEqual(archived.entry.operation, { name: 'archiveWidget', via: 'spec' });
  t.true(archived.json.archived, 'an action on an item answers and changes that item');
  t.true(send('GET', `/v1/widgets/${created.json.id}`).json.archived);

  t.deepEqual(send('DELETE', `/v1/widgets/${created.json.id}`).json, { id: created.json.id, deleted: true });
  const gone = send('GET', `/v1/widgets/${created.json.id}`);
  t.is(gone.status, 404);
  t.deepEqual(gone.json, { error: { code: 'not_found', message: `No such widget: ${created.json.id}` } }, 'the service\'s own 404');
  t.deepEqual(gone.entry.operation, { name: 'getWidget', via: 'spec' });
  t.is(send('PATCH', '/v1/widgets/wid_nope', { name: 'x' }).status, 404);
  t.is(send('POST', '/v1/widgets/wid_nope/archive').status, 404);

  t.deepEqual(send('GET', '/v1/widgets/special').entry.operation, { name: 'getSpecialWidget', via: 'handler' }, 'a handler wins over the spec');
  const status = send('GET', '/v1/status');
  t.deepEqual(status.json, { ok: false, checked_at: status.entry.time, region: 'eu' }, 'a singleton: required fields filled, enum first value, logical time');
  const missing = send('POST', '/v1/widgets', { color: 'red' });
  t.deepEqual(missing.json, { error: { code: 'invalid', message: 'Missing required param: name.', param: 'name' } }, 'a required body parameter, in the service\'s error');
  const broken = send('POST', '/v1/widgets', '{"name":', [['Content-Type', 'application/json']]);
  t.deepEqual([broken.status, broken.json], [400, { error: { code: 'malformed', message: 'The body is not valid JSON.' } }], 'a malformed body, in the service\'s error');
  const unknown = send('GET', '/v2/nothing');
  t.is(unknown.entry.operation, null, 'a path the spec lacks names no operation');
  t.is(unknown.status, 404);
  t.is(validateAll(t, send.sent, validateShop), 10);
  t.regex(validateShop('createWidget', { ...created.json, extra: 1 }) ?? '', /additional/, 'the validator does check');
});

test('nested collections are per parent; form bodies are coerced by the schema', (t) => {
  const send = sender(shopWorld(), 'api.shop.test');
  const cat = send('POST', '/v1/owners/ann/pets', 'name=Tom&species=cat&born=1700000000');
  t.like(cat.json, { name: 'Tom', species: 'cat', born: 1700000000 }, 'a form string becomes the integer the schema says');
  send('POST', '/v1/owners/bob/pets', 'name=Rex&species=dog');
  t.deepEqual(send('GET', '/v1/owners/ann/pets').json.map((p: { name: string }) => p.name), ['Tom']);
  t.deepEqual(send('GET', '/v1/owners/bob/pets').json.map((p: { name: string; born: number }) => [p.name, p.born]), [['Rex', Date.parse('2025-01-01T00:00:02Z') / 1000]]);
  t.is(send('GET', `/v1/owners/bob/pets/${cat.json.id}`).status, 404, 'ann\'s pet is not bob\'s');
  t.is(send('GET', `/v1/owners/ann/pets/${cat.json.id}`).json.name, 'Tom');
  t.deepEqual(send('GET', '/v1/owners/carol/pets').json, []);
  const badEnum = send('POST', '/v1/owners/ann/pets', 'name=Nemo&species=fish');
  t.is(badEnum.json.species, 'cat', 'a value outside the enum falls back to its first value');
  t.is(validateAll(t, send.sent, validateShop), 7);
});

test('deterministic: the same seed gives the same bytes, another seed other IDs only', (t) => {
  const script = (seed: number) => {
    const send = sender(shopWorld(seed), 'api.shop.test');
    const a = send('POST', '/v1/widgets', { name: 'A' }).json.id as string;
    send('POST', '/v1/widgets', { name: 'B' });
    send('PATCH', `/v1/widgets/${a}`, { color: 'green' });
    send('GET', '/v1/widgets');
    return send.sent.map((e) => new TextDecoder().decode(e.response.body));
  };
  t.deepEqual(script(7), script(7));
  const other = script(8);
  t.notDeepEqual(script(7), other);
  const ids = (bodies: string[]) => bodies.map((b) => b.replace(/wid_[0-9A-Za-z]{14}/g, 'wid_*'));
  t.deepEqual(ids(script(7)), ids(other));
});

// --- Stripe's real spec, pruned ------------------------------------------------------------------

const stripeSpec = readSpec('stripe-tail.json');
const STRIPE_PREFIX: Record<string, string> = { tax_rate: 'txr_', product: 'prod_', webhook_endpoint: 'we_', 'terminal.location': 'tml_', 'identity.verification_session': 'vs_', tax_code: 'txcd_' };
const stripeFallback = specFallback<null>({
  spec: stripeSpec,
  notFound: (resource, id) => new ServiceError(404, 'resource_missing', `No such ${resource}: '${id}'`, { param: 'id' }),
  id: (ctx, { object }) => prefixedId(ctx, object === 'coupon' ? '' : STRIPE_PREFIX[object ?? ''] ?? 'obj_', object ?? 'obj', object === 'coupon' ? 8 : 24),
  paginate: (items, page) => {
    // Stripe's lists: newest first, `limit` (default 10), `has_more`.
    const limit = Number(page.query.limit ?? 10);
    const newest = [...items].reverse();
    return { ...(page.envelope(newest.slice(0, limit)) as object), has_more: newest.length > limit };
  },
});
const stripeLike = defineService<{ tax_codes: Record<string, unknown>[] }, null>({
  id: 'stripe',
  version: '1',
  dataset: z.object({ tax_codes: z.array(z.record(z.unknown())).default([]) }),
  load: (data, ctx) => stripeFallback.seed({ '/v1/tax_codes': data.tax_codes }, ctx),
  context: () => null,
  operations: [],
  errors: (error) => jsonResponse(error.status, { error: { type: 'invalid_request_error', code: error.code, message: error.message, ...error.details } }),
  refusal: () => new ServiceError(404, 'resource_missing', 'Unrecognized request URL'),
  fallback: stripeFallback,
});

test('Stripe\'s pruned spec: every operation answers statefully, and every answer validates against Stripe\'s schema', (t) => {
  const world = new World({
    seed: 11, epochMs: Date.parse('2025-06-01T00:00:00Z'), tickMs: 1000, journal: new MemoryJournal(header),
    services: [{ id: 'stripe', hostnames: ['api.stripe.com'], definition: stripeLike, data: { tax_codes: [{ id: 'txcd_10000000', name: 'General - Electronically Supplied Services' }, { id: 'txcd_99999999', name: 'General - Tangible Goods' }] } }],
  });
  const send = sender(world, 'api.stripe.com', [['Authorization', 'Bearer sk_test_123']]);
  const validate = specValidator(stripeSpec);

  const rate = send('POST', '/v1/tax_rates', 'display_name=VAT&percentage=20.5&inclusive=false&metadata[region]=eu&jurisdiction=DE');
  t.like(rate.json, { object: 'tax_rate', display_name: 'VAT', percentage: 20.5, inclusive: false, metadata: { region: 'eu' }, jurisdiction: 'DE', livemode: false, created: Date.parse('2025-06-01T00:00:01Z') / 1000 });
  t.regex(rate.json.id, /^txr_[0-9A-Za-z]{24}$/);
  t.deepEqual(rate.entry.operation, { name: 'PostTaxRates', via: 'spec' });
  send('POST', '/v1/tax_rates', 'display_name=GST&percentage=10&inclusive=true');
  t.deepEqual(send('GET', '/v1/tax_rates').json.data.map((r: { display_name: string }) => r.display_name), ['GST', 'VAT'], 'Stripe\'s order: newest first');
  t.like(send('GET', '/v1/tax_rates?limit=1').json, { object: 'list', url: '/v1/tax_rates', has_more: true });
  t.like(send('POST', `/v1/tax_rates/${rate.json.id}`, 'active=false&metadata[region]=').json, { active: false, metadata: {} });
  t.like(send('GET', `/v1/tax_rates/${rate.json.id}`).json, { active: false, display_name: 'VAT' });

  const coupon = send('POST', '/v1/coupons', 'percent_off=25&duration=repeating&duration_in_months=3&name=Spring');
  t.like(coupon.json, { object: 'coupon', percent_off: 25, duration: 'repeating', duration_in_months: 3, name: 'Spring', valid: false });
  t.regex(coupon.json.id, /^[0-9A-Za-z]{8}$/);
  t.like(send('POST', `/v1/coupons/${coupon.json.id}`, 'name=Spring+sale').json, { name: 'Spring sale', percent_off: 25 });
  t.deepEqual(send('GET', '/v1/coupons').json.data.map((c: { id: string }) => c.id), [coupon.json.id]);
  t.is(send('GET', `/v1/coupons/${coupon.json.id}`).json.name, 'Spring sale');
  const custom = send('POST', '/v1/coupons', 'id=SUMMER25&amount_off=500&currency=eur&duration=once');
  t.is(custom.json.id, 'SUMMER25', 'a create may name its id, as Stripe allows for coupons');
  t.deepEqual(send('DELETE', '/v1/coupons/SUMMER25').json, { id: 'SUMMER25', object: 'coupon', deleted: true });
  const missing = send('GET', '/v1/coupons/SUMMER25');
  t.is(missing.status, 404);
  t.deepEqual(missing.json, { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such coupon: \'SUMMER25\'', param: 'id' } });

  const product = send('POST', '/v1/products', 'name=Widget&description=Blue&active=true&images[0]=https://example.com/a.png&package_dimensions[height]=1.5&package_dimensions[length]=2&package_dimensions[weight]=3&package_dimensions[width]=4');
  t.like(product.json, { object: 'product', name: 'Widget', description: 'Blue', active: true, images: ['https://example.com/a.png'], package_dimensions: { height: 1.5, length: 2, weight: 3, width: 4 } });
  t.is(send('GET', '/v1/products/search?query=name:%27Widget%27').json.data.length, 1, 'search lists the collection');
  t.like(send('POST', `/v1/products/${product.json.id}`, 'name=Widget+2').json, { name: 'Widget 2', description: 'Blue' });
  t.is(send('GET', `/v1/products/${product.json.id}`).json.name, 'Widget 2');
  t.like(send('DELETE', `/v1/products/${product.json.id}`).json, { id: product.json.id, deleted: true, object: 'product' });
  t.deepEqual(send('GET', '/v1/products').json.data, []);

  const hook = send('POST', '/v1/webhook_endpoints', 'url=https://example.com/hook&enabled_events[0]=charge.succeeded&enabled_events[1]=charge.failed');
  t.like(hook.json, { object: 'webhook_endpoint', url: 'https://example.com/hook', enabled_events: ['charge.succeeded', 'charge.failed'] });
  t.like(send('POST', `/v1/webhook_endpoints/${hook.json.id}`, 'disabled=true&description=Paused').json, { description: 'Paused' });
  t.is(send('GET', '/v1/webhook_endpoints').json.data[0].description, 'Paused');
  send('GET', `/v1/webhook_endpoints/${hook.json.id}`);
  send('DELETE', `/v1/webhook_endpoints/${hook.json.id}`);
  t.is(send('GET', `/v1/webhook_endpoints/${hook.json.id}`).status, 404);

  const location = send('POST', '/v1/terminal/locations', 'display_name=HQ&address[line1]=1 Main St&address[city]=Berlin&address[country]=DE&address[postal_code]=10115');
  t.like(location.json, { object: 'terminal.location', display_name: 'HQ', address: { line1: '1 Main St', city: 'Berlin', country: 'DE' } });
  send('POST', `/v1/terminal/locations/${location.json.id}`, 'display_name=Head office');
  t.is(send('GET', `/v1/terminal/locations/${location.json.id}`).json.display_name, 'Head office');
  t.is(send('GET', '/v1/terminal/locations').json.data.length, 1);
  t.like(send('DELETE', `/v1/terminal/locations/${location.json.id}`).json, { deleted: true, object: 'terminal.location' });

  const session = send('POST', '/v1/identity/verification_sessions', 'type=document');
  t.like(session.json, { object: 'identity.verification_session', type: 'document' });
  t.like(send('POST', `/v1/identity/verification_sessions/${session.json.id}`, 'metadata[case]=42').json, { metadata: { case: '42' } });
  t.is(send('GET', '/v1/identity/verification_sessions').json.data.length, 1);
  const canceled = send('POST', `/v1/identity/verification_sessions/${session.json.id}/cancel`, 'status=canceled');
  t.deepEqual(canceled.entry.operation, { name: 'PostIdentityVerificationSessionsSessionCancel', via: 'spec' });
  t.is(canceled.json.id, session.json.id);
  t.is(send('GET', `/v1/identity/verification_sessions/${session.json.id}`).json.status, canceled.json.status);
  t.is(send('POST', '/v1/identity/verification_sessions/vs_nope/cancel').status, 404);

  t.deepEqual(send('GET', '/v1/tax_codes').json.data.map((c: { id: string }) => c.id), ['txcd_99999999', 'txcd_10000000'], 'the dataset\'s seeded records are listed');
  t.like(send('GET', '/v1/tax_codes/txcd_10000000').json, { object: 'tax_code', name: 'General - Electronically Supplied Services', description: '' });

  // Every operation of the pruned spec was answered, and every answer is in Stripe's shape.
  const answered = new Set(send.sent.map((e) => e.operation?.name));
  t.deepEqual(stripeFallback.operations.filter((op) => !answered.has(op.id)).map((op) => `${op.method} ${op.template}`), [], 'every operation was exercised');
  t.is(validateAll(t, send.sent, validate), 35);
  t.regex(validate('PostTaxRates', { ...rate.json, created: 'yesterday' }) ?? '', /created/, 'the validator does check');
});
