import type { SweepProfile } from '../kit/sweep-profile.js';

/**
 * How the conformance suite and `toolbench coverage` call all 89 tools of
 * @cloudflare/mcp-server-cloudflare 0.2.0 in Acme Corp's account (mocks/cloudflare/conformance):
 * creates first, reads and updates next, deletes last; every argument names something that exists.
 */
export const ACCOUNT = '5f2c8e1a9b7d4c3e8a6f0b1d2e3c4a5b';
const EDGE_CONFIG = '8209fffe3da5ac9e4506974a53801bdc';
const EXAMPLE_COM = 'aad9930b9d65bfc3a47abe3e97198baf';
const ROUTE = 'cbe9c2bd70ab46f357d0b9a8cc4b56b6';
const DO_NAMESPACE = 'ab34fb48a39e5deabaf40f22cf6c77cc';
const SHOP_PROD = '6b1e3c2a-8d4f-4a9b-9c1d-2e3f4a5b6c7d';
const SCRIPT = 'edge-router';

/**
 * The tools that never call the API when called over MCP: 0.2.0 reads their arguments from
 * `request.params.input` (MCP sends `params.arguments`), so they throw before any request or
 * answer canned test data (`zones_list`, `workflow_list`, `cron_list`). A dozen more read
 * `params.input` too but still call the API with `undefined` or a built-in default in the path
 * (`secret_*`, `workflow_get`, `cron_update`, `queue_list`, …): those reach the mock, which
 * answers as Cloudflare would. docs/cloudflare-mock.md lists them all; the sweep still calls
 * each tool with valid arguments.
 */
export const OFFLINE = [
  'do_create_namespace', 'do_delete_namespace', 'do_get_object', 'do_list_objects', 'do_delete_object', 'do_alarm_list', 'do_alarm_set', 'do_alarm_delete',
  'queue_create', 'queue_delete', 'queue_get', 'queue_send_message', 'queue_send_batch', 'queue_get_message', 'queue_delete_message', 'queue_update_visibility',
  'ai_inference', 'ai_get_model', 'ai_embeddings', 'ai_text_generation', 'ai_image_generation',
  'workflow_list', 'workflow_update', 'workflow_execute',
  'wfp_create_dispatch_namespace', 'wfp_delete_dispatch_namespace', 'wfp_add_custom_domain', 'wfp_remove_custom_domain', 'wfp_list_custom_domains',
  'service_binding_create', 'service_binding_delete', 'service_binding_list', 'service_binding_update',
  'env_var_set', 'env_var_delete', 'env_var_list', 'env_var_bulk_set',
  'route_create', 'route_delete', 'route_list', 'route_update',
  'cron_create', 'cron_delete', 'cron_list',
  'zones_list', 'zones_get',
  'version_list', 'version_get', 'version_rollback',
  'wrangler_config_get', 'wrangler_config_update',
];

