import { fileURLToPath } from 'node:url';
import { schemaExample, type JsonSchema, type SweepProfile } from '../kit/sweep-profile.js';

/** Evaluation datasets the GenAI tools read from disk before they upload them. */
const CSV = fileURLToPath(new URL('./conformance/eval-dataset.csv', import.meta.url).href.replace('/dist/', '/'));
const JSONL = CSV.replace(/\.csv$/, '.jsonl');
const METRIC = '00000000-0000-4000-8000-00000000beef';

/**
 * How the conformance suite and `toolbench coverage` call all 353 tools of DigitalOcean's MCP
 * server, in Harbor Labs' team (mocks/digitalocean/conformance): creates first, deletes last.
 * Arguments are the required ones from each tool's schema (an enum's first value, a number at
 * its minimum, `sweep-<name>` strings), then values that pass the server's own checks before it
 * calls the API (`TOOLS`), then ids of the world: a Droplet, tag, volume and domain of the
 * dataset, and the uptime check and alert the sweep itself created (the server's uptime tools
 * retry an error answer until their deadline, so they are called on a check that exists).
 */

const DROPLET = 398100201; // web-prod-01
const SPARE_DROPLET = 398101434; // sandbox-dana, deleted last

/** Arguments that get past the server's own validation, by tool. */
const TOOLS: Record<string, Record<string, unknown>> = {
  'apps-create-app-from-spec': { spec: { name: 'sweep-app', region: 'nyc', services: [{ name: 'web', github: { repo: 'harborlabs/web', branch: 'main' } }] } },
  'apps-update': { update: { app_id: '00000000-0000-4000-8000-000000000000', request: { spec: { name: 'sweep-app' } } } },
  'byoip-prefix-create': { Prefix: '203.0.113.0/24', Region: 'nyc3', Signature: 'sweep-signature', prefix: '203.0.113.0/24', region: 'nyc3', signature: 'sweep-signature' },
  'genai-create-evaluation-dataset': { file_path: CSV },
  'genai-model-eval-create-dataset': { file_path: JSONL },
  'genai-run-evaluation-workflow': { dataset_file_path: CSV, metric_categories: ['correctness'] },
  'genai-model-eval-run-workflow': { dataset_file_path: JSONL, timeout_seconds: 1, poll_interval_seconds: 1 },
  'genai-create-evaluation-test-case': { workspace_uuid: '00000000-0000-4000-8000-000000000000', metrics: [METRIC] },
  'genai-model-eval-create-run': { dataset_uuid: '00000000-0000-4000-8000-000000000000', metric_uuids: [METRIC] },
  'docs-troubleshoot': { Symptom: 'resize' },
  'db-cluster-update-firewall-rules': { rules: [{ type: 'ip_addr', value: '192.0.2.10' }] },
  'dedicated-inference-update': { ModelDeployments: [{ model_slug: 'llama3-8b-instruct', accelerators: [{ type: 'gpu-h100x1', scale: 1 }] }] },
  'doks-create-nodepool': { node_pool_create_request: { name: 'sweep-pool', size: 's-2vcpu-4gb', count: 1 } },
  'droplet-create': { Name: 'sweep-droplet', Region: 'nyc3', Size: 's-1vcpu-1gb', ImageSlug: 'ubuntu-24-04-x64' },
  'firewall-add-rules': { InboundRules: [{ Protocol: 'tcp', PortRange: '8080', Sources: ['0.0.0.0/0'] }] },
  'firewall-remove-rules': { InboundRules: [{ Protocol: 'tcp', PortRange: '8080', Sources: ['0.0.0.0/0'] }] },
  'genai-custom-models-delete': { uuid: '00000000-0000-4000-8000-000000000000', confirm_deletion: true },
  'genai-custom-models-import': { accept_terms_and_conditions: true, source_type: 'SOURCE_TYPE_HUGGINGFACE', source_ref: { repo_id: 'harborlabs/support-llm', commit_sha: '3f1c2e9a7b6d5c4e3f2a1b0c9d8e7f6a5b4c3d2e' } },
  'genai-custom-models-update-metadata': { description: 'sweep' },
  'genai-list-evaluation-test-cases': { workspace_uuid: '00000000-0000-4000-8000-000000000000' },
  'genai-inference-router-update': { Name: 'sweep-router' },
  'genai-model-eval-cancel-run': { confirm_cancel: true },
  'genai-model-eval-delete-custom-metric': { confirm_deletion: true },
  'genai-model-eval-delete-dataset': { confirm_deletion: true },
  'genai-model-eval-delete-preset': { confirm_deletion: true },
  'genai-model-eval-delete-run': { confirm_deletion: true },
  'genai-model-eval-update-custom-metric': { description: 'sweep' },
  'genai-simulation-cancel-run': { confirm_cancel: true },
  'genai-simulation-create-scenario-set': { scenarios: [{ name: 'Refund request', description: 'A customer asks for a refund.' }] },
  'genai-simulation-delete-run': { confirm_deletion: true },
  'genai-simulation-delete-scenario-set': { confirm_deletion: true },
  'genai-simulation-update-scenario-set': { name: 'sweep-scenarios' },
  'genai-batch-inference-upload-file': { UploadURL: 'https://inference.do-ai.run/v1/batches/files/sweep/content?X-Amz-Signature=sweep', Content: '{"custom_id":"1"}' },
  'lb-add-fwd-rules': { ForwardingRules: [JSON.stringify({ entry_protocol: 'http', entry_port: 80, target_protocol: 'http', target_port: 8080 })] },
  'lb-remove-fwd-rules': { ForwardingRules: [JSON.stringify({ entry_protocol: 'http', entry_port: 80, target_protocol: 'http', target_port: 8080 })] },
  'lb-create': { Region: 'nyc3', ForwardingRules: [JSON.stringify({ entry_protocol: 'http', entry_port: 80, target_protocol: 'http', target_port: 8080 })] },
  'lb-update': { Region: 'nyc3', Type: 'REGIONAL', ForwardingRules: [JSON.stringify({ entry_protocol: 'http', entry_port: 80, target_protocol: 'http', target_port: 8080 })] },
  'nfs-file-share-create': { SizeGibibytes: 50, Region: 'nyc3' },
  'nfs-resize': { SizeGibibytes: 100 },
  'reserved-ip-assign': { IP: '45.55.96.47', Type: 'ipv4', DropletID: DROPLET },
  'reserved-ip-get': { IP: '45.55.96.47' },
  'reserved-ip-list': { Type: 'ipv4' },
  'reserved-ip-release': { IP: '45.55.96.47', Type: 'ipv4' },
  'reserved-ip-reserve': { Region: 'nyc3', Type: 'ipv4' },
  'reserved-ip-unassign': { IP: '45.55.96.47', Type: 'ipv4' },
  'uptimecheck-create': { Name: 'sweep-check', Type: 'https', Target: 'https://harborlabs.dev', Regions: ['us_east'], Enabled: true },
  'uptimecheck-update': { Name: 'sweep-check', Type: 'https', Target: 'https://harborlabs.dev', Regions: ['us_east'], Enabled: true },
  'uptimecheck-alert-create': { Name: 'sweep-alert', Type: 'latency', Period: '2m', Emails: ['infra@harborlabs.dev'], SlackDetails: [{ channel: '#ops', url: 'https://hooks.slack.com/services/T0/B0/sweep' }], Threshold: 300, Comparison: 'greater_than' },
  'uptimecheck-alert-update': { Name: 'sweep-alert', Type: 'latency', Period: '2m', Emails: ['infra@harborlabs.dev'], SlackDetails: [{ channel: '#ops', url: 'https://hooks.slack.com/services/T0/B0/sweep' }], Threshold: 500, Comparison: 'greater_than' },
  'domain-create': { Name: 'sweep-harborlabs.dev', IPAddress: '203.0.113.7' },
  'domain-delete': { Name: 'sweep-harborlabs.dev' },
  'key-create': { Name: 'sweep-key', PublicKey: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHN3ZWVwa2V5MDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAw sweep@ci' },
  'volume-create': { Name: 'sweep-volume', Region: 'nyc3', SizeGigaBytes: 10 },
  'firewall-create': { Name: 'sweep-fw', InboundProtocol: 'tcp', InboundPortRange: '22', InboundSource: '0.0.0.0/0', OutboundProtocol: 'tcp', OutboundPortRange: 'all', OutboundDestination: '0.0.0.0/0' },
  'docs-get-page': { URL: '/products/droplets/how-to/resize/' },
  // Another page than docs-get-page's: the server caches pages it has read.
  'docs-get-related': { URL: 'https://docs.digitalocean.com/products/droplets/how-to/snapshot/' },
  'docs-find-for-service': { Service: 'droplets' },
  'docs-get-quickstart': { Service: 'droplets' },
  'docs-search': { Query: 'resize droplet' },
  'droplet-delete': { ID: SPARE_DROPLET },
};

/** create < reads < updates and actions < deletes; the uptime check before everything that uses it. */
export function rank(tool: string): number {
  if (tool === 'uptimecheck-create') return -2;
  if (tool === 'uptimecheck-alert-create') return -1;
  if (tool === 'droplet-delete' || tool === 'domain-delete') return 9;
  if (/-(create|reserve)(-|$)|^create|-import$/.test(tool)) return 0;
  if (/-(delete|release)(-|$)|^delete/.test(tool)) return 3;
  if (/-(get|list)(-|$)|^get|search|^docs/.test(tool)) return 1;
  return 2;
}

/** The last segment of the first key of a fallback collection (`spec:/v2/uptime/checks`). */
function firstId(state: Record<string, Record<string, unknown>>, collection: string, prefix?: string): string | undefined {
  return Object.keys(state[`spec:${collection}`] ?? {}).filter((k) => !prefix || k.startsWith(prefix)).sort().at(0)?.split('/').at(-1);
}

export const sweep: SweepProfile = {
  scenario: 'mocks/digitalocean/conformance',
  order: rank,
  // functions-deployment-guide answers from text built into the server. The load balancer tools
  // that take forwarding rules refuse every rule string we could construct ("invalid rule
  // format": the format is not in the tool's schema, its description or DigitalOcean's docs), so
  // they never reach the API in the sweep; docs/digitalocean-mock.md lists them as a gap.
  offline: ['functions-deployment-guide', 'lb-create', 'lb-update', 'lb-add-fwd-rules', 'lb-remove-fwd-rules'],
  argsFor(tool, state) {
    const properties = (tool.inputSchema.properties ?? {}) as Record<string, JsonSchema>;
    const args: Record<string, unknown> = {};
    for (const name of (tool.inputSchema.required ?? []) as string[]) if (properties[name]) args[name] = schemaExample(properties[name]!, name);
    const name = tool.name;
    // Ids of the world, by what the tool works on.
    const isDroplet = /droplet(s)?(-|$)|^droplet-/.test(name) && !/-tag$/.test(name) && !name.startsWith('firewall-');
    if ('ID' in properties && isDroplet) args.ID = DROPLET;
    if ('DropletID' in properties) args.DropletID = DROPLET;
    if ('DropletIDs' in properties) args.DropletIDs = name.startsWith('lb-') ? [String(DROPLET)] : [DROPLET];
    if (name.startsWith('firewall-') && 'ID' in properties) {
      // The server retries an error answer until its deadline: firewalls that exist (the sweep's own for the delete).
      const firewalls = Object.values(state.firewalls ?? {}) as { id: string; name: string }[];
      args.ID = (name === 'firewall-delete' ? firewalls.find((f) => f.name === 'sweep-fw') : firewalls.find((f) => f.name === 'web-public'))?.id ?? 'missing';
    }
    if ('Tag' in properties) args.Tag = 'worker';
    if ('Domain' in properties) args.Domain = 'harborlabs.dev';
    if (name.startsWith('domain-record-') && 'RecordID' in properties) args.RecordID = 1730398103;
    if (name.startsWith('domain-') && !name.startsWith('domain-record') && 'Name' in properties && name !== 'domain-create') args.Name = 'harborlabs.dev';
    if (name.startsWith('uptimecheck-')) {
      const check = firstId(state, '/v2/uptime/checks');
      if (check) {
        if ('ID' in properties) args.ID = check;
        if ('CheckID' in properties) args.CheckID = check;
        const alert = firstId(state, '/v2/uptime/checks/{check_id}/alerts', `/v2/uptime/checks/${check}/alerts/`);
        if (alert && 'AlertID' in properties) args.AlertID = alert;
      }
    }
    if ('LoadBalancerID' in properties) args.LoadBalancerID = '4de7ac8b-495b-4884-9a69-1050c6793cd6';
    return { ...args, ...(TOOLS[name] ?? {}) };
  },
};
