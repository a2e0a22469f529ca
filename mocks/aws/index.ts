import { BodyParseError, type ServiceRequest, type ServiceResponse } from '../core/http.js';
import type { FaultOrder, ServiceContext } from '../core/service.js';
import { decodeBody, mediaType } from '../kit/bodies.js';
import { defineService, type Middleware } from '../kit/define.js';
import type { KitRefusal } from '../kit/errors.js';
import { AwsDatasetSchema, type AwsDataset } from './dataset.js';
import { dynamodbOperations } from './dynamodb.js';
import { ec2Operations } from './ec2.js';
import { iamOperations } from './iam.js';
import { lambdaOperations } from './lambda.js';
import { loadAws } from './load.js';
import { logsOperations } from './logs.js';
import { awsError, dbOf, PROTOCOL, renderError, requestIdOf, type AwsCtx, type Protocol } from './model.js';
import { rewrite, targetOf } from './route.js';
import { s3Operations } from './s3.js';
import { expectedSignature, parseAuthorization } from './sigv4.js';

/**
 * Amazon Web Services: one account behind `{service}.{region}.amazonaws.com`,
 * `{bucket}.s3.{region}.amazonaws.com` and the global `iam.`/`sts.`/`s3.amazonaws.com`. Each
 * service speaks its own protocol (S3 REST-XML, EC2 query, IAM/STS awsQuery, Lambda REST-JSON,
 * CloudWatch Logs and DynamoDB JSON 1.x) and answers errors in that protocol's shape; every
 * request must carry a SigV4 signature made with a secret of the dataset's credential table.
 * docs/aws-mock.md.
 */

function awsContext(req: ServiceRequest, ctx: ServiceContext): AwsCtx {
  const db = dbOf(ctx.store);
  const target = targetOf(req);
  const protocol: Protocol = PROTOCOL[target.service] ?? 'json';
  const header = req.header('authorization');
  let auth: AwsCtx['auth'];
  if (header === undefined) auth = { kind: 'anonymous' };
  else {
    const parsed = parseAuthorization(header);
    if (!parsed) auth = { kind: 'malformed' };
    else {
      const credential = db.credentials.get(parsed.keyId);
      if (!credential) auth = { kind: 'unknown-key', keyId: parsed.keyId };
      else if (expectedSignature(req, parsed, credential.secret_access_key) !== parsed.signature) auth = { kind: 'bad-signature', keyId: parsed.keyId };
      else auth = { kind: 'ok', credential };
    }
  }
  return { ctx, db, target, protocol, requestId: requestIdOf(ctx), auth };
}

const SIGNATURE_MESSAGE = 'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.';
const TOKEN_MESSAGE = 'The security token included in the request is invalid.';

