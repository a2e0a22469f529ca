import { z } from 'zod';
import { slackError, slackOk } from '../kit/envelopes/slack.js';
import { slackStyleId } from '../kit/ids.js';
import type { Operation } from '../kit/operation.js';
import { method, type SlackCtx } from './method.js';
import type { ReminderDoc } from './model.js';

/** reminders.add, .list, .info, .complete, .delete: one-off reminders for the caller. */

const UNITS: Record<string, number> = { second: 1, minute: 60, hour: 3600, day: 86_400, week: 604_800 };

/**
 * When a reminder fires, in seconds: a Unix timestamp, seconds from now (up to a day, as Slack
 * reads a small number), "in N minutes" (hours, days, weeks) or "tomorrow"; else `cannot_parse`.
 * Recurring phrasings ("every Monday") are not modelled and are `cannot_parse` too.
 */
function fireTime(text: string, nowSeconds: number): number {
  const spec = text.trim().toLowerCase();
  if (/^\d+$/.test(spec)) return Number(spec) <= 86_400 ? nowSeconds + Number(spec) : Number(spec);
  if (spec === 'tomorrow') return nowSeconds + UNITS.day!;
  const relative = /^in (\d+|an?) (second|minute|hour|day|week)s?$/.exec(spec);
  if (relative) return nowSeconds + (/^\d+$/.test(relative[1]!) ? Number(relative[1]) : 1) * UNITS[relative[2]!]!;
  throw slackError('cannot_parse');
}

const render = (reminder: ReminderDoc) => ({ ...reminder });

const add = method('reminders.add', {
  args: z.object({ text: z.string().min(1), time: z.union([z.string(), z.number().transform(String)]).pipe(z.string().min(1)), user: z.string().optional() }),
  accepted: ['reminders:write'],
  needs: () => ['reminders:write'],
}, ({ args, caller, c }) => {
  const user = args.user ? c.db.users.get(args.user) : caller;
  if (!user || user.deleted) throw slackError('user_not_found');
  if (user.is_bot) throw slackError('cannot_add_bot');
  if (user.id !== caller.id) throw slackError('cannot_add_others');
  const now = Math.floor(c.ctx.nowMs / 1000);
  const id = slackStyleId(c.ctx, 'Rm', 'reminder');
  const reminder = c.db.reminders.put(id, { id, creator: caller.id, user: user.id, text: args.text, time: fireTime(args.time, now), recurring: false, complete_ts: 0 });
  return slackOk({ reminder: render(reminder) });
});

/** The caller's reminders (made by or for them), the soonest first. */
const list = method('reminders.list', { args: z.object({ team_id: z.string().optional() }), accepted: ['reminders:read'], needs: () => ['reminders:read'] }, ({ caller, c }) => {
  const mine = c.db.reminders.filter((r) => r.user === caller.id || r.creator === caller.id).sort((a, b) => a.time - b.time || (a.id < b.id ? -1 : 1));
  return slackOk({ reminders: mine.map(render) });
});

/** A reminder of the caller's, else `not_found`. */
function ownReminder(c: SlackCtx, callerId: string, id: string): ReminderDoc {
  const reminder = c.db.reminders.get(id);
  if (!reminder || (reminder.user !== callerId && reminder.creator !== callerId)) throw slackError('not_found');
  return reminder;
}

const ReminderArgs = z.object({ reminder: z.string().min(1), team_id: z.string().optional() });

const info = method('reminders.info', { args: ReminderArgs, accepted: ['reminders:read'], needs: () => ['reminders:read'] }, ({ args, caller, c }) =>
  slackOk({ reminder: render(ownReminder(c, caller.id, args.reminder)) }));

const complete = method('reminders.complete', { args: ReminderArgs, accepted: ['reminders:write'], needs: () => ['reminders:write'] }, ({ args, caller, c }) => {
  const reminder = ownReminder(c, caller.id, args.reminder);
  if (reminder.user !== caller.id) throw slackError('cannot_complete_others');
  c.db.reminders.put(reminder.id, { ...reminder, complete_ts: Math.floor(c.ctx.nowMs / 1000) });
  return slackOk();
});

const remove = method('reminders.delete', { args: ReminderArgs, accepted: ['reminders:write'], needs: () => ['reminders:write'] }, ({ args, caller, c }) => {
  c.db.reminders.delete(ownReminder(c, caller.id, args.reminder).id);
  return slackOk();
});

export const reminderOperations: Operation<SlackCtx>[] = [add, list, info, complete, remove];
