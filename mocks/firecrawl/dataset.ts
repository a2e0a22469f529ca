import { z } from 'zod';
import { WebCorpusShape } from '../kit/web/corpus.js';

/**
 * `dataset/firecrawl.json`: the scenario's web (docs/web-mock.md), the API keys (`fc-…`) that may
 * call it with their team's plan and remaining credits (a team without enough gets Firecrawl's
 * 402), and monitors that already exist (docs/firecrawl-mock.md).
 */
const MonitorSeedSchema = z.object({
  id: z.string().uuid(),
  /** The key whose team owns the monitor. */
  key: z.string().min(1),
  name: z.string().min(1),
  status: z.enum(['active', 'paused']).default('active'),
  schedule: z.object({ text: z.string().default('every 30 minutes'), cron: z.string().optional(), timezone: z.string().default('UTC') }).strict().default({}),
  goal: z.string().nullable().default(null),
  targets: z.array(z.record(z.unknown())).min(1),
  retentionDays: z.number().int().positive().default(30),
}).strict();

export const FirecrawlDatasetSchema = z.object({
  keys: z.array(z.object({
    key: z.string().min(1),
    /** The team the key belongs to: credits, jobs and monitors are the team's. */
    team: z.string().min(1).default('team'),
    plan: z.string().default('standard'),
    planCredits: z.number().int().nonnegative().default(100_000),
    /** Credits left in the billing period. */
    credits: z.number().int().nonnegative().default(100_000),
  }).strict()).default([]),
  monitors: z.array(MonitorSeedSchema).default([]),
  ...WebCorpusShape,
}).strict();
export type FirecrawlDataset = z.infer<typeof FirecrawlDatasetSchema>;
export type FirecrawlKey = FirecrawlDataset['keys'][number];
export type MonitorSeed = z.infer<typeof MonitorSeedSchema>;
