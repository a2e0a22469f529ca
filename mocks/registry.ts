import type { ServiceDefinition } from './core/service.js';

/**
 * Every mock by catalog id, with its version (the journal header records it) and how to import
 * its module: a world imports only the mocks it is asked for (its scenario's services when it is
 * built, any other on its first request), so `toolbench world` does not load all of them to start.
 * `mocks/index.ts` imports every one, for the commands that read them all. A new service is one
 * line here with the same `id` and `version` as its definition (test/mocks-registry.test.ts).
 */
export interface ServiceModule {
  readonly id: string;
  readonly version: string;
  load(): Promise<ServiceDefinition>;
}

const MODULES: readonly ServiceModule[] = [
  { id: 'atlassian', version: '1', load: async () => (await import('./atlassian/index.js')).atlassianService },
  { id: 'github', version: '1', load: async () => (await import('./github/index.js')).githubService },
  { id: 'linear', version: '1', load: async () => (await import('./linear/index.js')).linearService },
  { id: 'slack', version: '4', load: async () => (await import('./slack/index.js')).slackService },
  { id: 'stripe', version: '3', load: async () => (await import('./stripe/index.js')).stripeService },
  { id: 'zendesk', version: '1', load: async () => (await import('./zendesk/index.js')).zendeskService },
  { id: 'shopify', version: '1', load: async () => (await import('./shopify/index.js')).shopifyService },
  { id: 'twilio', version: '1', load: async () => (await import('./twilio/index.js')).twilioService },
  { id: 'hubspot', version: '1', load: async () => (await import('./hubspot/index.js')).hubspotService },
  { id: 'google', version: '1', load: async () => (await import('./google/index.js')).googleService },
  { id: 'notion', version: '1', load: async () => (await import('./notion/index.js')).notionService },
  { id: 'datadog', version: '1', load: async () => (await import('./datadog/index.js')).datadogService },
  { id: 'sentry', version: '1', load: async () => (await import('./sentry/index.js')).sentryService },
  { id: 'launchdarkly', version: '1', load: async () => (await import('./launchdarkly/index.js')).launchdarklyService },
  { id: 'elasticsearch', version: '1', load: async () => (await import('./elasticsearch/index.js')).elasticsearchService },
  { id: 'supabase', version: '1', load: async () => (await import('./supabase/index.js')).supabaseService },
  { id: 'cloudflare', version: '1', load: async () => (await import('./cloudflare/index.js')).cloudflareService },
  { id: 'aws', version: '1', load: async () => (await import('./aws/index.js')).awsService },
  { id: 'circleci', version: '1', load: async () => (await import('./circleci/index.js')).circleciService },
  { id: 'kubernetes', version: '2', load: async () => (await import('./kubernetes/index.js')).kubernetesService },
  { id: 'digitalocean', version: '1', load: async () => (await import('./digitalocean/index.js')).digitaloceanService },
  { id: 'brave', version: '1', load: async () => (await import('./brave/index.js')).braveService },
  { id: 'tavily', version: '1', load: async () => (await import('./tavily/index.js')).tavilyService },
  { id: 'pagerduty', version: '1', load: async () => (await import('./pagerduty/index.js')).pagerdutyService },
  { id: 'exa', version: '1', load: async () => (await import('./exa/index.js')).exaService },
  { id: 'firecrawl', version: '1', load: async () => (await import('./firecrawl/index.js')).firecrawlService },
  { id: 'mongodb-atlas', version: '1', load: async () => (await import('./mongodb-atlas/index.js')).mongodbAtlasService },
  { id: 'azure-devops', version: '1', load: async () => (await import('./azure-devops/index.js')).azureDevopsService },
  { id: 'gitlab', version: '1', load: async () => (await import('./gitlab/index.js')).gitlabService },
];

export const serviceModules: ReadonlyMap<string, ServiceModule> = new Map(MODULES.map((module) => [module.id, module]));
