import type { ServiceDefinition } from './core/service.js';
import { atlassianService } from './atlassian/index.js';
import { githubService } from './github/index.js';
import { hubspotService } from './hubspot/index.js';
import { linearService } from './linear/index.js';
import { slackService } from './slack/index.js';
import { stripeService } from './stripe/index.js';
import { zendeskService } from './zendesk/index.js';
import { shopifyService } from './shopify/index.js';
import { twilioService } from './twilio/index.js';
import { googleService } from './google/index.js';
import { notionService } from './notion/index.js';
import { datadogService } from './datadog/index.js';
import { sentryService } from './sentry/index.js';
import { launchdarklyService } from './launchdarkly/index.js';
import { elasticsearchService } from './elasticsearch/index.js';
import { supabaseService } from './supabase/index.js';
import { cloudflareService } from './cloudflare/index.js';
import { awsService } from './aws/index.js';
import { circleciService } from './circleci/index.js';
import { kubernetesService } from './kubernetes/index.js';
import { digitaloceanService } from './digitalocean/index.js';
import { braveService } from './brave/index.js';
import { tavilyService } from './tavily/index.js';
import { pagerdutyService } from './pagerduty/index.js';
import { exaService } from './exa/index.js';
import { firecrawlService } from './firecrawl/index.js';
import { mongodbAtlasService } from './mongodb-atlas/index.js';
import { azureDevopsService } from './azure-devops/index.js';
import { gitlabService } from './gitlab/index.js';

/** Every mock toolbench has, by catalog id. The catalog says which hosts reach each. */
export const serviceDefinitions: ReadonlyMap<string, ServiceDefinition> = new Map<string, ServiceDefinition>([
  [atlassianService.id, atlassianService],
  [githubService.id, githubService],
  [linearService.id, linearService],
  [slackService.id, slackService],
  [stripeService.id, stripeService],
  [zendeskService.id, zendeskService],
  [shopifyService.id, shopifyService],
  [twilioService.id, twilioService],
  [hubspotService.id, hubspotService],
  [googleService.id, googleService],
  [notionService.id, notionService],
  [datadogService.id, datadogService],
  [sentryService.id, sentryService],
  [launchdarklyService.id, launchdarklyService],
  [elasticsearchService.id, elasticsearchService],
  [supabaseService.id, supabaseService],
  [cloudflareService.id, cloudflareService],
  [awsService.id, awsService],
  [circleciService.id, circleciService],
  [kubernetesService.id, kubernetesService],
  [digitaloceanService.id, digitaloceanService],
  [braveService.id, braveService],
  [tavilyService.id, tavilyService],
  [pagerdutyService.id, pagerdutyService],
  [exaService.id, exaService],
  [firecrawlService.id, firecrawlService],
  [mongodbAtlasService.id, mongodbAtlasService],
  [azureDevopsService.id, azureDevopsService],
  [gitlabService.id, gitlabService],
]);
