// The AWS SDK for JavaScript v3 clients (the devDependencies, unmodified: S3, STS, IAM, EC2, Lambda,
// CloudWatch Logs, DynamoDB) against the real AWS hostnames through whatever the preload set up,
// signing with AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY from the environment. Prints one JSON object.
import { S3Client, ListBucketsCommand, ListObjectsV2Command, GetObjectCommand, PutObjectCommand, DeleteObjectCommand, GetBucketPolicyCommand, DeleteBucketPolicyCommand,
  PutPublicAccessBlockCommand, GetPublicAccessBlockCommand, GetBucketAclCommand, PutBucketAclCommand, GetBucketTaggingCommand, PutBucketTaggingCommand, GetObjectTaggingCommand } from '@aws-sdk/client-s3';
import { STSClient, GetCallerIdentityCommand } from '@aws-sdk/client-sts';
import { IAMClient, ListUsersCommand, ListRolesCommand, ListAttachedRolePoliciesCommand } from '@aws-sdk/client-iam';
import { EC2Client, DescribeInstancesCommand, StopInstancesCommand, StartInstancesCommand, DescribeSecurityGroupsCommand, AuthorizeSecurityGroupIngressCommand, RevokeSecurityGroupIngressCommand } from '@aws-sdk/client-ec2';
import { LambdaClient, ListFunctionsCommand, GetFunctionCommand, InvokeCommand, UpdateFunctionConfigurationCommand } from '@aws-sdk/client-lambda';
import { CloudWatchLogsClient, DescribeLogGroupsCommand, FilterLogEventsCommand, GetLogEventsCommand, DescribeLogStreamsCommand } from '@aws-sdk/client-cloudwatch-logs';
import { DynamoDBClient, ListTablesCommand, DescribeTableCommand, GetItemCommand, PutItemCommand, QueryCommand, ScanCommand } from '@aws-sdk/client-dynamodb';

const region = 'us-east-1';
const conf = { region, maxAttempts: 1 };
const out = {};
const errorOf = async (promise) => {
  try { await promise; return null; } catch (e) { return { name: e.name, status: e.$metadata?.httpStatusCode, message: e.message }; }
};

const s3 = new S3Client(conf);
const path = new S3Client({ ...conf, forcePathStyle: true });
out.buckets = (await s3.send(new ListBucketsCommand({}))).Buckets.map((b) => b.Name);
const listed = await s3.send(new ListObjectsV2Command({ Bucket: 'acme-web-assets', Prefix: 'img/', MaxKeys: 1 }));
const listed2 = await path.send(new ListObjectsV2Command({ Bucket: 'acme-web-assets', Prefix: 'img/', ContinuationToken: listed.NextContinuationToken }));
out.objects = [listed.Contents.map((o) => o.Key), listed.IsTruncated, listed2.Contents.map((o) => o.Key), listed2.IsTruncated];
const delimited = await s3.send(new ListObjectsV2Command({ Bucket: 'acme-web-assets', Delimiter: '/' }));
out.delimited = { keys: delimited.Contents.map((o) => o.Key), prefixes: delimited.CommonPrefixes.map((p) => p.Prefix) };
await s3.send(new PutObjectCommand({ Bucket: 'acme-invoices', Key: '2025/06/INV-1002.pdf', Body: 'invoice 1002', ContentType: 'application/pdf' }));
const got = await path.send(new GetObjectCommand({ Bucket: 'acme-invoices', Key: '2025/06/INV-1002.pdf' }));
out.object = { body: await got.Body.transformToString(), type: got.ContentType, etag: got.ETag };
await s3.send(new DeleteObjectCommand({ Bucket: 'acme-invoices', Key: '2025/06/INV-1002.pdf' }));
out.deleted = await errorOf(s3.send(new GetObjectCommand({ Bucket: 'acme-invoices', Key: '2025/06/INV-1002.pdf' })));
out.policy = JSON.parse((await s3.send(new GetBucketPolicyCommand({ Bucket: 'acme-web-assets' }))).Policy).Statement[0].Sid;
await s3.send(new DeleteBucketPolicyCommand({ Bucket: 'acme-web-assets' }));
out.noPolicy = await errorOf(s3.send(new GetBucketPolicyCommand({ Bucket: 'acme-web-assets' })));
out.aclBefore = (await s3.send(new GetBucketAclCommand({ Bucket: 'acme-web-assets' }))).Grants.map((g) => `${g.Grantee.Type}:${g.Grantee.URI ?? 'owner'}:${g.Permission}`);
await s3.send(new PutBucketAclCommand({ Bucket: 'acme-web-assets', ACL: 'private' }));
out.aclAfter = (await s3.send(new GetBucketAclCommand({ Bucket: 'acme-web-assets' }))).Grants.map((g) => `${g.Grantee.Type}:${g.Permission}`);
await s3.send(new PutPublicAccessBlockCommand({ Bucket: 'acme-web-assets', PublicAccessBlockConfiguration: { BlockPublicAcls: true, IgnorePublicAcls: true, BlockPublicPolicy: true, RestrictPublicBuckets: true } }));
out.pab = (await s3.send(new GetPublicAccessBlockCommand({ Bucket: 'acme-web-assets' }))).PublicAccessBlockConfiguration;
await s3.send(new PutBucketTaggingCommand({ Bucket: 'acme-logs-archive', Tagging: { TagSet: [{ Key: 'retention', Value: '7y' }] } }));
out.tags = (await s3.send(new GetBucketTaggingCommand({ Bucket: 'acme-logs-archive' }))).TagSet;
out.objectTags = (await s3.send(new GetObjectTaggingCommand({ Bucket: 'acme-web-assets', Key: 'img/logo.svg' }))).TagSet;
out.noBucket = await errorOf(s3.send(new ListObjectsV2Command({ Bucket: 'acme-nope' })));

