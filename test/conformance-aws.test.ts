import test from 'ava';
import { scenarioOf, sweepTools } from '../catalog/sweep.js';
import { FAULT_KINDS, FaultRuleSchema, type FaultKind } from '../mocks/core/fault-plan.js';
import { genericFaultResponse } from '../mocks/core/faults.js';
import type { JournalEntry } from '../mocks/core/journal-format.js';
import { MemoryJournal } from '../mocks/core/journal.js';
import { World } from '../mocks/core/world.js';
import { sweep } from '../mocks/aws/conformance.js';
import { signRequest } from '../mocks/aws/sigv4.js';
import { volatileProblems } from '../scenarios/grade/state.js';
import { prepareWorld } from './helpers/prepare-world.js';
import { testCaDir } from './helpers/proxy.js';
import { prng } from './helpers/reliability.js';

// AWS through the checks of the shared conformance suite (test/helpers/conformance.ts), written
// out here because AWS answers errors in XML as well as JSON and every request must be SigV4-signed
// (the shared suite sends fixed headers and parses JSON errors): two fresh worlds answer a
// generated, signed request sequence over all seven services byte for byte alike; another seed
// changes only seeded values; every fault kind answers in each protocol's own error shape; an
// unknown operation is each protocol's error; volatile fields exist; and all 38 tools of
// toolbench's AWS MCP server succeed through the AWS SDK against the mock.

const KEY = 'AKIACONFORMANCE00001';
const SECRET = 'conformanceSecret/0123456789ABCDEFabcdef';
const AMZ_DATE = '20250602T090000Z';

interface Req { host: string; method: string; target: string; body?: string; headers?: [string, string][]; service: string; sign?: 'ok' | 'bad' | 'none' }

const form = (action: string, version: string, extra: Record<string, string> = {}) => new URLSearchParams({ Action: action, Version: version, ...extra }).toString();
const FORM: [string, string][] = [['Content-Type', 'application/x-www-form-urlencoded; charset=utf-8']];
const target = (prefix: string, op: string, json: string): [string, string][] => [['X-Amz-Target', `${prefix}.${op}`], ['Content-Type', `application/x-amz-json-${json}`]];

