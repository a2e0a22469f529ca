import test from 'ava';
import { join } from 'node:path';
import { gradeWorld } from '../scenarios/grade-world.js';
import { findScenarios } from '../scenarios/validate.js';
import { openWorld } from '../scenarios/world.js';
import { twilioService } from '../mocks/twilio/index.js';
import { scenarioSuite } from './helpers/scenario-suite.js';

// Every Twilio scenario of the business group (helpers/scenario-suite): valid (oracle arguments
// against the real server's input schemas), nop 0, oracle 1 with R_b 0 through the real
// @twilio-alpha/mcp, replay identical; and near misses (the look-alike recipient, the wrong
// scheduled text, the wrong number) score 0.

const dirs = findScenarios(join('scenarios', 'business')).filter((dir) => dir.includes('/twilio/'));
type Credential = { account_sid: string; api_key: string; api_secret: string };
const manifests = scenarioSuite({
  service: 'twilio',
  dirs,
  credentialOk: (world, credential) => {
    const c = credential as Credential;
    const key = world.state(['twilio']).twilio?.keys?.[c.api_key] as { secret: string; account_sid: string } | undefined;
    return key !== undefined && key.secret === c.api_secret && key.account_sid === c.account_sid;
  },
  operationNames: twilioService.kit.operations.map((operation) => operation.name),
});

test('at least 5 Twilio scenarios, each with its own seed and epoch, a non-trivial account, writes required through MCP by operation', async (t) => {
  t.true(dirs.length >= 5, `${dirs.length} scenarios`);
  const seeds = [...manifests.values()].map((m) => m.seed);
  const epochs = [...manifests.values()].map((m) => m.epoch);
  t.is(new Set(seeds).size, seeds.length);
  t.is(new Set(epochs).size, epochs.length);
  for (const [dir, manifest] of manifests) {
    t.true(manifest.expect.required_calls.every((call) => 'operation' in call && call.operation !== undefined && call.tool?.endpoint === 'twilio'), manifest.id);
    const { world } = await openWorld({ scenarioDir: dir });
    try {
      const state = world.state(['twilio']).twilio!;
      t.true(Object.keys(state.messages!).length >= 30 && Object.keys(state.incoming_phone_numbers!).length >= 8, `${manifest.id}: a non-trivial account`);
    } finally {
      await world.journal.close();
    }
  }
});

/** A near miss straight through the API (as an agent with the wrong pick would make it) scores 0. */
test('near misses score 0: the wrong recipient, the wrong scheduled text, the wrong number, the wrong subaccount', async (t) => {
  const cases: [string, string, string][] = [
    ['business/twilio/reply-to-reschedule-request', 'Messages.json', 'To=%2B14155553143&From=%2B14155550102&Body=Hi+Maya%2C+you%27re+all+set+for+Friday+at+3%3A00+PM.'],
    ['business/twilio/cancel-scheduled-reminder', 'Messages/SM${invoice}.json', 'Status=canceled'],
    ['business/twilio/update-sms-webhook', 'IncomingPhoneNumbers/PN${warehouse}.json', 'SmsUrl=https%3A%2F%2Fhooks.northwind.example%2Fv2%2Fsms%2Fboston'],
    ['business/twilio/close-pilot-subaccount', '/2010-04-01/Accounts/AC${pilot2026}.json', 'Status=closed'],
    ['business/twilio/call-back-missed-caller', 'Calls.json', 'To=%2B12065553377&From=%2B12065550160&Url=https%3A%2F%2Fhooks.cedar.example%2Fvoice%2Fcallback'],
  ];
  const ids: Record<string, string> = { invoice: '', warehouse: '', pilot2026: '' };
  for (const [id, tail, form] of cases) {
    const dir = join('scenarios', id);
    const manifest = manifests.get(dir)!;
    const credential = manifest.credentials.twilio as unknown as Credential;
    const opened = await openWorld({ scenarioDir: dir });
    try {
      const state = opened.world.state(['twilio']).twilio!;
      ids.invoice = Object.values(state.messages!).map((m) => m as { sid: string; body: string }).find((m) => m.body.startsWith('Your invoice #4471'))?.sid.slice(2) ?? '';
      ids.warehouse = Object.values(state.incoming_phone_numbers!).map((n) => n as { sid: string; friendly_name: string }).find((n) => n.friendly_name === 'Boston warehouse')?.sid.slice(2) ?? '';
      ids.pilot2026 = Object.values(state.accounts!).map((a) => a as { sid: string; friendly_name: string }).find((a) => a.friendly_name === 'Acme pilot 2026')?.sid.slice(2) ?? '';
      const path = tail.replace(/\$\{(\w+)\}/g, (_m, name: string) => ids[name]!);
      const response = await opened.world.dispatch({ host: 'api.twilio.com', method: 'POST', target: path.startsWith('/') ? path : `/2010-04-01/Accounts/${credential.account_sid}/${path}`, body: new TextEncoder().encode(form),
        headers: [['Authorization', `Basic ${Buffer.from(`${credential.api_key}:${credential.api_secret}`).toString('base64')}`], ['Content-Type', 'application/x-www-form-urlencoded']] });
      t.true(response.status < 300, `${id}: ${response.status} ${new TextDecoder().decode(response.body)}`);
      const result = await gradeWorld(opened, { agent: 'near-miss', answer: manifest.oracle.answer, output: '', exit: { code: 0, signal: null }, interrupted: false });
      t.is(result.reward, 0, id);
    } finally {
      await opened.world.journal.close();
    }
  }
});
