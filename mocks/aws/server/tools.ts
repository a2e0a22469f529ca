import { z } from 'zod';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import * as S3 from '@aws-sdk/client-s3';
import * as STS from '@aws-sdk/client-sts';
import * as IAM from '@aws-sdk/client-iam';
import * as EC2 from '@aws-sdk/client-ec2';
import * as Lambda from '@aws-sdk/client-lambda';
import * as Logs from '@aws-sdk/client-cloudwatch-logs';
import * as DDB from '@aws-sdk/client-dynamodb';
import { jsonSchema } from './schema.js';

/**
 * The tools of toolbench's AWS MCP server (docs/aws-mock.md, docs/provenance.md). Names and
 * parameters follow the AWS Labs MCP servers where one has the tool (dynamodb-mcp-server's
 * list_tables, describe_table, get_item, put_item, query, scan; iam-mcp-server's list_users,
 * list_roles; cloudwatch-mcp-server's describe_log_groups); the rest are named after the API
 * operation in the same snake_case. Each calls the AWS SDK v3 client of its service (credentials
 * and region from the environment) and answers the operation's output as JSON text.
 */

export interface Clients {
  s3: S3.S3Client; sts: STS.STSClient; iam: IAM.IAMClient; ec2: EC2.EC2Client; lambda: Lambda.LambdaClient; logs: Logs.CloudWatchLogsClient; dynamodb: DDB.DynamoDBClient;
}

export function makeClients(region: string): Clients {
  const conf = { region, maxAttempts: 2 };
  return {
    s3: new S3.S3Client(conf), sts: new STS.STSClient(conf), iam: new IAM.IAMClient(conf), ec2: new EC2.EC2Client(conf),
    lambda: new Lambda.LambdaClient(conf), logs: new Logs.CloudWatchLogsClient(conf), dynamodb: new DDB.DynamoDBClient(conf),
  };
}

interface Def<S extends z.ZodRawShape> {
  name: string;
  description: string;
  input: z.ZodObject<S>;
  run(args: z.infer<z.ZodObject<S>>, c: Clients): Promise<unknown>;
}
const defs: Def<any>[] = [];
function tool<S extends z.ZodRawShape>(name: string, description: string, shape: S, run: (args: z.infer<z.ZodObject<S>>, c: Clients) => Promise<unknown>): void {
  defs.push({ name, description, input: z.object(shape).strict(), run });
}

const bucket = z.string().describe('Name of the S3 bucket');
const AttributeMap = z.record(z.record(z.unknown())).describe('DynamoDB attribute-value map, e.g. {"id": {"S": "42"}}');
const opt = <T extends z.ZodTypeAny>(s: T, d: string) => s.optional().describe(d);
const filters = opt(z.array(z.object({ Name: z.string(), Values: z.array(z.string()) }).strict()), 'EC2 filters, e.g. [{"Name": "tag:Name", "Values": ["web-*"]}]');
const ipPermissions = z.array(z.object({
  IpProtocol: z.string().describe('tcp, udp, icmp or -1'), FromPort: z.number().int().optional(), ToPort: z.number().int().optional(),
  IpRanges: z.array(z.object({ CidrIp: z.string(), Description: z.string().optional() }).strict()).optional(),
}).strict()).describe('The rules, as EC2 IpPermissions');

// ---- STS, IAM ----
tool('get_caller_identity', 'Returns the AWS account, user id and ARN of the credentials in use (STS GetCallerIdentity).', {}, (_a, c) => c.sts.send(new STS.GetCallerIdentityCommand({})));
tool('list_users', 'List IAM users in the account, optionally under a path prefix.', { path_prefix: opt(z.string(), 'Path prefix to filter users (e.g. "/division_abc/")'), max_items: z.number().int().default(100).describe('Maximum number of users to return') },
  (a, c) => c.iam.send(new IAM.ListUsersCommand({ PathPrefix: a.path_prefix, MaxItems: a.max_items })));