function sequence(random: () => number): Req[] {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const makers: (() => Req)[] = [
    () => ({ service: 's3', host: 's3.us-east-1.amazonaws.com', method: 'GET', target: '/' }),
    () => ({ service: 's3', host: `${pick(['acme-web-assets', 'acme-invoices', 'acme-nope'])}.s3.us-east-1.amazonaws.com`, method: 'GET', target: `/?list-type=2&prefix=${pick(['', 'img%2F', 'css%2F'])}&max-keys=${1 + Math.floor(random() * 3)}` }),
    () => ({ service: 's3', host: 's3.us-east-1.amazonaws.com', method: 'GET', target: `/${pick(['acme-web-assets', 'acme-invoices'])}?${pick(['policy', 'acl', 'tagging', 'publicAccessBlock', 'location'])}` }),
    () => ({ service: 's3', host: 'acme-logs-archive.s3.us-east-1.amazonaws.com', method: 'PUT', target: `/gen/${Math.floor(random() * 5)}.txt`, body: `body ${random()}`, headers: [['Content-Type', 'text/plain']] }),
    () => ({ service: 's3', host: 'acme-web-assets.s3.us-east-1.amazonaws.com', method: 'GET', target: `/${pick(['index.html', 'img/logo.svg', 'missing.txt'])}` }),
    () => ({ service: 'sts', host: 'sts.us-east-1.amazonaws.com', method: 'POST', target: '/', body: form('GetCallerIdentity', '2011-06-15'), headers: FORM }),
    () => ({ service: 'iam', host: 'iam.amazonaws.com', method: 'POST', target: '/', body: form(pick(['ListUsers', 'ListRoles']), '2010-05-08', { MaxItems: String(1 + Math.floor(random() * 3)) }), headers: FORM }),
    () => ({ service: 'iam', host: 'iam.amazonaws.com', method: 'POST', target: '/', body: form('ListAttachedRolePolicies', '2010-05-08', { RoleName: pick(['orders-api-lambda', 'ec2-ssm-instance', 'nope']) }), headers: FORM }),
    () => ({ service: 'ec2', host: 'ec2.us-east-1.amazonaws.com', method: 'POST', target: '/', body: form('DescribeInstances', '2016-11-15', { 'Filter.1.Name': 'instance-state-name', 'Filter.1.Value.1': pick(['running', 'stopped']) }), headers: FORM }),
    () => ({ service: 'ec2', host: 'ec2.us-east-1.amazonaws.com', method: 'POST', target: '/', body: form(pick(['StopInstances', 'StartInstances']), '2016-11-15', { 'InstanceId.1': pick(['i-0abc1234def567801', 'i-0abc1234def567803', 'i-00000000000000bad']) }), headers: FORM }),
    () => ({ service: 'ec2', host: 'ec2.us-east-1.amazonaws.com', method: 'POST', target: '/', body: form('DescribeSecurityGroups', '2016-11-15'), headers: FORM }),
    () => ({ service: 'lambda', host: 'lambda.us-east-1.amazonaws.com', method: 'GET', target: pick(['/2015-03-31/functions', '/2015-03-31/functions/orders-api', '/2015-03-31/functions/nope']) }),
    () => ({ service: 'lambda', host: 'lambda.us-east-1.amazonaws.com', method: 'POST', target: '/2015-03-31/functions/orders-api/invocations', body: JSON.stringify({ orderId: pick(['o-1', 'missing']) }), headers: [['Content-Type', 'application/json']] }),
    () => ({ service: 'lambda', host: 'lambda.us-east-1.amazonaws.com', method: 'PUT', target: '/2015-03-31/functions/thumbnailer/configuration', body: JSON.stringify({ Timeout: 1 + Math.floor(random() * 60) }), headers: [['Content-Type', 'application/json']] }),
    () => ({ service: 'logs', host: 'logs.us-east-1.amazonaws.com', method: 'POST', target: '/', body: JSON.stringify({ logGroupName: pick(['/aws/lambda/orders-api', '/ecs/web', '/nope']), filterPattern: pick(['ERROR', '', '?GET ?START']) }), headers: target('Logs_20140328', 'FilterLogEvents', '1.1') }),
    () => ({ service: 'logs', host: 'logs.us-east-1.amazonaws.com', method: 'POST', target: '/', body: JSON.stringify({ limit: 1 + Math.floor(random() * 3) }), headers: target('Logs_20140328', 'DescribeLogGroups', '1.1') }),
    () => ({ service: 'dynamodb', host: 'dynamodb.us-east-1.amazonaws.com', method: 'POST', target: '/', body: JSON.stringify({ TableName: pick(['orders', 'sessions', 'nope']) }), headers: target('DynamoDB_20120810', 'DescribeTable', '1.0') }),
    () => ({ service: 'dynamodb', host: 'dynamodb.us-east-1.amazonaws.com', method: 'POST', target: '/', body: JSON.stringify({ TableName: 'sessions', Item: { sessionId: { S: `s-${Math.floor(random() * 4)}` }, user: { S: 'gen' } } }), headers: target('DynamoDB_20120810', 'PutItem', '1.0') }),
    () => ({ service: 'dynamodb', host: 'dynamodb.us-east-1.amazonaws.com', method: 'POST', target: '/', body: JSON.stringify({ TableName: 'orders', Limit: 1 + Math.floor(random() * 3) }), headers: target('DynamoDB_20120810', 'Scan', '1.0') }),
    () => ({ service: 'sts', host: 'sts.us-east-1.amazonaws.com', method: 'POST', target: '/', body: form('GetCallerIdentity', '2011-06-15'), headers: FORM, sign: pick(['bad', 'none'] as const) }),
  ];
  return Array.from({ length: 120 }, () => pick(makers)());
}

const prepared = new Map<number, ReturnType<typeof prepareWorld>>();
function worldFor(seed: number, faults?: World['config']['faults']): World {
  let ready = prepared.get(seed);
  if (!ready) prepared.set(seed, ready = prepareWorld({ scenarioDir: scenarioOf(sweep), seed }));
  const { header, services } = ready;
  return new World({ seed, epochMs: Date.parse(header.epoch), tickMs: header.tickMs, services, journal: new MemoryJournal(header), ...(faults ? { faults } : {}) });
}

function send(world: World, r: Req): JournalEntry {
  const body = new TextEncoder().encode(r.body ?? '');
  const base: [string, string][] = [['Host', r.host], ...(r.headers ?? [])];
  const signed = r.sign === 'none' ? base : signRequest({ method: r.method, target: r.target, headers: base, body, keyId: KEY, secret: r.sign === 'bad' ? 'wrong-secret-0123456789' : SECRET, region: 'us-east-1', service: r.service, amzDate: AMZ_DATE });
  return world.process({ host: r.host, method: r.method, target: r.target, headers: signed, body });
}

const text = (e: JournalEntry) => new TextDecoder().decode(e.response.body);
const same = (a: JournalEntry, b: JournalEntry) => a.response.status === b.response.status && JSON.stringify(a.response.headers) === JSON.stringify(b.response.headers) && text(a) === text(b);
const requests = sequence(prng(42));
let runA: JournalEntry[] | null = null;
const run = (seed: number) => {
  const world = worldFor(seed);
  return requests.map((r) => send(world, r));
};

