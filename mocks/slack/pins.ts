import { z } from 'zod';
import { slackError, slackOk } from '../kit/envelopes/slack.js';
import type { Operation } from '../kit/operation.js';
import { visibleChannel } from './conversations.js';
import { reactedMessage } from './messages.js';
import { arg, method, type SlackCtx } from './method.js';
import { messageKey } from './model.js';
import { compareTs, renderMessage } from './render.js';

/** pins.add, pins.list, pins.remove: messages pinned to their channel (files are not modelled). */

const PinArgs = z.object({ channel: arg.id(), timestamp: z.string().optional() });

const add = method('pins.add', { args: PinArgs, accepted: ['pins:write'], needs: () => ['pins:write'] }, ({ args, caller, c }) => {
  if (!args.timestamp) throw slackError('no_item_specified');
  const message = reactedMessage(c, caller, args.channel, args.timestamp);
  const key = messageKey(message.channel, message.ts);
  if (c.db.pins.get(key)) throw slackError('already_pinned');
  c.db.pins.put(key, { channel: message.channel, ts: message.ts, created_by: caller.id, created: Math.floor(c.ctx.nowMs / 1000) });
  return slackOk();
});

const remove = method('pins.remove', { args: PinArgs, accepted: ['pins:write'], needs: () => ['pins:write'] }, ({ args, caller, c }) => {
  if (!args.timestamp) throw slackError('no_item_specified');
  const message = reactedMessage(c, caller, args.channel, args.timestamp);
  const key = messageKey(message.channel, message.ts);
  if (!c.db.pins.get(key)) throw slackError('not_pinned');
  c.db.pins.delete(key);
  return slackOk();
});

/** The channel's pinned messages, the latest pin first. */
const list = method('pins.list', { args: z.object({ channel: arg.id() }), accepted: ['pins:read'], needs: () => ['pins:read'] }, ({ args, caller, c }) => {
  const channel = visibleChannel(c, caller, args.channel);
  const pins = c.db.pins.filter((pin) => pin.channel === channel.id)
    .sort((a, b) => b.created - a.created || compareTs(b.ts, a.ts));
  return slackOk({
    items: pins.map((pin) => ({
      type: 'message', channel: pin.channel, created: pin.created, created_by: pin.created_by,
      message: renderMessage(c.db, c.db.messages.get(messageKey(pin.channel, pin.ts))!, c.team),
    })),
  });
});

export const pinOperations: Operation<SlackCtx>[] = [add, list, remove];