const ARGS: Record<string, Record<string, unknown>> = {
  // KV
  get_kvs: {},
  kv_put: { namespaceId: EDGE_CONFIG, key: 'sweep:key', value: 'swept' },
  kv_get: { namespaceId: EDGE_CONFIG, key: 'banner_text' },
  kv_list: { namespaceId: EDGE_CONFIG, prefix: 'origin:', limit: 10 },
  kv_delete: { namespaceId: EDGE_CONFIG, key: 'sweep:key' },
  // Workers
  worker_list: {},
  worker_get: { name: SCRIPT },
  worker_put: { name: 'sweep-worker', script: 'export default { async fetch() { return new Response("sweep"); } };', compatibility_date: '2025-06-01', skip_workers_dev: true },
  worker_deploy: { name: 'sweep-deployed', scriptContent: 'export default { async fetch() { return new Response("deployed"); } };', bindings: [{ type: 'kv_namespace', name: 'CONFIG', namespace_id: EDGE_CONFIG }] },
  worker_delete: { name: 'sweep-worker' },
  // R2
  r2_list_buckets: {},
  r2_create_bucket: { name: 'sweep-bucket' },
  r2_put_object: { bucket: 'sweep-bucket', key: 'notes/sweep.txt', content: 'hello from the sweep', contentType: 'text/plain' },
  r2_get_object: { bucket: 'acme-exports', key: 'README.txt' },
  r2_list_objects: { bucket: 'acme-exports', prefix: 'exports/', limit: 10 },
  r2_delete_object: { bucket: 'sweep-bucket', key: 'notes/sweep.txt' },
  r2_delete_bucket: { name: 'sweep-bucket' },
  // D1 (d1_delete_database: argsFor finds the created database's uuid)
  d1_list_databases: {},
  d1_create_database: { name: 'sweep-db' },
  d1_query: { databaseId: SHOP_PROD, query: 'SELECT id, status FROM orders WHERE customer = ? ORDER BY id LIMIT 5', params: ['cust_007'] },
  // Analytics and domains
  analytics_get: { zoneId: EXAMPLE_COM, since: '2025-11-15T00:00:00Z' },
  workers_analytics_search: { accountId: ACCOUNT, scriptName: 'checkout-v2', startTime: '2025-11-30T00:00:00Z', endTime: '2025-11-30T23:59:59Z', limit: 10 },
  domain_list: {},
  template_list: {},
  do_list_namespaces: {},
  // The tools that never reach the API (OFFLINE), called with valid arguments all the same.
  do_create_namespace: { name: 'sweep-ns', script: SCRIPT, className: 'Sweep' },
  do_delete_namespace: { namespaceId: DO_NAMESPACE },
  do_get_object: { namespaceId: DO_NAMESPACE, objectId: 'cart-1' },
  do_list_objects: { namespaceId: DO_NAMESPACE, limit: 10 },
  do_delete_object: { namespaceId: DO_NAMESPACE, objectId: 'cart-1' },
  do_alarm_list: { namespaceId: DO_NAMESPACE, objectId: 'cart-1' },
  do_alarm_set: { namespaceId: DO_NAMESPACE, objectId: 'cart-1', scheduledTime: '2025-12-02T00:00:00Z' },
  do_alarm_delete: { namespaceId: DO_NAMESPACE, objectId: 'cart-1' },
  route_list: { zoneId: EXAMPLE_COM },
  route_create: { zoneId: EXAMPLE_COM, pattern: 'sweep.example.com/*', scriptName: SCRIPT },
  route_update: { zoneId: EXAMPLE_COM, routeId: ROUTE, pattern: 'api.example.com/*', scriptName: SCRIPT },
  route_delete: { zoneId: EXAMPLE_COM, routeId: ROUTE },
  zones_get: { zoneId: EXAMPLE_COM },
  zones_list: {},
};

/** Creates, then reads and updates, then deletes (the sweep's own records last). */
export function rank(tool: string): number {
  if (/create|_put$|deploy|_set$|send/.test(tool)) return 0;
  if (/delete|remove|rollback/.test(tool)) return tool === 'r2_delete_bucket' ? 3 : 2;
  return 1;
}

export const sweep: SweepProfile = {
  scenario: 'mocks/cloudflare/conformance',
  order: rank,
  offline: OFFLINE,
  argsFor: (tool, state) => {
    if (tool.name === 'd1_delete_database') {
      const created = Object.values(state.d1_databases ?? {}).find((d) => (d as { name: string }).name === 'sweep-db') as { uuid: string } | undefined;
      return { databaseId: created?.uuid ?? SHOP_PROD };
    }
    return ARGS[tool.name] ?? generic(tool.name, tool.inputSchema);
  },
};

/** Valid-looking values for the rest, by property name. */
function generic(name: string, schema: { [key: string]: unknown }): Record<string, unknown> {
  const props = Object.keys((schema.properties ?? {}) as Record<string, unknown>);
  const values: Record<string, unknown> = {
    scriptName: SCRIPT, name: `sweep-${name.replace(/_/g, '-')}`, queueId: 'orders-queue', message: 'hello', messages: ['a', 'b'], messageId: 'msg-1', receiptHandle: 'rh-1',
    visibilityTimeout: 30, model: '@cf/meta/llama-3.1-8b-instruct', input: { prompt: 'hi' }, prompt: 'hi', text: 'hi', options: {},
    workflowId: 'order-fulfilment', content: 'export class Flow {}', templateId: 'hello-world', config: {}, namespaceId: 'dispatch-ns', hostname: 'tenant.example.com',
    zoneId: EXAMPLE_COM, bindingName: 'AUTH', service: 'auth-service', environment: 'production', key: 'LOG_LEVEL', value: 'debug', vars: { LOG_LEVEL: 'debug' },
    cronExpression: '*/15 * * * *', cronTriggers: ['*/15 * * * *'], secretName: 'API_KEY', secretValue: 's3cret', versionId: 'v1', testMode: 'false',
  };
  return Object.fromEntries(props.filter((p) => p in values).map((p) => [p, values[p]]));
}
