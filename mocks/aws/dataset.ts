import { z } from 'zod';

/**
 * One AWS account as a scenario writes it (docs/aws-mock.md): its access keys (the SigV4 credential
 * table), IAM users and roles, S3 buckets with their objects, EC2 instances and security groups,
 * Lambda functions (with the deterministic answers their invocations give), CloudWatch Logs groups
 * and DynamoDB tables. Every field has a default, so a missing file is an empty account.
 */

const Tags = z.record(z.string()).default({});
const Iso = z.string().regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/, 'an ISO time in UTC, e.g. 2025-01-02T03:04:05Z');

export const CredentialSchema = z.object({
  access_key_id: z.string().regex(/^(AKIA|ASIA)[A-Z0-9]{12,}$/),
  secret_access_key: z.string().min(16),
  /** The IAM user the key belongs to (GetCallerIdentity's ARN). */
  user: z.string().min(1),
}).strict();

const AttachedPolicy = z.object({ name: z.string(), arn: z.string() }).strict();

export const UserSchema = z.object({
  name: z.string().min(1),
  id: z.string().optional(),
  path: z.string().default('/'),
  created: Iso,
  password_last_used: Iso.optional(),
  attached_policies: z.array(AttachedPolicy).default([]),
  tags: Tags,
}).strict();

