import { z } from 'zod';
import { WebCorpusShape } from '../kit/web/corpus.js';

/**
 * `dataset/exa.json`: the scenario's web (docs/web-mock.md) and the API keys that may call it, each
 * with the dollars it may still spend (a key that has spent them gets Exa's 402 NO_MORE_CREDITS).
 */
export const ExaDatasetSchema = z.object({
  keys: z.array(z.object({
    key: z.string().min(1),
    /** The team the key belongs to (shown nowhere; it names the key in datasets). */
    team: z.string().default('default'),
    /** What the key may still spend, in US dollars (Exa bills per request and per page of content). */
    budgetDollars: z.number().nonnegative().default(50),
  }).strict()).default([]),
  ...WebCorpusShape,
}).strict();
export type ExaDataset = z.infer<typeof ExaDatasetSchema>;
export type ExaKey = ExaDataset['keys'][number];