out.identity = await new STSClient(conf).send(new GetCallerIdentityCommand({}));
delete out.identity.$metadata;
const iam = new IAMClient(conf);
out.users = (await iam.send(new ListUsersCommand({}))).Users.map((u) => `${u.Path}${u.UserName}`);
out.roles = (await iam.send(new ListRolesCommand({ PathPrefix: '/service-role/' }))).Roles.map((r) => r.RoleName);
out.rolePolicies = (await iam.send(new ListAttachedRolePoliciesCommand({ RoleName: 'orders-api-lambda' }))).AttachedPolicies.map((p) => p.PolicyName);
out.noRole = await errorOf(iam.send(new ListAttachedRolePoliciesCommand({ RoleName: 'nope' })));

const ec2 = new EC2Client(conf);
const web = await ec2.send(new DescribeInstancesCommand({ Filters: [{ Name: 'tag:Name', Values: ['web-*'] }, { Name: 'instance-state-name', Values: ['running'] }] }));
out.web = web.Reservations.flatMap((r) => r.Instances.map((i) => `${i.InstanceId}:${i.State.Name}:${i.Tags.find((t) => t.Key === 'Name').Value}`));
out.stop = (await ec2.send(new StopInstancesCommand({ InstanceIds: ['i-0abc1234def567802'] }))).StoppingInstances.map((s) => `${s.PreviousState.Name}->${s.CurrentState.Name}`);
out.start = (await ec2.send(new StartInstancesCommand({ InstanceIds: ['i-0abc1234def567803'] }))).StartingInstances.map((s) => `${s.PreviousState.Name}->${s.CurrentState.Name}`);
out.states = (await ec2.send(new DescribeInstancesCommand({ InstanceIds: ['i-0abc1234def567802', 'i-0abc1234def567803'] }))).Reservations.flatMap((r) => r.Instances.map((i) => i.State.Name));
out.noInstance = await errorOf(ec2.send(new DescribeInstancesCommand({ InstanceIds: ['i-0000000000000dead'] })));
await ec2.send(new AuthorizeSecurityGroupIngressCommand({ GroupId: 'sg-0a1b2c3d4e5f60002', IpPermissions: [{ IpProtocol: 'tcp', FromPort: 22, ToPort: 22, IpRanges: [{ CidrIp: '198.51.100.7/32', Description: 'vpn' }] }] }));
await ec2.send(new RevokeSecurityGroupIngressCommand({ GroupId: 'sg-0a1b2c3d4e5f60002', IpPermissions: [{ IpProtocol: 'tcp', FromPort: 22, ToPort: 22, IpRanges: [{ CidrIp: '203.0.113.0/24' }] }] }));
out.groups = (await ec2.send(new DescribeSecurityGroupsCommand({ GroupIds: ['sg-0a1b2c3d4e5f60002'] }))).SecurityGroups.map((g) => g.IpPermissions.map((p) => `${p.IpProtocol}/${p.FromPort}:${p.IpRanges.map((r) => r.CidrIp).join(',')}`));