/** Each protocol's refusal of a bad signature, an unknown key and a missing one, as AWS words them. */
const sigv4Gate: Middleware<AwsCtx> = (_req, c, next) => {
  const { auth, protocol } = c;
  if (auth.kind === 'ok') return next();
  const jsonStatus = protocol === 'rest-json' ? 403 : 400;
  if (auth.kind === 'bad-signature') {
    if (protocol === 's3') throw awsError(403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided. Check your key and signing method.', { AWSAccessKeyId: auth.keyId });
    if (protocol === 'ec2' || protocol === 'query') throw awsError(403, 'SignatureDoesNotMatch', SIGNATURE_MESSAGE);
    throw awsError(jsonStatus, 'InvalidSignatureException', SIGNATURE_MESSAGE);
  }
  if (auth.kind === 'unknown-key') {
    if (protocol === 's3') throw awsError(403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.', { AWSAccessKeyId: auth.keyId });
    if (protocol === 'ec2') throw awsError(401, 'AuthFailure', 'AWS was not able to validate the provided access credentials');
    if (protocol === 'query') throw awsError(403, 'InvalidClientTokenId', TOKEN_MESSAGE);
    throw awsError(jsonStatus, 'UnrecognizedClientException', TOKEN_MESSAGE);
  }
  if (protocol === 's3') throw awsError(403, 'AccessDenied', 'Access Denied');
  if (auth.kind === 'malformed') throw awsError(jsonStatus, 'IncompleteSignature', 'Authorization header requires \'Credential\', \'Signature\' and \'SignedHeaders\' parameters.');
  throw awsError(protocol === 'json' ? 400 : 403, protocol === 'json' ? 'MissingAuthenticationTokenException' : 'MissingAuthenticationToken', 'Request is missing Authentication Token');
};

function refusal(reason: KitRefusal, detail: { message?: string }, protocol: Protocol) {
  switch (reason) {
    case 'malformed_body':
      return protocol === 's3' ? awsError(400, 'MalformedXML', 'The XML you provided was not well-formed or did not validate against our published schema')
        : awsError(400, 'SerializationException', detail.message ?? 'Unexpected character');
    case 'invalid_params': return awsError(400, protocol === 'json' || protocol === 'rest-json' ? 'ValidationException' : 'InvalidParameterValue', 'Invalid parameter value');
    case 'unauthenticated': return awsError(403, 'MissingAuthenticationToken', 'Request is missing Authentication Token');
    case 'payload_too_large': return protocol === 's3' ? awsError(400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed object size.') : awsError(413, 'RequestEntityTooLargeException', 'Request must be smaller than 6291456 bytes');
    case 'internal_error': return awsError(500, protocol === 's3' ? 'InternalError' : protocol === 'rest-json' ? 'ServiceException' : 'InternalFailure', 'We encountered an internal error. Please try again.');
    case 'method_not_allowed':
    case 'not_found':
      if (protocol === 's3') return awsError(405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
      if (protocol === 'ec2' || protocol === 'query') return awsError(400, 'InvalidAction', 'The action or operation requested is invalid. Verify that the action is typed correctly.');
      return awsError(protocol === 'rest-json' ? 404 : 400, 'UnknownOperationException', 'The requested operation is not recognized by the service.');
  }
}

/**
 * A fault in the protocol's own words: throttling is S3's 503 `SlowDown`, EC2's 503
 * `RequestLimitExceeded`, Lambda's 429 `TooManyRequestsException`, IAM/STS's 400 `Throttling`
 * and JSON 1.x's 400 `ThrottlingException`; 5xx are each protocol's internal error.
 */
function awsFault(order: FaultOrder, req: ServiceRequest, ctx: ServiceContext): ServiceResponse {
  const c = awsContext(req, ctx);
  const p = c.protocol;
  const retry: [string, string][] = [['Retry-After', String(order.retryAfter)]];
  if (order.kind === '429') {
    if (p === 's3') return renderError(awsError(503, 'SlowDown', 'Please reduce your request rate.'), c);
    if (p === 'ec2') return renderError(awsError(503, 'RequestLimitExceeded', 'Request limit exceeded.'), c);
    if (p === 'query') return renderError(awsError(400, 'Throttling', 'Rate exceeded'), c);
    if (p === 'rest-json') return renderError(awsError(429, 'TooManyRequestsException', 'Rate Exceeded.', {}, retry), c);
    return renderError(awsError(400, 'ThrottlingException', 'Rate exceeded'), c);
  }
  if (order.kind === '503') return renderError(awsError(503, p === 'rest-json' ? 'ServiceException' : 'ServiceUnavailable', p === 's3' ? 'Please reduce your request rate.' : 'Service is unavailable. Please try again later.', {}, retry), c);
  const status = order.kind === 'timeout' ? 504 : order.kind === 'reset' || order.kind === '502' ? 502 : 500;
  return renderError(awsError(status, p === 's3' ? 'InternalError' : p === 'rest-json' ? 'ServiceException' : 'InternalFailure', 'We encountered an internal error. Please try again.'), c);
}

export const awsService = defineService<AwsDataset, AwsCtx>({
  id: 'aws',
  version: '1',
  dataset: AwsDatasetSchema,
  load: loadAws,
  context: awsContext,
  operations: [...s3Operations, ...iamOperations, ...ec2Operations, ...lambdaOperations, ...logsOperations, ...dynamodbOperations],
  // The kit's refusals are worded per protocol once the request's context is known.
  errors: (error, context) => {
    if (context === null) throw error;
    const kit = error.code.startsWith('kit:') ? refusal(error.code.slice(4) as KitRefusal, { message: error.message }, context.protocol) : error;
    return renderError(kit, context);
  },
  refusal: (reason, detail) => awsError(400, `kit:${reason}`, detail.message ?? reason),
  middleware: [sigv4Gate],
  rewrite,
  // JSON 1.x bodies are `application/x-amz-json-1.0`/`-1.1`: JSON under another media type.
  decode(req) {
    const type = mediaType(req.header('content-type'));
    if (type.startsWith('application/x-amz-json')) {
      if (req.body.length === 0) return { kind: 'empty', value: undefined };
      try {
        return { kind: 'json', value: JSON.parse(req.text()) };
      } catch (error) {
        throw new BodyParseError((error as Error).message);
      }
    }
    return decodeBody(req.headers, req.body);
  },
  fault: awsFault,
  volatile: {
    // Credentials and the account are the scenario's setup; log streams grow with every Lambda
    // invocation (graded through the invocation itself); revision ids and modification times
    // move with every update.
    account: '*',
    credentials: '*',
    log_streams: '*',
    functions: ['revision_id', 'last_modified'],
    objects: ['last_modified', 'etag'],
  },
});

