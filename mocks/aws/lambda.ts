import { bytes } from '../core/http.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import { accountOf, awsError, baseHeaders, jsonOut, type AwsCtx, type FunctionDoc } from './model.js';
import { appendLog } from './logs.js';

/**
 * AWS Lambda (REST-JSON, 2015-03-31): functions, their configuration, and Invoke, whose answer is
 * the first rule of the function's `invocations` matching the event and the environment
 * (deterministic, from the dataset). Every invocation writes START/…/END/REPORT lines to the
 * function's log group `/aws/lambda/<name>`, as Lambda does, so CloudWatch Logs sees it.
 */

const BASE = '/_lambda/2015-03-31/functions';

export function functionConfiguration(f: FunctionDoc): Record<string, unknown> {
  return {
    FunctionName: f.name, FunctionArn: f.arn, Runtime: f.runtime, Role: f.role, Handler: f.handler, CodeSize: f.code_size,
    Description: f.description, Timeout: f.timeout, MemorySize: f.memory, LastModified: f.last_modified.replace(/Z$/, '+0000'),
    CodeSha256: f.code_sha256, Version: '$LATEST', ...(Object.keys(f.environment).length > 0 ? { Environment: { Variables: f.environment } } : {}),
    TracingConfig: { Mode: 'PassThrough' }, RevisionId: f.revision_id, State: 'Active', LastUpdateStatus: 'Successful', PackageType: 'Zip',
    Architectures: ['x86_64'], EphemeralStorage: { Size: 512 }, SnapStart: { ApplyOn: 'None', OptimizationStatus: 'Off' },
    LoggingConfig: { LogFormat: 'Text', LogGroup: `/aws/lambda/${f.name}` },
  };
}

function functionOf(c: AwsCtx, ref: string): FunctionDoc {
  const name = ref.includes(':function:') ? ref.split(':function:')[1]!.split(':')[0]! : ref.split(':')[0]!;
  const f = c.db.functions.get(name);
  if (!f) throw awsError(404, 'ResourceNotFoundException', `Function not found: arn:aws:lambda:${c.target.region}:${accountOf(c.db).account_id}:function:${name}`);
  return f;
}

/** Whether `subset` is contained in `value` (objects by key, everything else by equality). */
function contains(value: unknown, subset: unknown): boolean {
  if (subset !== null && typeof subset === 'object' && !Array.isArray(subset)) {
    if (value === null || typeof value !== 'object') return false;
    return Object.entries(subset).every(([k, v]) => contains((value as Record<string, unknown>)[k], v));
  }
  return JSON.stringify(value) === JSON.stringify(subset);
}

const revision = (c: AwsCtx, name: string) => {
  const hex = c.ctx.ids.opaque('revision', `${name}/${c.ctx.seq}`, 32);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
};

