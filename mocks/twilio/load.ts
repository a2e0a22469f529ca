import { ToolbenchError } from '../core/errors.js';
import type { LoadContext } from '../core/service.js';
import { makeAccount } from './accounts.js';
import { makeCall } from './calls.js';
import type { TwilioDataset } from './dataset.js';
import { twilioTail } from './fallback.js';
import { makeMessage } from './messages.js';
import { dbOf } from './model.js';
import { makeNumber } from './numbers.js';

/** Loads the dataset: every record built as the API would have answered it. */
export function loadTwilio(data: TwilioDataset, ctx: LoadContext): void {
  const db = dbOf(ctx.store);
  const fail = (where: string, message: string): never => { throw new ToolbenchError('TB_ERR_DATASET', `dataset/twilio.json: field ${where}: ${message}`); };
  // Records without a time are a minute apart, the last one an hour before the epoch.
  const total = 1 + data.subaccounts.length + data.incoming_phone_numbers.length + data.messages.length + data.calls.length;
  let k = 0;
  const time = (t: string | undefined) => { k += 1; return t === undefined ? ctx.epochMs - 3_600_000 - (total - k) * 60_000 : Date.parse(t); };
  const main = data.account;
  makeAccount(ctx, { ...main, owner: null, createdMs: time(main.date_created) });
  for (const key of main.api_keys) db.keys.put(key.sid, { ...key, account_sid: main.sid });
  data.subaccounts.forEach((sub, i) => {
    if (sub.sid !== undefined && db.accounts.has(sub.sid)) fail(`subaccounts[${i}].sid`, `${sub.sid} is used twice`);
    const account = makeAccount(ctx, { ...sub, type: main.type, owner: main.sid, createdMs: time(sub.date_created) });
    for (const key of sub.api_keys) db.keys.put(key.sid, { ...key, account_sid: account.sid });
  });
  const accountOf = (sid: string | undefined, where: string) => {
    const chosen = sid ?? main.sid;
    if (!db.accounts.has(chosen)) fail(where, `no account ${chosen} in the dataset`);
    return chosen;
  };
  data.incoming_phone_numbers.forEach((n, i) => {
    if (db.incoming_phone_numbers.values().some((other) => other.phone_number === n.phone_number)) fail(`incoming_phone_numbers[${i}].phone_number`, `${n.phone_number} is listed twice`);
    makeNumber(ctx, { ...n, account_sid: accountOf(n.account_sid, `incoming_phone_numbers[${i}].account_sid`), createdMs: time(n.date_created) });
  });
  data.messages.forEach((m, i) => {
    if (m.sid !== undefined && db.messages.has(m.sid)) fail(`messages[${i}].sid`, `${m.sid} is used twice`);
    const createdMs = time(m.date_created);
    const made = makeMessage(ctx, {
      ...m, from: m.from ?? null, account_sid: accountOf(m.account_sid, `messages[${i}].account_sid`), createdMs,
      sentMs: m.date_sent === undefined ? undefined : Date.parse(m.date_sent),
    });
    if (m.send_at !== undefined) db.messages.put(made.sid, { ...made, send_at: new Date(Date.parse(m.send_at)).toISOString() });
  });
  data.calls.forEach((c, i) => {
    if (c.sid !== undefined && db.calls.has(c.sid)) fail(`calls[${i}].sid`, `${c.sid} is used twice`);
    const account = accountOf(c.account_sid, `calls[${i}].account_sid`);
    const number = db.incoming_phone_numbers.values().find((n) => n.account_sid === account && (n.phone_number === c.from || n.phone_number === c.to));
    makeCall(ctx, { ...c, account_sid: account, phone_number_sid: number?.sid ?? null, createdMs: time(c.date_created) });
  });
  try {
    twilioTail.seedRecords(data.spec, ctx);
  } catch (error) {
    fail('spec', (error as Error).message.replace(/^dataset\/twilio\.json: field spec: /, ''));
  }
}