/** Each protocol's error shape, checked on the raw body. */
function errorShapeProblem(service: string, e: JournalEntry): string | null {
  const body = text(e);
  const xml = (re: RegExp) => (re.test(body) ? null : `${service}: ${body.slice(0, 160)}`);
  switch (service) {
    case 's3': return xml(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<Error><Code>[A-Za-z]+<\/Code><Message>[^<]+<\/Message>.*<RequestId>[0-9A-F]{16}<\/RequestId><HostId>[^<]+<\/HostId><\/Error>$/s);
    case 'ec2': return xml(/^<\?xml[^>]*>\n<Response><Errors><Error><Code>[A-Za-z.]+<\/Code><Message>[^<]+<\/Message><\/Error><\/Errors><RequestID>[0-9a-f-]{36}<\/RequestID><\/Response>$/);
    case 'iam': case 'sts': return xml(/^<\?xml[^>]*>\n<ErrorResponse xmlns="https:\/\/(iam|sts)\.amazonaws\.com\/doc\/[0-9-]+\/"><Error><Type>(Sender|Receiver)<\/Type><Code>[A-Za-z.]+<\/Code><Message>[^<]+<\/Message><\/Error><RequestId>[0-9a-f-]{36}<\/RequestId><\/ErrorResponse>$/);
    case 'lambda': {
      const json = JSON.parse(body) as Record<string, unknown>;
      const type = e.response.headers.find(([k]) => k.toLowerCase() === 'x-amzn-errortype')?.[1];
      return typeof json.message === 'string' && (json.Type === 'User' || json.Type === 'Service') && type ? null : `lambda: ${body}`;
    }
    default: {
      const json = JSON.parse(body) as Record<string, unknown>;
      return typeof json.__type === 'string' && typeof json.message === 'string' && Object.keys(json).length === 2 ? null : `${service}: ${body}`;
    }
  }
}

test('aws conformance: two fresh worlds answer 120 signed requests over seven services byte for byte alike', (t) => {
  const a = runA ??= run(42);
  const b = run(42);
  for (let i = 0; i < a.length; i++) if (!same(a[i]!, b[i]!)) return void t.fail(`answer ${i} (${a[i]!.host} ${a[i]!.method} ${a[i]!.target}) differs`);
  t.true(a.every((e) => e.operation !== null), 'every generated request reaches an operation');
  t.true(a.some((e) => e.method !== 'GET' && e.response.status < 300), 'some writes succeed');
  t.true(a.some((e) => e.response.status >= 400), 'the sequence includes errors');
  for (const [i, e] of a.entries()) {
    if (e.response.status < 400) continue;
    const problem = errorShapeProblem(requests[i]!.service, e);
    if (problem) return void t.fail(`error ${i} is not in its protocol's shape: ${problem}`);
  }
});

