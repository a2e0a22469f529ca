import { action, type Operation } from '../kit/operation.js';
import { accountOf, awsError, jsonOut, type AwsCtx, type LogEvent, type LogGroupDoc, type LogStreamDoc } from './model.js';

/**
 * Amazon CloudWatch Logs (JSON 1.1, `X-Amz-Target: Logs_20140328.<Op>`): log groups, streams and
 * events; FilterLogEvents with CloudWatch's term filter patterns (terms, "quoted phrases", `?any`).
 */

export const streamKey = (group: string, stream: string) => `${group}|${stream}`;

/** Appends lines to a stream (creating group and stream as Lambda's runtime does), at the logical time. */
export function appendLog(c: AwsCtx, group: string, stream: string, lines: string[]): void {
  if (!c.db.log_groups.has(group)) {
    c.db.log_groups.put(group, { name: group, arn: groupArn(c, group), created: new Date(c.ctx.nowMs).toISOString(), retention_days: null });
  }
  const key = streamKey(group, stream);
  const existing = c.db.log_streams.get(key) ?? { group, name: stream, created: c.ctx.nowMs, events: [] };
  const events: LogEvent[] = lines.map((message, i) => ({
    timestamp: c.ctx.nowMs + i, ingestion: c.ctx.nowMs + i + 40, message,
    event_id: eventId(c.ctx.nowMs + i, `${key}/${existing.events.length + i}`, c),
  }));
  c.db.log_streams.put(key, { ...existing, events: [...existing.events, ...events] });
}

function eventId(ts: number, salt: string, c: Pick<AwsCtx, 'ctx'>): string {
  // CloudWatch's event ids are 56 decimal digits that sort by time.
  const tail = BigInt(`0x${c.ctx.ids.opaque('event', salt, 24)}`).toString().padStart(30, '0').slice(0, 30);
  return `${String(ts).padStart(26, '0')}${tail}`;
}

export const groupArn = (c: Pick<AwsCtx, 'db' | 'target'>, name: string) => `arn:aws:logs:${c.target.region}:${accountOf(c.db).account_id}:log-group:${name}`;

function body(call: { decoded: { kind: string; value: unknown } }): Record<string, unknown> {
  const value = call.decoded.value;
  if (value === undefined) return {};
  if (call.decoded.kind !== 'json' || value === null || typeof value !== 'object' || Array.isArray(value)) throw awsError(400, 'SerializationException', 'Start of structure or map found where not expected.');
  return value as Record<string, unknown>;
}

export function jsonOp(service: 'logs' | 'dynamodb', name: string, handle: (b: Record<string, unknown>, c: AwsCtx) => unknown): Operation<AwsCtx> {
  return { name: `${service}.${name}`, matcher: action(name, `/_${service}/`), handle: (call, c: AwsCtx) => jsonOut(200, handle(body(call), c), c) };
}

function groupOf(c: AwsCtx, b: Record<string, unknown>): LogGroupDoc {
  const ref = String(b.logGroupName ?? b.logGroupIdentifier ?? '');
  const name = ref.startsWith('arn:') ? ref.split(':log-group:')[1]!.replace(/:\*$/, '') : ref;
  if (name === '') throw awsError(400, 'InvalidParameterException', 'Either logGroupName or logGroupIdentifier must be specified.');
  const group = c.db.log_groups.get(name);
  if (!group) throw awsError(400, 'ResourceNotFoundException', 'The specified log group does not exist.');
  return group;
}

const streamsOf = (c: AwsCtx, group: string) => c.db.log_streams.filter((s) => s.group === group);