tool('list_roles', 'List IAM roles in the account, optionally under a path prefix.', { path_prefix: opt(z.string(), 'Path prefix to filter roles (e.g. "/service-role/")'), max_items: z.number().int().default(100).describe('Maximum number of roles to return') },
  (a, c) => c.iam.send(new IAM.ListRolesCommand({ PathPrefix: a.path_prefix, MaxItems: a.max_items })));
tool('list_attached_role_policies', 'List the managed policies attached to an IAM role.', { role_name: z.string().describe('Name of the IAM role') },
  (a, c) => c.iam.send(new IAM.ListAttachedRolePoliciesCommand({ RoleName: a.role_name })));

// ---- S3 ----
tool('list_buckets', 'List the S3 buckets of the account.', {}, (_a, c) => c.s3.send(new S3.ListBucketsCommand({})));
tool('list_objects', 'List objects in an S3 bucket (ListObjectsV2), optionally under a prefix and grouped by a delimiter.', {
  bucket, prefix: opt(z.string(), 'Only keys beginning with this prefix'), delimiter: opt(z.string(), 'Group keys by this delimiter (e.g. "/")'),
  max_keys: opt(z.number().int(), 'Maximum number of keys (default 1000)'), continuation_token: opt(z.string(), 'NextContinuationToken of the previous page'),
}, (a, c) => c.s3.send(new S3.ListObjectsV2Command({ Bucket: a.bucket, Prefix: a.prefix, Delimiter: a.delimiter, MaxKeys: a.max_keys, ContinuationToken: a.continuation_token })));
tool('get_object', 'Read an S3 object as text, with its content type and ETag.', { bucket, key: z.string().describe('Object key') }, async (a, c) => {
  const out = await c.s3.send(new S3.GetObjectCommand({ Bucket: a.bucket, Key: a.key }));
  return { ContentType: out.ContentType, ETag: out.ETag, LastModified: out.LastModified, Body: await out.Body?.transformToString() };
});
tool('put_object', 'Write an S3 object from text.', { bucket, key: z.string().describe('Object key'), body: z.string().describe('Object content'), content_type: opt(z.string(), 'Content-Type') },
  (a, c) => c.s3.send(new S3.PutObjectCommand({ Bucket: a.bucket, Key: a.key, Body: a.body, ContentType: a.content_type })));
tool('delete_object', 'Delete an S3 object.', { bucket, key: z.string().describe('Object key') }, (a, c) => c.s3.send(new S3.DeleteObjectCommand({ Bucket: a.bucket, Key: a.key })));
tool('get_bucket_policy', 'Read the bucket policy of an S3 bucket (JSON text).', { bucket }, (a, c) => c.s3.send(new S3.GetBucketPolicyCommand({ Bucket: a.bucket })));
tool('put_bucket_policy', 'Replace the bucket policy of an S3 bucket.', { bucket, policy: z.string().describe('The policy document as JSON text') },
  (a, c) => c.s3.send(new S3.PutBucketPolicyCommand({ Bucket: a.bucket, Policy: a.policy })));
