import type { SweepProfile } from '../kit/sweep-profile.js';

/**
 * How the conformance suite and `toolbench coverage` call all 20 tools of LaunchDarkly's MCP
 * server, in Northwind's account (mocks/launchdarkly/conformance): creates first, reads and
 * updates next, deletes last. Every tool takes one `request` object; the keys below name flags,
 * AI configs and variations of the conformance world (or the sweep's own creates), so each call
 * reaches the operation itself and the server's strict response validation, not a 404.
 */
const P = 'storefront';

const REQUESTS: Record<string, Record<string, unknown>> = {
  'create-feature-flag': { projectKey: P, FeatureFlagBody: { name: 'Sweep flag', key: 'sweep-flag', description: 'Made by the conformance sweep', tags: ['sweep'] } },
  'create-ai-config': { projectKey: P, AIConfigPost: { key: 'sweep-config', name: 'Sweep config', description: 'Made by the sweep', mode: 'completion', defaultVariation: { key: 'first', name: 'First', model: { name: 'gpt-4o-mini' } } } },
  'create-ai-config-variation': { projectKey: P, configKey: 'sweep-config', AIConfigVariationPost: { key: 'second', name: 'Second', instructions: 'Be brief.', model: { name: 'gpt-4o' } } },
  'list-feature-flags': { projectKey: P, limit: 5, env: 'production', filter: 'tags:checkout' },
  'get-feature-flag': { projectKey: P, featureFlagKey: 'new-checkout-flow', env: 'production' },
  'get-flag-status-across-environments': { projectKey: P, featureFlagKey: 'new-checkout-flow' },
  'get-environments': { projectKey: P },
  'list-ai-configs': { projectKey: P, limit: 10 },
  'get-ai-config': { projectKey: P, configKey: 'support-assistant' },
  'get-ai-config-targeting': { projectKey: P, configKey: 'support-assistant' },
  'get-ai-config-variation': { projectKey: P, configKey: 'support-assistant', variationKey: 'gpt-4o-concise' },
  'get-audit-log-entries': { limit: 5 },
  'get-code-references': {},
  'update-feature-flag': { projectKey: P, featureFlagKey: 'dark-mode-mobile', PatchWithComment: { comment: 'sweep', patch: [{ op: 'replace', path: '/environments/production/on', value: true }] } },
  'update-ai-config': { projectKey: P, configKey: 'sweep-config', AIConfigPatch: { description: 'Updated by the sweep', tags: ['sweep'] } },
  'update-ai-config-variation': { projectKey: P, configKey: 'sweep-config', variationKey: 'second', AIConfigVariationPatch: { instructions: 'Be very brief.' } },
  'update-ai-config-targeting': { projectKey: P, configKey: 'support-assistant', AIConfigTargetingPatch: { environmentKey: 'staging', instructions: [{ kind: 'addTargets', variationId: 'claude-friendly', contextKind: 'user', values: ['user-1'] }] } },
  'delete-ai-config-variation': { projectKey: P, configKey: 'sweep-config', variationKey: 'second' },
  'delete-ai-config': { projectKey: P, configKey: 'sweep-config' },
  'delete-feature-flag': { projectKey: P, featureFlagKey: 'sweep-flag' },
};

export function rank(tool: string): number {
  if (tool.startsWith('create-')) return tool === 'create-ai-config-variation' ? 1 : 0;
  if (tool.startsWith('update-')) return 3;
  if (tool === 'delete-ai-config-variation') return 4;
  if (tool.startsWith('delete-')) return 5;
  return 2;
}

export const sweep: SweepProfile = {
  scenario: 'mocks/launchdarkly/conformance',
  order: rank,
  argsFor: (tool) => ({ request: REQUESTS[tool.name] ?? {} }),
};