test('aws conformance: another seed changes only seeded ids (request ids, principal ids, revisions)', (t) => {
  const a = runA ??= run(42);
  const b = run(43);
  const mask = (s: string) => s
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'UUID').replace(/\b[0-9A-F]{16}\b/g, 'S3REQ').replace(/\b(AIDA|AROA)[0-9A-Z]{17}\b/g, '$1X')
    .replace(/"eventId":"\d{56}"/g, '"eventId":"E"').replace(/\/\[\$LATEST\][0-9a-f]{32}/g, '/[$LATEST]S').replace(/\br-[0-9a-f]{17}\b/g, 'r-X').replace(/"uploadSequenceToken":"\d+"/g, '"uploadSequenceToken":"T"')
    .replace(/<HostId>[^<]+<\/HostId>/g, '<HostId/>').replace(/<ID>[0-9a-f]{64}<\/ID>/g, '<ID/>').replace(/snapshots\/\d+\/[^"]+/g, 'snapshots/X');
  let differ = 0;
  for (let i = 0; i < a.length; i++) {
    t.is(a[i]!.response.status, b[i]!.response.status, `status ${i}`);
    const x = mask(text(a[i]!));
    const y = mask(text(b[i]!));
    if (x !== y) return void t.is(y, x, `answer ${i} (${a[i]!.target}) differs beyond seeded values`);
    if (!same(a[i]!, b[i]!)) differ++;
  }
  t.true(differ > 0);
});

test('aws conformance: faults answer in each protocol\'s own error shape (SlowDown, ThrottlingException, …); unknown operations too', (t) => {
  const probes: Req[] = [
    { service: 's3', host: 'acme-web-assets.s3.us-east-1.amazonaws.com', method: 'GET', target: '/?list-type=2' },
    { service: 'ec2', host: 'ec2.us-east-1.amazonaws.com', method: 'POST', target: '/', body: form('DescribeInstances', '2016-11-15'), headers: FORM },
    { service: 'iam', host: 'iam.amazonaws.com', method: 'POST', target: '/', body: form('ListUsers', '2010-05-08'), headers: FORM },
    { service: 'lambda', host: 'lambda.us-east-1.amazonaws.com', method: 'GET', target: '/2015-03-31/functions' },
    { service: 'logs', host: 'logs.us-east-1.amazonaws.com', method: 'POST', target: '/', body: '{}', headers: target('Logs_20140328', 'DescribeLogGroups', '1.1') },
    { service: 'dynamodb', host: 'dynamodb.us-east-1.amazonaws.com', method: 'POST', target: '/', body: '{}', headers: target('DynamoDB_20120810', 'ListTables', '1.0') },
  ];
  const throttled: Record<string, [number, string]> = {
    s3: [503, 'SlowDown'], ec2: [503, 'RequestLimitExceeded'], iam: [400, 'Throttling'], lambda: [429, 'TooManyRequestsException'], logs: [400, 'ThrottlingException'], dynamodb: [400, 'com.amazonaws.dynamodb.v20120810#ThrottlingException'],
  };
  for (const probe of probes) {
    for (const kind of FAULT_KINDS) {
      const rule = FaultRuleSchema.parse({ service: 'aws', kind, nth: [1], ...(kind === '429' || kind === '503' ? { retry_after: 2 } : {}) });
      const entry = send(worldFor(42, { chaos: 'none', rules: [rule] }), probe);
      t.is(entry.fault?.kind, kind);
      t.is(errorShapeProblem(probe.service, entry), null, `${probe.service} fault ${kind}`);
      const generic = genericFaultResponse({ kind: kind as FaultKind, retryAfter: 2 });
      t.not(text(entry), new TextDecoder().decode(generic.body), `${probe.service} ${kind} is AWS's own`);
      if (kind === '429') {
        const [status, code] = throttled[probe.service]!;
        t.is(entry.response.status, status, `${probe.service} throttling status`);
        t.true(text(entry).includes(code) || entry.response.headers.some(([, v]) => v === code), `${probe.service} throttling is ${code}: ${text(entry)}`);
      }
    }
  }
  const unknown: [Req, RegExp][] = [
    [{ service: 'ec2', host: 'ec2.us-east-1.amazonaws.com', method: 'POST', target: '/', body: form('RunScheduledInstances', '2016-11-15'), headers: FORM }, /InvalidAction/],
    [{ service: 'dynamodb', host: 'dynamodb.us-east-1.amazonaws.com', method: 'POST', target: '/', body: '{}', headers: target('DynamoDB_20120810', 'RestoreTableToPointInTime', '1.0') }, /UnknownOperationException/],
    [{ service: 'lambda', host: 'lambda.us-east-1.amazonaws.com', method: 'GET', target: '/2015-03-31/layers' }, /not recognized/],
    [{ service: 's3', host: 'acme-web-assets.s3.us-east-1.amazonaws.com', method: 'POST', target: '/?uploads' }, /MethodNotAllowed/],
  ];
  for (const [probe, want] of unknown) {
    const entry = send(worldFor(42), probe);
    t.is(entry.operation, null);
    t.true(entry.response.status >= 400);
    t.regex(text(entry), want);
    t.is(errorShapeProblem(probe.service, entry), null);
  }
});

test('aws conformance: declared volatile fields exist in the loaded state and after the sequence', (t) => {
  const world = worldFor(42);
  const volatile = world.definition('aws')!.volatile ?? {};
  const initial = world.gradingState('initial').aws ?? {};
  for (const r of requests) send(world, r);
  const after = world.gradingState('now').aws ?? {};
  t.deepEqual(volatileProblems({ aws: volatile }, [{ aws: initial }, { aws: after }], { strict: true }), []);
});

test('aws conformance: all 38 tools of toolbench\'s AWS MCP server succeed through the AWS SDK against the mock', async (t) => {
  t.timeout(5 * 60_000);
  const result = await sweepTools({ service: 'aws', profile: sweep, caDir: testCaDir() });
  t.deepEqual(result.unsnapshotted, []);
  t.is(result.outcomes.length, 38);
  const failed = result.outcomes.filter((o) => o.isError || o.transportError !== null).map((o) => `${o.tool}: ${o.text.slice(0, 300)}`);
  t.deepEqual(failed, []);
  for (const o of result.outcomes) {
    t.true(o.entries.length > 0, `${o.tool} made a world request`);
    for (const e of o.entries) {
      t.not(e.operation, null, `${o.tool}: ${e.method} ${e.host}${e.target} reached an operation`);
      t.true(e.response.status < 400, `${o.tool}: ${e.method} ${e.target} answered ${e.response.status}`);
    }
  }
});