tool('delete_bucket_policy', 'Remove the bucket policy of an S3 bucket.', { bucket }, (a, c) => c.s3.send(new S3.DeleteBucketPolicyCommand({ Bucket: a.bucket })));
tool('get_public_access_block', 'Read the Block Public Access settings of an S3 bucket.', { bucket }, (a, c) => c.s3.send(new S3.GetPublicAccessBlockCommand({ Bucket: a.bucket })));
tool('put_public_access_block', 'Set the four Block Public Access settings of an S3 bucket.', {
  bucket, block_public_acls: z.boolean(), ignore_public_acls: z.boolean(), block_public_policy: z.boolean(), restrict_public_buckets: z.boolean(),
}, (a, c) => c.s3.send(new S3.PutPublicAccessBlockCommand({ Bucket: a.bucket, PublicAccessBlockConfiguration: { BlockPublicAcls: a.block_public_acls, IgnorePublicAcls: a.ignore_public_acls, BlockPublicPolicy: a.block_public_policy, RestrictPublicBuckets: a.restrict_public_buckets } })));
tool('get_bucket_acl', 'Read the access control list (grants) of an S3 bucket.', { bucket }, (a, c) => c.s3.send(new S3.GetBucketAclCommand({ Bucket: a.bucket })));
tool('put_bucket_acl', 'Set a canned ACL on an S3 bucket (private, public-read, public-read-write, authenticated-read).', {
  bucket, acl: z.enum(['private', 'public-read', 'public-read-write', 'authenticated-read']).describe('The canned ACL'),
}, (a, c) => c.s3.send(new S3.PutBucketAclCommand({ Bucket: a.bucket, ACL: a.acl })));
tool('get_bucket_tagging', 'Read the tags of an S3 bucket.', { bucket }, (a, c) => c.s3.send(new S3.GetBucketTaggingCommand({ Bucket: a.bucket })));
tool('put_bucket_tagging', 'Replace the tags of an S3 bucket.', { bucket, tags: z.record(z.string()).describe('Tags as {"key": "value"}') },
  (a, c) => c.s3.send(new S3.PutBucketTaggingCommand({ Bucket: a.bucket, Tagging: { TagSet: Object.entries(a.tags).map(([Key, Value]) => ({ Key, Value })) } })));

// ---- EC2 ----
tool('describe_instances', 'Describe EC2 instances, by id and/or filters (tag:Name, instance-state-name, instance-type, vpc-id, …).', {
  instance_ids: opt(z.array(z.string()), 'Instance ids'), filters, max_results: opt(z.number().int(), 'Page size'), next_token: opt(z.string(), 'NextToken of the previous page'),
}, (a, c) => c.ec2.send(new EC2.DescribeInstancesCommand({ InstanceIds: a.instance_ids, Filters: a.filters, MaxResults: a.max_results, NextToken: a.next_token })));
tool('start_instances', 'Start stopped EC2 instances.', { instance_ids: z.array(z.string()).describe('Instance ids') }, (a, c) => c.ec2.send(new EC2.StartInstancesCommand({ InstanceIds: a.instance_ids })));
tool('stop_instances', 'Stop running EC2 instances.', { instance_ids: z.array(z.string()).describe('Instance ids') }, (a, c) => c.ec2.send(new EC2.StopInstancesCommand({ InstanceIds: a.instance_ids })));
tool('describe_security_groups', 'Describe EC2 security groups and their rules, by id, name or filters.', {
  group_ids: opt(z.array(z.string()), 'Security group ids'), group_names: opt(z.array(z.string()), 'Security group names'), filters,
}, (a, c) => c.ec2.send(new EC2.DescribeSecurityGroupsCommand({ GroupIds: a.group_ids, GroupNames: a.group_names, Filters: a.filters })));
tool('authorize_security_group_ingress', 'Add inbound rules to an EC2 security group.', { group_id: z.string().describe('Security group id'), ip_permissions: ipPermissions },
  (a, c) => c.ec2.send(new EC2.AuthorizeSecurityGroupIngressCommand({ GroupId: a.group_id, IpPermissions: a.ip_permissions })));
tool('revoke_security_group_ingress', 'Remove inbound rules from an EC2 security group.', { group_id: z.string().describe('Security group id'), ip_permissions: ipPermissions },
  (a, c) => c.ec2.send(new EC2.RevokeSecurityGroupIngressCommand({ GroupId: a.group_id, IpPermissions: a.ip_permissions })));

// ---- Lambda ----
tool('list_functions', 'List the Lambda functions of the region.', { max_items: opt(z.number().int(), 'Page size (max 50)'), marker: opt(z.string(), 'NextMarker of the previous page') },
  (a, c) => c.lambda.send(new Lambda.ListFunctionsCommand({ MaxItems: a.max_items, Marker: a.marker })));
tool('get_function', 'Read a Lambda function: configuration (runtime, handler, environment), code location and tags.', { function_name: z.string().describe('Function name or ARN') },
  (a, c) => c.lambda.send(new Lambda.GetFunctionCommand({ FunctionName: a.function_name })));