export const lambdaOperations: Operation<AwsCtx>[] = [
  operation<AwsCtx, '/_lambda/2015-03-31/functions'>('lambda.ListFunctions', rest('GET', BASE), (call, c) => {
    const all = c.db.functions.values().sort((a, b) => a.name.localeCompare(b.name));
    const max = Math.max(1, Math.min(50, Number(call.req.query.get('MaxItems') ?? 50) || 50));
    const start = Number(call.req.query.get('Marker') ?? 0) || 0;
    const page = all.slice(start, start + max);
    return jsonOut(200, { Functions: page.map(functionConfiguration), ...(start + max < all.length ? { NextMarker: String(start + max) } : {}) }, c);
  }),
  operation<AwsCtx, '/_lambda/2015-03-31/functions/:name'>('lambda.GetFunction', rest('GET', `${BASE}/:name`), (call, c) => {
    const f = functionOf(c, call.params.name);
    return jsonOut(200, {
      Configuration: functionConfiguration(f),
      Code: { RepositoryType: 'S3', Location: `https://awslambda-${c.target.region}-tasks.s3.${c.target.region}.amazonaws.com/snapshots/${accountOf(c.db).account_id}/${f.name}-${f.revision_id}` },
      ...(Object.keys(f.tags).length > 0 ? { Tags: f.tags } : {}),
    }, c);
  }),
  operation<AwsCtx, '/_lambda/2015-03-31/functions/:name/configuration'>('lambda.GetFunctionConfiguration', rest('GET', `${BASE}/:name/configuration`), (call, c) => jsonOut(200, functionConfiguration(functionOf(c, call.params.name)), c)),
  operation<AwsCtx, '/_lambda/2015-03-31/functions/:name/configuration'>('lambda.UpdateFunctionConfiguration', rest('PUT', `${BASE}/:name/configuration`), (call, c) => {
    const f = functionOf(c, call.params.name);
    const body = (call.decoded.kind === 'json' ? call.decoded.value : {}) as Record<string, unknown>;
    if (body.RevisionId !== undefined && body.RevisionId !== f.revision_id) throw awsError(412, 'PreconditionFailedException', 'The Revision Id provided does not match the latest Revision Id. Call the GetFunction/GetAlias API to retrieve the latest Revision Id');
    const env = body.Environment as { Variables?: Record<string, string> } | undefined;
    const num = (v: unknown, min: number, max: number, what: string): number | undefined => {
      if (v === undefined) return undefined;
      if (typeof v !== 'number' || v < min || v > max) throw awsError(400, 'InvalidParameterValueException', `${what} must be between ${min} and ${max}`);
      return v;
    };
    const updated: FunctionDoc = {
      ...f,
      ...(typeof body.Description === 'string' ? { description: body.Description } : {}),
      ...(typeof body.Handler === 'string' ? { handler: body.Handler } : {}),
      ...(typeof body.Runtime === 'string' ? { runtime: body.Runtime } : {}),
      ...(typeof body.Role === 'string' ? { role: body.Role } : {}),
      ...(body.Timeout !== undefined ? { timeout: num(body.Timeout, 1, 900, 'Timeout')! } : {}),
      ...(body.MemorySize !== undefined ? { memory: num(body.MemorySize, 128, 10240, 'MemorySize')! } : {}),
      ...(env ? { environment: { ...(env.Variables ?? {}) } } : {}),
      last_modified: new Date(c.ctx.nowMs).toISOString(),
      revision_id: revision(c, f.name),
    };
    c.db.functions.put(f.name, updated);
    return jsonOut(200, functionConfiguration(updated), c);
  }),
  operation<AwsCtx, '/_lambda/2015-03-31/functions/:name/invocations'>('lambda.Invoke', rest('POST', `${BASE}/:name/invocations`), (call, c) => {
    const f = functionOf(c, call.params.name);
    const type = call.req.header('x-amz-invocation-type') ?? 'RequestResponse';
    if (!['RequestResponse', 'Event', 'DryRun'].includes(type)) throw awsError(400, 'InvalidParameterValueException', `Unsupported invocation type ${type}`);
    if (type === 'DryRun') return { status: 204, headers: baseHeaders(c, null), body: new Uint8Array(0) };
    let event: unknown = {};
    const text = call.req.text();
    if (text !== '') {
      try {
        event = JSON.parse(text);
      } catch {
        throw awsError(400, 'InvalidRequestContentException', 'Could not parse request body into json: Could not parse payload into json');
      }
    }
    const rule = f.invocations.find((r) => contains(event, r.when) && contains(f.environment, r.env));
    const lines = [`START RequestId: ${c.requestId} Version: $LATEST`, ...(rule?.log ?? []).map((line) => line.replace(/\{requestId\}/g, c.requestId))];
    if (rule?.error) lines.push(`[ERROR] ${rule.error.type}: ${rule.error.message}`);
    lines.push(`END RequestId: ${c.requestId}`, `REPORT RequestId: ${c.requestId}\tDuration: 12.31 ms\tBilled Duration: 13 ms\tMemory Size: ${f.memory} MB\tMax Memory Used: 41 MB`);
    appendLog(c, `/aws/lambda/${f.name}`, `${new Date(c.ctx.nowMs).toISOString().slice(0, 10).replace(/-/g, '/')}/[$LATEST]${c.ctx.ids.opaque('stream', `${f.name}/${c.ctx.seq}`, 32)}`, lines);
    if (type === 'Event') return { status: 202, headers: baseHeaders(c, null), body: new Uint8Array(0) };
    const headers: [string, string][] = [['X-Amz-Executed-Version', '$LATEST']];
    if (rule?.error) headers.push(['X-Amz-Function-Error', 'Unhandled']);
    if (call.req.header('x-amz-log-type') === 'Tail') headers.push(['X-Amz-Log-Result', Buffer.from(lines.join('\n') + '\n').toString('base64')]);
    const payload = rule?.error
      ? { errorMessage: rule.error.message, errorType: rule.error.type, requestId: c.requestId, stackTrace: [] }
      : rule?.result ?? null;
    return { status: 200, headers: [...baseHeaders(c, 'application/json'), ...headers], body: bytes(JSON.stringify(payload)) };
  }),
];

