import test from 'ava';
import { writeFileSync, mkdirSync, copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { prepareWorld } from './helpers/prepare-world.js';
import { FaultRuleSchema } from '../mocks/core/fault-plan.js';
import { MemoryJournal } from '../mocks/core/journal.js';
import { World } from '../mocks/core/world.js';
import { rfc2822 } from '../mocks/twilio/model.js';
import { segments, priceOf } from '../mocks/twilio/messages.js';
import { tempDir } from './helpers/journal.js';

// The Twilio mock's own rules: its 429 (20429) and 5xx faults, `.json` paths only, messages and
// calls moving on with the logical clock, SMS segments and prices, and dataset errors that name
// the field.

const SCENARIO = 'mocks/twilio/conformance';
const ACCOUNT = 'AC0ff34b6f461fc20d099278f16181c244';
const AUTH = `Basic ${Buffer.from(`${ACCOUNT}:96ffa426dd6bcd727bc7846d5c773e9a`).toString('base64')}`;

function worldWith(rules: unknown[] = [], scenarioDir = SCENARIO) {
  const { header, services } = prepareWorld({ scenarioDir });
  const faults = { chaos: 'none' as const, rules: rules.map((rule) => FaultRuleSchema.parse(rule)) };
  return new World({ seed: header.seed, epochMs: Date.parse(header.epoch), tickMs: header.tickMs, services, journal: new MemoryJournal({ ...header, faults }), faults });
}

const send = async (world: World, method: string, path: string, form?: Record<string, string>) => {
  const response = await world.dispatch({ host: 'api.twilio.com', method, target: path, body: new TextEncoder().encode(form ? new URLSearchParams(form).toString() : ''),
    headers: [['Authorization', AUTH], ['Content-Type', 'application/x-www-form-urlencoded']] });
  const text = new TextDecoder().decode(response.body);
  return { status: response.status, headers: response.headers, json: text ? JSON.parse(text) as Record<string, any> : null };
};

test('a 429 fault is Twilio\'s 20429 with Retry-After; a 503 is 20503; both carry a Twilio-Request-Id', async (t) => {
  const world = worldWith([
    { operation: 'CreateMessage', kind: '429', nth: [1], retry_after: 2 },
    { operation: 'ListCall', kind: '503', nth: [1], retry_after: 1 },
  ]);
  const limited = await send(world, 'POST', `/2010-04-01/Accounts/${ACCOUNT}/Messages.json`, { To: '+14155552001', From: '+14155550101', Body: 'x' });
  t.is(limited.status, 429);
  t.deepEqual(limited.json, { code: 20429, message: 'Too Many Requests', more_info: 'https://www.twilio.com/docs/errors/20429', status: 429 });
  t.true(limited.headers.some(([k, v]) => k === 'Retry-After' && v === '2'));
  t.true(limited.headers.some(([k, v]) => k === 'Twilio-Request-Id' && /^RQ[0-9a-f]{32}$/.test(v)));
  const retried = await send(world, 'POST', `/2010-04-01/Accounts/${ACCOUNT}/Messages.json`, { To: '+14155552001', From: '+14155550101', Body: 'x' });
  t.is(retried.status, 201);
  const unavailable = await send(world, 'GET', `/2010-04-01/Accounts/${ACCOUNT}/Calls.json`);
  t.like(unavailable, { status: 503, json: { code: 20503, status: 503 } });
});

test('only JSON paths: `Messages` without `.json` (Twilio\'s XML) is a 20404 naming the path; a bad credential is 20003', async (t) => {
  const world = worldWith();
  const xml = await send(world, 'GET', `/2010-04-01/Accounts/${ACCOUNT}/Messages`);
  t.like(xml, { status: 404, json: { code: 20404, message: `The requested resource /2010-04-01/Accounts/${ACCOUNT}/Messages was not found` } });
  const anonymous = await world.dispatch({ host: 'api.twilio.com', method: 'GET', target: `/2010-04-01/Accounts/${ACCOUNT}.json`, headers: [], body: new Uint8Array() });
  t.is(anonymous.status, 401);
  t.like(JSON.parse(new TextDecoder().decode(anonymous.body)), { code: 20003, message: 'Authenticate', status: 401 });
});

test('messages and calls follow the logical clock: queued, then delivered (priced) a second later; a call is in progress, then completed after a minute', async (t) => {
  const world = worldWith();
  const sent = await send(world, 'POST', `/2010-04-01/Accounts/${ACCOUNT}/Messages.json`, { To: '+14155552001', From: '+14155550101', Body: 'ł'.repeat(71) });
  t.like(sent.json, { status: 'queued', price: null, num_segments: '2' });
  const fetched = await send(world, 'GET', `/2010-04-01/Accounts/${ACCOUNT}/Messages/${sent.json!.sid}.json`);
  t.like(fetched.json, { status: 'delivered', price: '-0.01580' });
  t.is(Date.parse(fetched.json!.date_sent), Date.parse(sent.json!.date_created) + 1000);
  const call = await send(world, 'POST', `/2010-04-01/Accounts/${ACCOUNT}/Calls.json`, { To: '+14155552001', From: '+14155550101', Url: 'https://hooks.example.com/v' });
  t.like(call.json, { status: 'queued', from_formatted: '(415) 555-0101' });
  t.like((await send(world, 'GET', `/2010-04-01/Accounts/${ACCOUNT}/Calls/${call.json!.sid}.json`)).json, { status: 'in-progress' });
  for (let i = 0; i < 60; i++) await send(world, 'GET', `/2010-04-01/Accounts/${ACCOUNT}.json`);
  t.like((await send(world, 'GET', `/2010-04-01/Accounts/${ACCOUNT}/Calls/${call.json!.sid}.json`)).json, { status: 'completed', duration: '60', price: '-0.0140' });
});

test('segments, prices and RFC 2822 times as Twilio computes them', (t) => {
  t.is(segments('a'.repeat(160)), 1);
  t.is(segments('a'.repeat(161)), 2);
  t.is(segments('{'.repeat(80)), 1);
  t.is(segments('{'.repeat(81)), 2);
  t.is(segments('😀'.repeat(35)), 1);
  t.is(segments('😀'.repeat(36)), 2);
  t.is(priceOf('hello', 0), '-0.00790');
  t.is(rfc2822(Date.parse('2026-12-01T02:16:11Z')), 'Tue, 01 Dec 2026 02:16:11 +0000');
});

test('a bad dataset is one clear error naming the file and field', (t) => {
  const dir = tempDir('twilio-dataset-');
  mkdirSync(join(dir, 'dataset'));
  copyFileSync(join(SCENARIO, 'scenario.toml'), join(dir, 'scenario.toml'));
  writeFileSync(join(dir, 'dataset', 'twilio.json'), JSON.stringify({
    account: { sid: ACCOUNT, friendly_name: 'x', auth_token: '96ffa426dd6bcd727bc7846d5c773e9a' },
    messages: [{ from: '+14155550101', to: '+14155552001', body: 'hi', account_sid: 'AC11111111111111111111111111111111' }],
  }));
  const error = t.throws(() => worldWith([], dir));
  t.regex(error!.message, /dataset\/twilio\.json: field messages\[0\]\.account_sid: no account AC1{32} in the dataset/);
});
