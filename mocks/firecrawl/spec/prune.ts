// Prunes Firecrawl's published v2 OpenAPI description (firecrawl/firecrawl-docs,
// api-reference/v2-openapi.json) to the paths the mock serves, success responses only:
//   node --import tsx mocks/firecrawl/spec/prune.ts <v2-openapi.json> > mocks/firecrawl/spec/firecrawl-v2.json
import { readFileSync } from 'node:fs';
import { pruneSpec } from '../../kit/openapi.js';
import type { OpenApiDocument } from '../../kit/spec-fallback.js';

const SERVED = new Set([
  '/scrape', '/scrape/{jobId}/interact', '/batch/scrape', '/batch/scrape/{id}', '/batch/scrape/{id}/errors',
  '/crawl', '/crawl/{id}', '/crawl/{id}/errors', '/crawl/active', '/map', '/search', '/search/{jobId}/feedback',
  '/extract', '/extract/{id}', '/agent', '/agent/{jobId}', '/feedback', '/team/credit-usage', '/team/credit-usage/historical',
  '/monitor', '/monitor/{monitorId}', '/monitor/{monitorId}/run', '/monitor/{monitorId}/checks', '/monitor/{monitorId}/checks/{checkId}',
  '/search/developer', '/search/research/papers', '/search/research/papers/{id}', '/search/research/papers/{id}/similar',
]);
const spec = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as OpenApiDocument;
process.stdout.write(`${JSON.stringify(pruneSpec(spec, (template) => SERVED.has(template)), null, 1)}\n`);
