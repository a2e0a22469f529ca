import { z } from 'zod';
import { WebCorpusShape } from '../kit/web/corpus.js';

/**
 * `dataset/tavily.json`: the scenario's web (docs/web-mock.md) and the API keys (`tvly-…`) that
 * may call it, each with its plan's remaining credits (a key with none gets Tavily's 432).
 */
export const TavilyDatasetSchema = z.object({
  keys: z.array(z.object({
    key: z.string().min(1),
    plan: z.string().default('researcher'),
    credits: z.number().int().nonnegative().default(1000),
  }).strict()).default([]),
  ...WebCorpusShape,
}).strict();
export type TavilyDataset = z.infer<typeof TavilyDatasetSchema>;
export type TavilyKey = TavilyDataset['keys'][number];