export const RoleSchema = z.object({
  name: z.string().min(1),
  id: z.string().optional(),
  path: z.string().default('/'),
  description: z.string().default(''),
  created: Iso,
  assume_role_policy: z.record(z.unknown()).default({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' }] }),
  attached_policies: z.array(AttachedPolicy).default([]),
  max_session_duration: z.number().int().default(3600),
  tags: Tags,
}).strict();

export const PublicAccessBlockSchema = z.object({
  BlockPublicAcls: z.boolean(), IgnorePublicAcls: z.boolean(), BlockPublicPolicy: z.boolean(), RestrictPublicBuckets: z.boolean(),
}).strict();

export const GrantSchema = z.object({
  /** `owner` (the account's canonical user), `AllUsers`, `AuthenticatedUsers` or `LogDelivery` (groups). */
  grantee: z.enum(['owner', 'AllUsers', 'AuthenticatedUsers', 'LogDelivery']),
  permission: z.enum(['FULL_CONTROL', 'READ', 'WRITE', 'READ_ACP', 'WRITE_ACP']),
}).strict();

export const ObjectSchema = z.object({
  key: z.string().min(1),
  body: z.string().default(''),
  content_type: z.string().default('binary/octet-stream'),
  last_modified: Iso,
  storage_class: z.string().default('STANDARD'),
  tags: Tags,
}).strict();

export const BucketSchema = z.object({
  name: z.string().regex(/^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/, 'a DNS-compatible bucket name without dots'),
  region: z.string().default('us-east-1'),
  created: Iso,
  /** The bucket policy as JSON text, or null when it has none. */
  policy: z.string().nullable().default(null),
  public_access_block: PublicAccessBlockSchema.nullable().default(null),
  acl: z.array(GrantSchema).default([{ grantee: 'owner', permission: 'FULL_CONTROL' }]),
  tags: Tags,
  objects: z.array(ObjectSchema).default([]),
}).strict();

export const SecurityGroupSchema = z.object({
  id: z.string().regex(/^sg-[0-9a-f]{8,17}$/),
  name: z.string(),
  description: z.string().default(''),
  vpc_id: z.string().default('vpc-0a1b2c3d'),
  ingress: z.array(z.object({
    protocol: z.string(), from_port: z.number().int().optional(), to_port: z.number().int().optional(),
    cidrs: z.array(z.string()).default([]), description: z.string().optional(),
  }).strict()).default([]),
  tags: Tags,
}).strict();

export const InstanceSchema = z.object({
  id: z.string().regex(/^i-[0-9a-f]{8,17}$/),
  type: z.string().default('t3.micro'),
  state: z.enum(['pending', 'running', 'stopping', 'stopped', 'shutting-down', 'terminated']).default('running'),
  image_id: z.string().default('ami-0c55b159cbfafe1f0'),
  launched: Iso,
  az: z.string().default('us-east-1a'),
  private_ip: z.string(),
  public_ip: z.string().nullable().default(null),
  subnet_id: z.string().default('subnet-0a1b2c3d'),
  vpc_id: z.string().default('vpc-0a1b2c3d'),
  security_groups: z.array(z.string()).default([]),
  key_name: z.string().optional(),
  tags: Tags,
}).strict();

/** One deterministic answer of a function: chosen by the first rule whose `when` is a subset of the event. */
export const InvocationRuleSchema = z.object({
  when: z.record(z.unknown()).default({}),
  /** Environment variables the function must have (a subset) for this rule to answer. */
  env: z.record(z.string()).default({}),
  result: z.unknown().optional(),
  error: z.object({ type: z.string(), message: z.string() }).strict().optional(),
  /** Lines the invocation writes to /aws/lambda/<name> between START and END. */
  log: z.array(z.string()).default([]),
}).strict();

export const FunctionSchema = z.object({
  name: z.string().min(1),
  runtime: z.string().default('python3.12'),
  handler: z.string().default('app.handler'),
  role: z.string(),
  description: z.string().default(''),
  memory: z.number().int().default(128),
  timeout: z.number().int().default(3),
  environment: z.record(z.string()).default({}),
  last_modified: Iso,
  code_sha256: z.string().default('47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='),
  code_size: z.number().int().default(1024),
  tags: Tags,
  /** How invocations answer; without a matching rule, `null`. */
  invocations: z.array(InvocationRuleSchema).default([]),
}).strict();

export const LogGroupSchema = z.object({
  name: z.string().min(1),
  created: Iso,
  retention_days: z.number().int().nullable().default(null),
  streams: z.array(z.object({
    name: z.string().min(1),
    events: z.array(z.object({ timestamp: Iso, message: z.string() }).strict()).default([]),
  }).strict()).default([]),
}).strict();

/** A DynamoDB attribute value in the wire format (`{"S": "x"}`, `{"N": "1"}`, `{"M": {...}}`). */
export const AttributeValueSchema: z.ZodType<Record<string, unknown>> = z.record(z.unknown());

export const TableSchema = z.object({
  name: z.string().min(3),
  hash_key: z.object({ name: z.string(), type: z.enum(['S', 'N', 'B']) }).strict(),
  range_key: z.object({ name: z.string(), type: z.enum(['S', 'N', 'B']) }).strict().optional(),
  created: Iso,
  billing_mode: z.enum(['PAY_PER_REQUEST', 'PROVISIONED']).default('PAY_PER_REQUEST'),
  items: z.array(z.record(AttributeValueSchema)).default([]),
}).strict();

export const AwsDatasetSchema = z.object({
  account_id: z.string().regex(/^\d{12}$/).default('123456789012'),
  region: z.string().default('us-east-1'),
  credentials: z.array(CredentialSchema).default([]),
  iam: z.object({ users: z.array(UserSchema).default([]), roles: z.array(RoleSchema).default([]) }).strict().default({}),
  s3: z.object({ buckets: z.array(BucketSchema).default([]) }).strict().default({}),
  ec2: z.object({ instances: z.array(InstanceSchema).default([]), security_groups: z.array(SecurityGroupSchema).default([]) }).strict().default({}),
  lambda: z.object({ functions: z.array(FunctionSchema).default([]) }).strict().default({}),
  logs: z.object({ groups: z.array(LogGroupSchema).default([]) }).strict().default({}),
  dynamodb: z.object({ tables: z.array(TableSchema).default([]) }).strict().default({}),
}).strict();

export type AwsDataset = z.infer<typeof AwsDatasetSchema>;
export type BucketData = z.infer<typeof BucketSchema>;
export type InvocationRule = z.infer<typeof InvocationRuleSchema>;
