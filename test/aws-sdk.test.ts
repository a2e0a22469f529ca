import test from 'ava';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startStack, type Stack } from '../catalog/stack.js';
import { nodeClientEnv } from './helpers/proxy-processes.js';
import { testCaDir } from './helpers/proxy.js';
import { sourceUrl } from '../mocks/core/source-url.js';

// The AWS SDK for JavaScript v3 (client-s3, -sts, -iam, -ec2, -lambda, -cloudwatch-logs, -dynamodb;
// unmodified, in their own Node process) against the real AWS hostnames through the preload and
// the TLS proxy: virtual-host and path-style S3, every protocol's answers and errors, SigV4 checked
// against the conformance world's credential table (a wrong secret, an unknown key).

const run = promisify(execFile);
let stack: Stack;

test.before(async () => {
  stack = await startStack({ scenarioDir: 'mocks/aws/conformance', ports: 'ephemeral', caDir: testCaDir(), endpoints: false, clients: ['aws-sdk'] });
});
test.after.always(async () => {
  await stack?.close();
});

test('the seven AWS SDK v3 clients work unmodified through the proxy; bad signatures get each protocol\'s own error', async (t) => {
  const script = fileURLToPath(new URL('./helpers/aws-sdk-client.mjs', sourceUrl(import.meta.url)));
  const { stdout } = await run(process.execPath, [script], {
    env: { ...process.env, ...nodeClientEnv(stack.proxy!.proxy.urlFor('aws-sdk'), stack.caPath!), AWS_ACCESS_KEY_ID: 'AKIACONFORMANCE00001', AWS_SECRET_ACCESS_KEY: 'conformanceSecret/0123456789ABCDEFabcdef', AWS_CONFIG_FILE: '/dev/null', AWS_SHARED_CREDENTIALS_FILE: '/dev/null' },
  });
  const out = JSON.parse(stdout);
  // S3
  t.deepEqual(out.buckets, ['acme-invoices', 'acme-logs-archive', 'acme-web-assets']);
  t.deepEqual(out.objects, [['img/hero.svg'], true, ['img/logo.svg'], false]);
  t.deepEqual(out.delimited, { keys: ['index.html'], prefixes: ['css/', 'img/'] });
  t.deepEqual(out.object, { body: 'invoice 1002', type: 'application/pdf', etag: '"849d78e6303897fa44291a02fbd67ecb"' });
  t.deepEqual(out.deleted, { name: 'NoSuchKey', status: 404, message: 'The specified key does not exist.' });
  t.is(out.policy, 'PublicRead');
  t.is(out.noPolicy.name, 'NoSuchBucketPolicy');
  t.deepEqual(out.aclBefore, ['CanonicalUser:owner:FULL_CONTROL', 'Group:http://acs.amazonaws.com/groups/global/AllUsers:READ']);
  t.deepEqual(out.aclAfter, ['CanonicalUser:FULL_CONTROL']);
  t.deepEqual(out.pab, { BlockPublicAcls: true, IgnorePublicAcls: true, BlockPublicPolicy: true, RestrictPublicBuckets: true });
  t.deepEqual(out.tags, [{ Key: 'retention', Value: '7y' }]);
  t.deepEqual(out.objectTags, [{ Key: 'owner', Value: 'design' }]);
  t.is(out.noBucket.name, 'NoSuchBucket');
  // STS, IAM
  t.is(out.identity.Account, '111122223333');
  t.is(out.identity.Arn, 'arn:aws:iam::111122223333:user/automation/ci-deployer');
  t.regex(out.identity.UserId, /^AIDA[0-9A-Z]{17}$/);
  t.deepEqual(out.users, ['/automation/ci-deployer', '/dana.ops', '/service/legacy-backup']);
  t.deepEqual(out.roles, ['orders-api-lambda']);
  t.deepEqual(out.rolePolicies, ['AWSLambdaBasicExecutionRole', 'orders-table-rw']);
  t.deepEqual(out.noRole, { name: 'NoSuchEntityException', status: 404, message: 'The role with name nope cannot be found.' });
  // EC2
  t.deepEqual(out.web, ['i-0abc1234def567801:running:web-1', 'i-0abc1234def567802:running:web-2']);
  t.deepEqual(out.stop, ['running->stopping']);
  t.deepEqual(out.start, ['stopped->pending']);
  t.deepEqual(out.states, ['stopped', 'running']);
  t.is(out.noInstance.name, 'InvalidInstanceID.NotFound');
  t.deepEqual(out.groups, [['tcp/22:198.51.100.7/32']]);
  // Lambda, CloudWatch Logs
  t.deepEqual(out.functions, ['orders-api:nodejs20.x', 'thumbnailer:python3.12']);
  t.deepEqual(out.function, { TABLE_NAME: 'orders', LOG_LEVEL: 'info' });
  t.deepEqual(out.invokeOk, { status: 200, error: null, payload: { statusCode: 200, body: 'ok' } });
  t.deepEqual(out.invokeBad, { error: 'Unhandled', payload: 'NotFoundError', tail: 'ERROR\torder missing not found' });
  t.is(out.updated, 'debug');
  t.is(out.noFunction.name, 'ResourceNotFoundException');
  t.deepEqual(out.logGroups, ['/aws/lambda/orders-api:30']);
  t.deepEqual(out.filtered, ['ERROR\tTimeout talking to payments', 'ERROR\torder missing not found', '[ERROR] NotFoundError: order missing not found']);
  t.is(out.streams, 3, 'the two invocations wrote two streams beside the dataset\'s');
  t.deepEqual(out.lastStream, ['START', 'ERROR\torder', '[ERROR]', 'END', 'REPORT']);
  t.is(out.noGroup.name, 'ResourceNotFoundException');
  // DynamoDB
  t.deepEqual(out.tables, ['orders', 'sessions']);
  t.deepEqual(out.table, { keys: ['customerId:HASH', 'orderId:RANGE'], count: 3, status: 'ACTIVE' });
  t.is(out.item, 'pending');
  t.deepEqual(out.query, { ids: ['o-2', 'o-9'], count: 2, scanned: 3 });
  t.deepEqual(out.scan, ['o-1', 'o-2', 'o-9', 'o-3']);
  t.is(out.noTable.name, 'ResourceNotFoundException');
  // Signatures
  t.like(out.badSignature, {
    s3: { name: 'SignatureDoesNotMatch', status: 403 }, sts: { name: 'SignatureDoesNotMatch', status: 403 }, ec2: { name: 'SignatureDoesNotMatch', status: 403 },
    lambda: { name: 'InvalidSignatureException', status: 403 }, dynamodb: { name: 'InvalidSignatureException', status: 400 },
  });
  t.like(out.unknownKey, { s3: { name: 'InvalidAccessKeyId', status: 403 }, logs: { name: 'UnrecognizedClientException', status: 400 } });

  await stack.world.journal.flush();
  const unnamed: string[] = [];
  for await (const entry of stack.world.journal.entries()) if (entry.operation === null) unnamed.push(`${entry.host} ${entry.method} ${entry.target}`);
  t.deepEqual(unnamed, [], 'every SDK request reached an operation');
  const state = stack.world.gradingState().aws!;
  t.like(state.instances!['i-0abc1234def567802'], { state: 'stopped' });
  t.false('policy' in (state.buckets!['acme-web-assets'] as object), 'the deleted policy is gone from the bucket');
});
