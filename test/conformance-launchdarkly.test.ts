import test from 'ava';
import { z } from 'zod';
import { sweep } from '../mocks/launchdarkly/conformance.js';
import { conformance } from './helpers/conformance.js';

// LaunchDarkly through the conformance suite (test/helpers/conformance.ts): determinism, seeds,
// error and fault shapes, volatile fields, and all 20 tools of the pinned @launchdarkly/mcp-server
// through MCP (which validates every answer against its zod models).

const FLAGS = ['new-checkout-flow', 'dark-mode', 'checkout-button-color', 'holiday-theme-2024', 'no-such-flag'];
const CONFIGS = ['support-assistant', 'review-summarizer', 'no-such-config'];

const suite = conformance(test, {
  fullSweep: true, // a test below reads every tool's outcome
  service: 'launchdarkly',
  sweep,
  headers: [['Authorization', 'api-5c1d9e7a-conformance']],
  values: {
    projectKey: ['storefront', 'storefront', 'mobile-app', 'no-such-project'],
    featureFlagKey: FLAGS, configKey: CONFIGS, variationKey: ['gpt-4o-concise', 'baseline', 'missing'],
  },
  bodies: {
    'POST /api/v2/flags/{projectKey}': (random, i) => ({ name: `Generated ${i}`, key: `generated-${i}`, tags: [random.pick(['a', 'b'])] }),
    'PATCH /api/v2/flags/{projectKey}/{featureFlagKey}': (random) => ({ patch: [{ op: 'replace', path: '/environments/production/on', value: random.pick([true, false]) }] }),
    'POST /api/v2/projects/{projectKey}/ai-configs': (_random, i) => ({ key: `gen-${i}`, name: `Generated ${i}`, description: '', mode: 'completion' }),
    'PATCH /api/v2/projects/{projectKey}/ai-configs/{configKey}': (random) => ({ description: random.pick(['one', 'two']) }),
    'POST /api/v2/projects/{projectKey}/ai-configs/{configKey}/variations': (_random, i) => ({ key: `v-${i}`, name: `V ${i}` }),
    'PATCH /api/v2/projects/{projectKey}/ai-configs/{configKey}/variations/{variationKey}': (random) => ({ instructions: random.pick(['a', 'b']) }),
    'PATCH /api/v2/projects/{projectKey}/ai-configs/{configKey}/targeting': (random) => ({ environmentKey: 'production', instructions: [{ kind: random.pick(['turnTargetingOn', 'turnTargetingOff']) }] }),
  },
  requests: [
    (random) => ({ method: 'GET', target: `/api/v2/flags/storefront?limit=${random.int(1, 10)}&offset=${random.int(0, 20)}&filter=${random.pick(['tags:checkout', 'query:dark', 'state:archived'])}` }),
    (random) => ({ method: 'GET', target: `/api/v2/auditlog?limit=${random.int(1, 20)}` }),
    (random) => ({ method: 'PATCH', target: `/api/v2/flags/storefront/${random.pick(FLAGS)}`, body: { environmentKey: 'production', instructions: [{ kind: random.pick(['turnFlagOn', 'turnFlagOff']) }] } }),
  ],
  seeded: { patterns: [/\b[0-9a-f]{24}\b/g, /sdk-[0-9a-f]{8}-[0-9a-f]{4}/g, /mob-[0-9a-f]{12}/g] },
  errorShape: z.object({ code: z.string(), message: z.string() }).strict(),
});

// The server validates every answer against its zod models: with the sweep's arguments (all of
// which name things that exist) every tool must succeed, not merely reach its operation.
test('launchdarkly: all 20 tools succeed against the mock, past the server\'s strict response validation', async (t) => {
  const result = await suite.sweep();
  t.is(result.outcomes.length, 20);
  const failed = result.outcomes.filter((o) => o.isError || o.transportError !== null).map((o) => `${o.tool}: ${o.text.slice(0, 200)}`);
  t.deepEqual(failed, []);
  t.true(result.outcomes.every((o) => o.entries.length > 0 && o.entries.every((e) => e.response.status < 300)));
});
