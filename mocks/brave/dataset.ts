import { z } from 'zod';
import { WebCorpusShape } from '../kit/web/corpus.js';

/**
 * `dataset/brave.json`: the scenario's web (docs/web-mock.md) and the Brave Search API
 * subscriptions whose tokens may call it. A plan decides what the API adds: extra snippets on the
 * AI and Data plans, locations and the summarizer on the Pro plans, as Brave's plans do.
 */
export const BravePlan = z.enum(['Free', 'Base AI', 'Pro AI', 'Base Data', 'Pro Data']);

export const BraveDatasetSchema = z.object({
  subscriptions: z.array(z.object({
    token: z.string().min(1),
    plan: BravePlan.default('Pro AI'),
    /** Requests per second the plan allows (X-RateLimit-Limit's first value). */
    rate_limit: z.number().int().positive().default(20),
    /** Requests per month, and how many were used before the scenario starts. */
    quota: z.number().int().positive().default(20_000_000),
    used: z.number().int().nonnegative().default(0),
  }).strict()).default([]),
  ...WebCorpusShape,
}).strict();
export type BraveDataset = z.infer<typeof BraveDatasetSchema>;
export type BraveSubscription = BraveDataset['subscriptions'][number];