const lambda = new LambdaClient(conf);
out.functions = (await lambda.send(new ListFunctionsCommand({}))).Functions.map((f) => `${f.FunctionName}:${f.Runtime}`);
out.function = (await lambda.send(new GetFunctionCommand({ FunctionName: 'orders-api' }))).Configuration.Environment.Variables;
const ok = await lambda.send(new InvokeCommand({ FunctionName: 'orders-api', Payload: JSON.stringify({ orderId: 'o-1' }) }));
out.invokeOk = { status: ok.StatusCode, error: ok.FunctionError ?? null, payload: JSON.parse(Buffer.from(ok.Payload).toString()) };
const bad = await lambda.send(new InvokeCommand({ FunctionName: 'orders-api', Payload: JSON.stringify({ orderId: 'missing' }), LogType: 'Tail' }));
out.invokeBad = { error: bad.FunctionError, payload: JSON.parse(Buffer.from(bad.Payload).toString()).errorType, tail: Buffer.from(bad.LogResult, 'base64').toString().split('\n')[1] };
out.updated = (await lambda.send(new UpdateFunctionConfigurationCommand({ FunctionName: 'orders-api', Timeout: 30, Environment: { Variables: { TABLE_NAME: 'orders', LOG_LEVEL: 'debug' } } }))).Environment.Variables.LOG_LEVEL;
out.noFunction = await errorOf(lambda.send(new GetFunctionCommand({ FunctionName: 'nope' })));

const logs = new CloudWatchLogsClient(conf);
out.logGroups = (await logs.send(new DescribeLogGroupsCommand({ logGroupNamePrefix: '/aws/lambda/' }))).logGroups.map((g) => `${g.logGroupName}:${g.retentionInDays}`);
out.filtered = (await logs.send(new FilterLogEventsCommand({ logGroupName: '/aws/lambda/orders-api', filterPattern: 'ERROR' }))).events.map((e) => e.message);
const streams = (await logs.send(new DescribeLogStreamsCommand({ logGroupName: '/aws/lambda/orders-api', orderBy: 'LastEventTime', descending: true }))).logStreams;
out.streams = streams.length;
out.lastStream = (await logs.send(new GetLogEventsCommand({ logGroupName: '/aws/lambda/orders-api', logStreamName: streams[0].logStreamName, startFromHead: true }))).events.map((e) => e.message.split(' ')[0]);
out.noGroup = await errorOf(logs.send(new FilterLogEventsCommand({ logGroupName: '/nope' })));

const ddb = new DynamoDBClient(conf);
out.tables = (await ddb.send(new ListTablesCommand({}))).TableNames;
const table = (await ddb.send(new DescribeTableCommand({ TableName: 'orders' }))).Table;
out.table = { keys: table.KeySchema.map((k) => `${k.AttributeName}:${k.KeyType}`), count: table.ItemCount, status: table.TableStatus };
out.item = (await ddb.send(new GetItemCommand({ TableName: 'orders', Key: { customerId: { S: 'c-100' }, orderId: { S: 'o-2' } } }))).Item.status.S;
await ddb.send(new PutItemCommand({ TableName: 'orders', Item: { customerId: { S: 'c-100' }, orderId: { S: 'o-9' }, total: { N: '5' }, status: { S: 'pending' } } }));
const q = await ddb.send(new QueryCommand({ TableName: 'orders', KeyConditionExpression: 'customerId = :c AND begins_with(orderId, :p)', FilterExpression: '#s = :s', ExpressionAttributeNames: { '#s': 'status' }, ExpressionAttributeValues: { ':c': { S: 'c-100' }, ':p': { S: 'o-' }, ':s': { S: 'pending' } } }));
out.query = { ids: q.Items.map((i) => i.orderId.S), count: q.Count, scanned: q.ScannedCount };
const scan1 = await ddb.send(new ScanCommand({ TableName: 'orders', Limit: 2 }));
const scan2 = await ddb.send(new ScanCommand({ TableName: 'orders', Limit: 2, ExclusiveStartKey: scan1.LastEvaluatedKey }));
out.scan = [...scan1.Items, ...scan2.Items].map((i) => i.orderId.S);
out.noTable = await errorOf(ddb.send(new GetItemCommand({ TableName: 'nope', Key: { id: { S: 'x' } } })));

const wrong = { ...conf, credentials: { accessKeyId: process.env.AWS_ACCESS_KEY_ID, secretAccessKey: 'not-the-secret-0123456789' } };
const unknown = { ...conf, credentials: { accessKeyId: 'AKIAUNKNOWN000000000', secretAccessKey: 'whatever-0123456789' } };
out.badSignature = {
  s3: await errorOf(new S3Client(wrong).send(new ListBucketsCommand({}))),
  sts: await errorOf(new STSClient(wrong).send(new GetCallerIdentityCommand({}))),
  ec2: await errorOf(new EC2Client(wrong).send(new DescribeInstancesCommand({}))),
  lambda: await errorOf(new LambdaClient(wrong).send(new ListFunctionsCommand({}))),
  dynamodb: await errorOf(new DynamoDBClient(wrong).send(new ListTablesCommand({}))),
};
out.unknownKey = { s3: await errorOf(new S3Client(unknown).send(new ListBucketsCommand({}))), logs: await errorOf(new CloudWatchLogsClient(unknown).send(new DescribeLogGroupsCommand({}))) };
process.stdout.write(JSON.stringify(out));