tool('invoke_function', 'Invoke a Lambda function synchronously with a JSON payload; answers its result (or error) and the tail of its log.', {
  function_name: z.string().describe('Function name or ARN'), payload: z.record(z.unknown()).default({}).describe('The event, a JSON object'),
}, async (a, c) => {
  const out = await c.lambda.send(new Lambda.InvokeCommand({ FunctionName: a.function_name, Payload: JSON.stringify(a.payload), LogType: 'Tail' }));
  const text = out.Payload ? Buffer.from(out.Payload).toString('utf8') : '';
  return { StatusCode: out.StatusCode, FunctionError: out.FunctionError, ExecutedVersion: out.ExecutedVersion, Payload: text === '' ? null : JSON.parse(text), LogResult: out.LogResult ? Buffer.from(out.LogResult, 'base64').toString('utf8') : undefined };
});
tool('update_function_configuration', 'Change a Lambda function\'s configuration: environment variables (replaces the whole set), timeout, memory, handler, description.', {
  function_name: z.string().describe('Function name or ARN'), environment: opt(z.record(z.string()), 'All environment variables the function should have'),
  timeout: opt(z.number().int(), 'Timeout in seconds'), memory_size: opt(z.number().int(), 'Memory in MB'), handler: opt(z.string(), 'Handler'), description: opt(z.string(), 'Description'),
}, (a, c) => c.lambda.send(new Lambda.UpdateFunctionConfigurationCommand({
  FunctionName: a.function_name, ...(a.environment ? { Environment: { Variables: a.environment } } : {}), Timeout: a.timeout, MemorySize: a.memory_size, Handler: a.handler, Description: a.description,
})));

// ---- CloudWatch Logs ----
tool('describe_log_groups', 'List CloudWatch log groups, optionally by name prefix.', {
  log_group_name_prefix: opt(z.string(), 'Only groups whose name starts with this'), max_items: opt(z.number().int(), 'Maximum number of groups (max 50)'), next_token: opt(z.string(), 'nextToken of the previous page'),
}, (a, c) => c.logs.send(new Logs.DescribeLogGroupsCommand({ logGroupNamePrefix: a.log_group_name_prefix, limit: a.max_items, nextToken: a.next_token })));
tool('describe_log_streams', 'List the streams of a log group, newest first by default.', {
  log_group_name: z.string(), log_stream_name_prefix: opt(z.string(), 'Only streams whose name starts with this'), limit: opt(z.number().int(), 'Maximum number of streams (max 50)'),
}, (a, c) => c.logs.send(new Logs.DescribeLogStreamsCommand({ logGroupName: a.log_group_name, logStreamNamePrefix: a.log_stream_name_prefix, limit: a.limit, ...(a.log_stream_name_prefix ? {} : { orderBy: 'LastEventTime', descending: true }) })));
tool('filter_log_events', 'Search the events of a log group with a CloudWatch filter pattern (terms, "phrases", ?any), over an optional time window (epoch ms).', {
  log_group_name: z.string(), filter_pattern: opt(z.string(), 'e.g. ERROR, "Task timed out", ?ERROR ?WARN'), start_time: opt(z.number().int(), 'Epoch milliseconds'),
  end_time: opt(z.number().int(), 'Epoch milliseconds'), log_stream_names: opt(z.array(z.string()), 'Only these streams'), limit: opt(z.number().int(), 'Maximum number of events'), next_token: opt(z.string(), 'nextToken of the previous page'),
}, (a, c) => c.logs.send(new Logs.FilterLogEventsCommand({ logGroupName: a.log_group_name, filterPattern: a.filter_pattern, startTime: a.start_time, endTime: a.end_time, logStreamNames: a.log_stream_names, limit: a.limit, nextToken: a.next_token })));
tool('get_log_events', 'Read the events of one log stream, oldest first.', {
  log_group_name: z.string(), log_stream_name: z.string(), limit: opt(z.number().int(), 'Maximum number of events'), next_token: opt(z.string(), 'nextForwardToken of the previous page'),
}, (a, c) => c.logs.send(new Logs.GetLogEventsCommand({ logGroupName: a.log_group_name, logStreamName: a.log_stream_name, limit: a.limit, nextToken: a.next_token, startFromHead: true })));

