import test from 'ava';
import { prepareWorld } from './helpers/prepare-world.js';
import { MemoryJournal } from '../mocks/core/journal.js';
import { World } from '../mocks/core/world.js';
import { twilioSpec, twilioSpecOperations } from '../mocks/twilio/fallback.js';
import { twilioService } from '../mocks/twilio/index.js';
import { specValidator } from './helpers/spec-validate.js';
import { TWILIO_FORMATS } from './helpers/twilio.js';

// The long tail over every operation of Twilio's description no handler takes: each create under
// the account (and under a call or message of the dataset) answers a full resource that
// validates against its schema, and reads, lists and updates of it answer and validate too.

const SCENARIO = 'mocks/twilio/conformance';
const ACCOUNT = 'AC0ff34b6f461fc20d099278f16181c244';
const AUTH = `Basic ${Buffer.from(`${ACCOUNT}:96ffa426dd6bcd727bc7846d5c773e9a`).toString('base64')}`;
const CALL = 'CA0a1bd3788999edbc292fa42a759d777f';

/** A value for each required form parameter: the enum's first value, a URL, a number, a SID. */
function formFor(request: Record<string, any> | null): Record<string, string> {
  const components = twilioSpec().components?.schemas ?? {};
  const resolve = (schema: Record<string, any>): Record<string, any> => (typeof schema.$ref === 'string' ? resolve(components[schema.$ref.split('/').at(-1)!] ?? {}) : schema);
  const body = resolve(request ?? {});
  return Object.fromEntries(((body.required ?? []) as string[]).map((name) => {
    const property = resolve(body.properties?.[name] ?? {});
    const value = Array.isArray(property.enum) ? String(property.enum[0]) : /Sid$/.test(name) ? `XX${'0'.repeat(32)}` : /Url$|Callback$/.test(name) ? 'https://hooks.example.com/x'
      : /Number|^To$|^From$/.test(name) ? '+14155550199' : name === 'IsoCountry' ? 'US' : 'sweep';
    return [name, value];
  }));
}

test('every fallback create, read, list and update under the account answers a document its schema accepts', async (t) => {
  const { header, services } = prepareWorld({ scenarioDir: SCENARIO });
  const world = new World({ seed: header.seed, epochMs: Date.parse(header.epoch), tickMs: header.tickMs, services, journal: new MemoryJournal(header) });
  const validate = specValidator(twilioSpec(), { formats: TWILIO_FORMATS, allProperties: true });
  const handled = new Set(twilioService.kit.operations.map((op) => op.name));
  const message = Object.keys(world.state(['twilio']).twilio!.messages!).sort()[0]!;
  const fill = (template: string) => template.replace('{AccountSid}', ACCOUNT).replace('{CallSid}', CALL).replace('{MessageSid}', message);
  const send = async (method: string, path: string, form: Record<string, string> = {}) => {
    const response = await world.dispatch({ host: 'api.twilio.com', method, target: `${path}.json`, body: new TextEncoder().encode(new URLSearchParams(form).toString()),
      headers: [['Authorization', AUTH], ['Content-Type', 'application/x-www-form-urlencoded']] });
    const text = new TextDecoder().decode(response.body);
    return { status: response.status, json: text ? JSON.parse(text) as Record<string, unknown> : null };
  };
  const ops = twilioSpecOperations().filter((op) => !handled.has(op.id));
  const creates = ops.filter((op) => op.kind === 'create' && !/\{(?!AccountSid|CallSid|MessageSid)[^}]+\}/.test(op.template));
  let checked = 0;
  const failures: string[] = [];
  const check = (name: string, problem: string | null) => { if (problem !== null) failures.push(`${name}: ${problem}`); };
  for (const op of creates) {
    const form = formFor(op.request);
    const path = fill(op.template);
    const created = await send('POST', path, { FriendlyName: 'Sweep', ...form });
    t.is(created.status, op.status, `${op.id}: ${JSON.stringify(created.json)}`);
    check(op.id, validate(op.id, created.json));
    checked += 1;
    const read = ops.find((other) => other.kind === 'read' && other.collection === op.collection);
    const list = ops.find((other) => other.kind === 'list' && other.collection === op.collection);
    const update = ops.find((other) => other.kind === 'update' && other.collection === op.collection);
    const key = read ? read.template.split('/').at(-1)!.slice(1, -1).replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase() : 'sid';
    const id = String(created.json?.[key]);
    // A POST that answers something else than the item (a caller ID's validation request) keeps nothing.
    if (created.json?.[key] === undefined) continue;
    if (read) {
      const got = await send('GET', `${path}/${id}`);
      t.is(got.status, 200, `${read.id} ${id}`);
      check(read.id, validate(read.id, got.json));
      t.deepEqual(got.json, created.json, `${read.id}: what was created`);
    }
    if (list) {
      const listed = await send('GET', path);
      check(list.id, validate(list.id, listed.json));
      t.true(Object.values(listed.json!).some((v) => Array.isArray(v) && v.some((item) => (item as Record<string, unknown>)[key] === id)), `${list.id} lists ${id}`);
    }
    if (update) {
      const updated = await send('POST', `${path}/${id}`, { ...formFor(update.request), FriendlyName: 'Renamed' });
      t.is(updated.status, update.status, `${update.id}: ${JSON.stringify(updated.json)}`);
      check(update.id, validate(update.id, updated.json));
      if ('friendly_name' in (created.json ?? {})) t.is(updated.json?.friendly_name, 'Renamed', update.id);
    }
  }
  t.deepEqual(failures, []);
  t.true(checked >= 15, `${checked} creates`);
  t.log(`${checked} creates with their reads, lists and updates validated`);
});