/** A term filter pattern: every term (or "phrase") must occur; `?a ?b` any of them; empty matches all. */
export function matchesPattern(message: string, pattern: string | undefined): boolean {
  if (!pattern || pattern.trim() === '') return true;
  const terms = [...pattern.matchAll(/(\??)(?:"([^"]*)"|(\S+))/g)].map((m) => ({ any: m[1] === '?', text: m[2] ?? m[3]! }));
  const optional = terms.filter((t) => t.any);
  const required = terms.filter((t) => !t.any);
  if (required.some((t) => t.text.startsWith('-') ? message.includes(t.text.slice(1)) : !message.includes(t.text))) return false;
  return optional.length === 0 || optional.some((t) => message.includes(t.text));
}

const streamOut = (c: AwsCtx, s: LogStreamDoc) => ({
  logStreamName: s.name, creationTime: s.created,
  ...(s.events.length > 0 ? { firstEventTimestamp: s.events[0]!.timestamp, lastEventTimestamp: s.events.at(-1)!.timestamp, lastIngestionTime: s.events.at(-1)!.ingestion } : {}),
  uploadSequenceToken: c.ctx.ids.opaque('upload', streamKey(s.group, s.name), 20).replace(/[a-f]/g, (ch) => String(ch.charCodeAt(0) % 10)),
  arn: `${groupArn(c, s.group)}:log-stream:${s.name}`, storedBytes: 0,
});

const limitOf = (b: Record<string, unknown>, max: number): number => {
  const limit = b.limit === undefined ? max : Number(b.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > max) throw awsError(400, 'InvalidParameterException', `1 validation error detected: Value '${String(b.limit)}' at 'limit' failed to satisfy constraint: Member must have value less than or equal to ${max}`);
  return limit;
};

export const logsOperations: Operation<AwsCtx>[] = [
  jsonOp('logs', 'DescribeLogGroups', (b, c) => {
    const prefix = String(b.logGroupNamePrefix ?? '');
    const pattern = b.logGroupNamePattern === undefined ? null : String(b.logGroupNamePattern);
    const all = c.db.log_groups.values().filter((g) => g.name.startsWith(prefix) && (pattern === null || g.name.includes(pattern))).sort((a, b2) => (a.name < b2.name ? -1 : 1));
    const limit = limitOf(b, 50);
    const start = Number(b.nextToken ?? 0) || 0;
    const page = all.slice(start, start + limit);
    return {
      logGroups: page.map((g) => ({
        logGroupName: g.name, creationTime: Date.parse(g.created), ...(g.retention_days === null ? {} : { retentionInDays: g.retention_days }),
        metricFilterCount: 0, arn: `${g.arn}:*`, storedBytes: streamsOf(c, g.name).reduce((n, s) => n + s.events.reduce((m, e) => m + e.message.length, 0), 0),
        logGroupClass: 'STANDARD', logGroupArn: g.arn,
      })),
      ...(start + limit < all.length ? { nextToken: String(start + limit) } : {}),
    };
  }),
  jsonOp('logs', 'DescribeLogStreams', (b, c) => {
    const group = groupOf(c, b);
    const prefix = String(b.logStreamNamePrefix ?? '');
    let all = streamsOf(c, group.name).filter((s) => s.name.startsWith(prefix));
    all = b.orderBy === 'LastEventTime'
      ? all.sort((x, y) => (x.events.at(-1)?.timestamp ?? 0) - (y.events.at(-1)?.timestamp ?? 0))
      : all.sort((x, y) => (x.name < y.name ? -1 : 1));
    if (b.descending === true) all.reverse();
    const limit = limitOf(b, 50);
    const start = Number(b.nextToken ?? 0) || 0;
    return { logStreams: all.slice(start, start + limit).map((s) => streamOut(c, s)), ...(start + limit < all.length ? { nextToken: String(start + limit) } : {}) };
  }),
  jsonOp('logs', 'FilterLogEvents', (b, c) => {
    const group = groupOf(c, b);
    const names = Array.isArray(b.logStreamNames) ? b.logStreamNames.map(String) : null;
    const prefix = b.logStreamNamePrefix === undefined ? '' : String(b.logStreamNamePrefix);
    const from = b.startTime === undefined ? -Infinity : Number(b.startTime);
    const to = b.endTime === undefined ? Infinity : Number(b.endTime);
    const pattern = b.filterPattern === undefined ? undefined : String(b.filterPattern);
    const streams = streamsOf(c, group.name).filter((s) => (names === null || names.includes(s.name)) && s.name.startsWith(prefix));
    const events = streams.flatMap((s) => s.events.filter((e) => e.timestamp >= from && e.timestamp < to && matchesPattern(e.message, pattern)).map((e) => ({ s, e })))
      .sort((x, y) => x.e.timestamp - y.e.timestamp || (x.e.event_id < y.e.event_id ? -1 : 1));
    const limit = limitOf(b, 10000);
    const start = Number(b.nextToken ?? 0) || 0;
    return {
      events: events.slice(start, start + limit).map(({ s, e }) => ({ logStreamName: s.name, timestamp: e.timestamp, message: e.message, ingestionTime: e.ingestion, eventId: e.event_id })),
      searchedLogStreams: [],
      ...(start + limit < events.length ? { nextToken: String(start + limit) } : {}),
    };
  }),
  jsonOp('logs', 'GetLogEvents', (b, c) => {
    const group = groupOf(c, b);
    const stream = c.db.log_streams.get(streamKey(group.name, String(b.logStreamName ?? '')));
    if (!stream) throw awsError(400, 'ResourceNotFoundException', 'The specified log stream does not exist.');
    const from = b.startTime === undefined ? -Infinity : Number(b.startTime);
    const to = b.endTime === undefined ? Infinity : Number(b.endTime);
    const all = stream.events.filter((e) => e.timestamp >= from && e.timestamp < to);
    const limit = limitOf(b, 10000);
    const token = typeof b.nextToken === 'string' ? b.nextToken : null;
    const fromHead = b.startFromHead === true;
    // Tokens are `f/<index>` and `b/<index>`, zero-padded to 56 digits as CloudWatch's look.
    let start: number;
    if (token?.startsWith('f/')) start = Number(token.slice(2));
    else if (token?.startsWith('b/')) start = Math.max(0, Number(token.slice(2)) - limit);
    else start = fromHead ? 0 : Math.max(0, all.length - limit);
    const page = all.slice(start, start + limit);
    const pad = (n: number) => String(n).padStart(56, '0');
    return {
      events: page.map((e) => ({ timestamp: e.timestamp, message: e.message, ingestionTime: e.ingestion })),
      nextForwardToken: `f/${pad(start + page.length)}`, nextBackwardToken: `b/${pad(start)}`,
    };
  }),
];