// ---- DynamoDB ----
const table_name = z.string().describe('Table name');
tool('list_tables', 'Returns a paginated list of table names in your account.', { exclusive_start_table_name: opt(z.string(), 'LastEvaluatedTableName of the previous page'), limit: opt(z.number().int(), 'Maximum number of names') },
  (a, c) => c.dynamodb.send(new DDB.ListTablesCommand({ ExclusiveStartTableName: a.exclusive_start_table_name, Limit: a.limit })));
tool('describe_table', 'Returns table information including status, creation time, key schema and item count.', { table_name },
  (a, c) => c.dynamodb.send(new DDB.DescribeTableCommand({ TableName: a.table_name })));
tool('get_item', 'Returns attributes for an item with the given primary key.', { table_name, key: AttributeMap },
  (a, c) => c.dynamodb.send(new DDB.GetItemCommand({ TableName: a.table_name, Key: a.key as never })));
tool('put_item', 'Creates a new item or replaces an existing item in a table.', { table_name, item: AttributeMap, condition_expression: opt(z.string(), 'e.g. attribute_not_exists(id)'), expression_attribute_values: opt(AttributeMap, 'Values of the condition') },
  (a, c) => c.dynamodb.send(new DDB.PutItemCommand({ TableName: a.table_name, Item: a.item as never, ConditionExpression: a.condition_expression, ExpressionAttributeValues: a.expression_attribute_values as never })));
const readArgs = {
  filter_expression: opt(z.string(), 'e.g. #s = :s'), expression_attribute_names: opt(z.record(z.string()), 'e.g. {"#s": "status"}'),
  expression_attribute_values: opt(AttributeMap, 'e.g. {":s": {"S": "pending"}}'), limit: opt(z.number().int(), 'Maximum items evaluated'), exclusive_start_key: opt(AttributeMap, 'LastEvaluatedKey of the previous page'),
};
tool('query', 'Returns items from a table matching a partition key value, with optional sort key and filter conditions.', {
  table_name, key_condition_expression: z.string().describe('e.g. pk = :pk AND begins_with(sk, :p)'), ...readArgs, scan_index_forward: opt(z.boolean(), 'false for descending sort key order'),
}, (a, c) => c.dynamodb.send(new DDB.QueryCommand({
  TableName: a.table_name, KeyConditionExpression: a.key_condition_expression, FilterExpression: a.filter_expression, ExpressionAttributeNames: a.expression_attribute_names,
  ExpressionAttributeValues: a.expression_attribute_values as never, Limit: a.limit, ExclusiveStartKey: a.exclusive_start_key as never, ScanIndexForward: a.scan_index_forward,
})));
tool('scan', 'Returns items and attributes by scanning a table, with an optional filter.', { table_name, ...readArgs }, (a, c) => c.dynamodb.send(new DDB.ScanCommand({
  TableName: a.table_name, FilterExpression: a.filter_expression, ExpressionAttributeNames: a.expression_attribute_names,
  ExpressionAttributeValues: a.expression_attribute_values as never, Limit: a.limit, ExclusiveStartKey: a.exclusive_start_key as never,
})));

export const TOOLS: Tool[] = defs.map((d) => ({ name: d.name, description: d.description, inputSchema: jsonSchema(d.input) as Tool['inputSchema'] }));

/** Runs a tool: arguments checked with its zod schema, the SDK's output (without `$metadata`) as JSON text. */
export async function runTool(clients: Clients, name: string, args: unknown): Promise<string> {
  const def = defs.find((d) => d.name === name);
  if (!def) throw new Error(`Unknown tool: ${name}`);
  const parsed = def.input.safeParse(args ?? {});
  if (!parsed.success) throw new Error(`Invalid arguments for ${name}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
  const out = await def.run(parsed.data, clients) as Record<string, unknown> | undefined;
  const { $metadata: _metadata, ...rest } = out ?? {};
  return JSON.stringify(rest, null, 2);
}
