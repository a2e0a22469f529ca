import type { SweepProfile } from '../kit/sweep-profile.js';

/**
 * How the conformance suite and `toolbench coverage` call every tool of toolbench's AWS MCP server
 * in the conformance account (mocks/aws/conformance): reads first, then writes, deletes last; every
 * argument names something that exists there, so each call succeeds through the SDK.
 */
const ARGS: Record<string, Record<string, unknown>> = {
  get_caller_identity: {},
  list_users: { path_prefix: '/', max_items: 10 },
  list_roles: { path_prefix: '/service-role/' },
  list_attached_role_policies: { role_name: 'orders-api-lambda' },
  list_buckets: {},
  list_objects: { bucket: 'acme-web-assets', prefix: 'img/', max_keys: 10 },
  get_object: { bucket: 'acme-web-assets', key: 'index.html' },
  get_bucket_policy: { bucket: 'acme-web-assets' },
  get_public_access_block: { bucket: 'acme-invoices' },
  get_bucket_acl: { bucket: 'acme-web-assets' },
  get_bucket_tagging: { bucket: 'acme-web-assets' },
  describe_instances: { filters: [{ Name: 'tag:env', Values: ['prod'] }] },
  describe_security_groups: { group_ids: ['sg-0a1b2c3d4e5f60001'] },
  list_functions: {},
  get_function: { function_name: 'orders-api' },
  invoke_function: { function_name: 'orders-api', payload: { orderId: 'o-1' } },
  describe_log_groups: { log_group_name_prefix: '/aws/' },
  describe_log_streams: { log_group_name: '/aws/lambda/orders-api' },
  filter_log_events: { log_group_name: '/aws/lambda/orders-api', filter_pattern: 'ERROR' },
  get_log_events: { log_group_name: '/ecs/web', log_stream_name: 'web/app/1' },
  list_tables: {},
  describe_table: { table_name: 'orders' },
  get_item: { table_name: 'orders', key: { customerId: { S: 'c-100' }, orderId: { S: 'o-1' } } },
  query: { table_name: 'orders', key_condition_expression: 'customerId = :c', expression_attribute_values: { ':c': { S: 'c-100' } } },
  scan: { table_name: 'sessions', limit: 5 },
  put_object: { bucket: 'acme-logs-archive', key: 'sweep/readme.txt', body: 'made by the sweep', content_type: 'text/plain' },
  put_bucket_policy: { bucket: 'acme-logs-archive', policy: JSON.stringify({ Version: '2012-10-17', Statement: [{ Sid: 'Logs', Effect: 'Allow', Principal: { Service: 'logging.s3.amazonaws.com' }, Action: 's3:PutObject', Resource: 'arn:aws:s3:::acme-logs-archive/*' }] }) },
  put_public_access_block: { bucket: 'acme-web-assets', block_public_acls: true, ignore_public_acls: true, block_public_policy: true, restrict_public_buckets: true },
  put_bucket_acl: { bucket: 'acme-web-assets', acl: 'private' },
  put_bucket_tagging: { bucket: 'acme-logs-archive', tags: { retention: '7y' } },
  stop_instances: { instance_ids: ['i-0abc1234def567802'] },
  start_instances: { instance_ids: ['i-0abc1234def567803'] },
  authorize_security_group_ingress: { group_id: 'sg-0a1b2c3d4e5f60002', ip_permissions: [{ IpProtocol: 'tcp', FromPort: 22, ToPort: 22, IpRanges: [{ CidrIp: '198.51.100.7/32', Description: 'vpn' }] }] },
  revoke_security_group_ingress: { group_id: 'sg-0a1b2c3d4e5f60001', ip_permissions: [{ IpProtocol: 'tcp', FromPort: 80, ToPort: 80, IpRanges: [{ CidrIp: '0.0.0.0/0' }] }] },
  update_function_configuration: { function_name: 'thumbnailer', timeout: 30, environment: { SIZE: '256' } },
  put_item: { table_name: 'sessions', item: { sessionId: { S: 's-sweep' }, user: { S: 'sweep' } } },
  delete_bucket_policy: { bucket: 'acme-web-assets' },
  delete_object: { bucket: 'acme-logs-archive', key: 'sweep/readme.txt' },
};

export function rank(tool: string): number {
  if (tool.startsWith('delete_')) return 3;
  if (/^(put|stop|start|authorize|revoke|update)_/.test(tool)) return tool === 'put_object' ? 1 : 2;
  return 0;
}

export const sweep: SweepProfile = {
  scenario: 'mocks/aws/conformance',
  order: rank,
  argsFor: (tool) => ARGS[tool.name] ?? {},
};
