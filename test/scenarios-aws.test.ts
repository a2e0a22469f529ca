import test from 'ava';
import { join } from 'node:path';
import type { JournalEntry } from '../mocks/core/journal-format.js';
import { gradeWorld } from '../scenarios/grade-world.js';
import { findScenarios } from '../scenarios/validate.js';
import { openWorld } from '../scenarios/world.js';
import { awsService } from '../mocks/aws/index.js';
import { signRequest } from '../mocks/aws/sigv4.js';
import { scenarioSetSuite, scenarioSuite } from './helpers/scenario-suite.js';

// Every AWS scenario of the cloud group (helpers/scenario-suite): valid (oracle arguments against
// the native server's input schemas), nop 0, oracle 1 with R_b 0 through toolbench's AWS MCP
// server and the AWS SDK, replay identical (the SDK's wall-clock X-Amz-Date and signature are
// re-sent as recorded, so the mock's signature check passes again); and near misses (the
// look-alike bucket, the staging function, the prod web servers, the legacy bastion group) score 0.

// AWS reads are POSTs too (EC2, IAM, STS, Logs, DynamoDB): a write is a successful mutating operation.
const WRITES = new Set(['s3.CreateBucket', 's3.PutBucketPolicy', 's3.DeleteBucketPolicy', 's3.PutPublicAccessBlock', 's3.DeletePublicAccessBlock', 's3.PutBucketAcl',
  's3.PutBucketTagging', 's3.DeleteBucketTagging', 's3.PutObject', 's3.DeleteObject', 's3.PutObjectTagging', 'iam.DetachRolePolicy', 'ec2.StartInstances', 'ec2.StopInstances',
  'ec2.AuthorizeSecurityGroupIngress', 'ec2.RevokeSecurityGroupIngress', 'lambda.UpdateFunctionConfiguration', 'lambda.Invoke', 'dynamodb.PutItem']);
const isWrite = (e: JournalEntry) => e.response.status < 300 && WRITES.has(e.operation?.name ?? '');

const dirs = findScenarios(join('scenarios', 'cloud')).filter((dir) => dir.includes('/aws/'));
const manifests = scenarioSuite({
  service: 'aws',
  dirs,
  credentialOk: (world, credential) => {
    const keyId = (credential as { key_id: string }).key_id;
    return world.state(['aws']).aws?.credentials?.[keyId] !== undefined;
  },
  operationNames: awsService.kit.operations.map((operation) => operation.name),
  isWrite,
});

scenarioSetSuite('AWS', 'aws', manifests, [
  { collection: 'buckets', min: 8, what: 'a non-trivial account (buckets)' },
  { collection: 'instances', min: 10, what: 'a non-trivial account (instances)' },
  { collection: 'functions', min: 5, what: 'a non-trivial account (functions)' },
]);

const FORM = 'application/x-www-form-urlencoded; charset=utf-8';

/** A near miss straight through the API, signed as the SDK signs (as an agent with the wrong pick would make it), scores 0. */
test('near misses score 0: the look-alike bucket, the staging function, the prod web servers, the legacy bastion group', async (t) => {
  const cases: [string, { host: string; method: string; target: string; body?: string; type?: string; service: string }[]][] = [
    ['cloud/aws/s3-lock-down-customer-exports', [
      { service: 's3', host: 'nw-customer-exports-docs.s3.us-east-1.amazonaws.com', method: 'PUT', target: '/?publicAccessBlock', body: '<PublicAccessBlockConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><BlockPublicAcls>true</BlockPublicAcls><IgnorePublicAcls>true</IgnorePublicAcls><BlockPublicPolicy>true</BlockPublicPolicy><RestrictPublicBuckets>true</RestrictPublicBuckets></PublicAccessBlockConfiguration>' },
      { service: 's3', host: 'nw-customer-exports-docs.s3.us-east-1.amazonaws.com', method: 'DELETE', target: '/?policy' },
    ]],
    ['cloud/aws/lambda-orders-sync-failure', [
      { service: 'lambda', host: 'lambda.us-east-1.amazonaws.com', method: 'PUT', target: '/2015-03-31/functions/orders-sync-staging/configuration', body: JSON.stringify({ Environment: { Variables: { ORDERS_TABLE: 'orders-v2', LOG_LEVEL: 'debug' } } }), type: 'application/json' },
    ]],
    ['cloud/aws/ec2-stop-staging-web', [
      { service: 'ec2', host: 'ec2.us-east-1.amazonaws.com', method: 'POST', target: '/', body: 'Action=StopInstances&Version=2016-11-15&InstanceId.1=i-0e5000000000000a1&InstanceId.2=i-0e5000000000000a2', type: FORM },
    ]],
    ['cloud/aws/ec2-bastion-ssh-office-only', [
      { service: 'ec2', host: 'ec2.us-east-1.amazonaws.com', method: 'POST', target: '/', body: 'Action=RevokeSecurityGroupIngress&Version=2016-11-15&GroupId=sg-0c1a00000000000a4&IpPermissions.1.IpProtocol=tcp&IpPermissions.1.FromPort=22&IpPermissions.1.ToPort=22&IpPermissions.1.IpRanges.1.CidrIp=0.0.0.0%2F0', type: FORM },
    ]],
  ];
  for (const [id, requests] of cases) {
    const dir = join('scenarios', id);
    const manifest = manifests.get(dir)!;
    const credential = manifest.credentials.aws as { key_id: string; secret: string };
    const opened = await openWorld({ scenarioDir: dir });
    try {
      for (const r of requests) {
        const body = new TextEncoder().encode(r.body ?? '');
        const headers = signRequest({ method: r.method, target: r.target, headers: [['Host', r.host], ...(r.type ? [['Content-Type', r.type] as [string, string]] : [])], body, keyId: credential.key_id, secret: credential.secret, region: 'us-east-1', service: r.service, amzDate: '20250602T100000Z' });
        const response = await opened.world.dispatch({ host: r.host, method: r.method, target: r.target, headers, body });
        t.true(response.status < 300, `${id}: ${response.status} ${new TextDecoder().decode(response.body)}`);
      }
      const result = await gradeWorld(opened, { agent: 'near-miss', answer: manifest.oracle.answer, output: '', exit: { code: 0, signal: null }, interrupted: false });
      t.is(result.reward, 0, id);
    } finally {
      await opened.world.journal.close();
    }
  }
});
