import { z } from 'zod';

/**
 * The fault plan as data: what a scenario's `[[faults]]` tables and a `--chaos` preset say, and
 * what a journal's header records so replay meets the same faults. Serialisable config only; how
 * a plan is applied lives in faults.ts (as mockttp splits step definitions from their
 * implementations). See docs/faults.md.
 */

/** What the world can do instead of running the handler. */
export const FAULT_KINDS = ['429', '500', '502', '503', 'reset', 'timeout'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** How long a `timeout` holds a response when the rule does not say. */
export const DEFAULT_HOLD_MS = 30_000;
/** The bound on a `timeout`'s hold: a held request always ends. */
export const MAX_HOLD_MS = 120_000;
/** The bound on any latency a rule can add. */
export const MAX_LATENCY_MS = 60_000;
/** `Retry-After` (seconds) of a 429 or 503 when the rule does not say. */
export const DEFAULT_RETRY_AFTER = 1;

const Ms = z.number().int().nonnegative().max(MAX_LATENCY_MS);

/** A latency distribution, sampled from the request's own fault stream. */
export const LatencySchema = z.discriminatedUnion('dist', [
  z.object({ dist: z.literal('fixed'), ms: Ms }).strict(),
  z.object({ dist: z.literal('uniform'), min_ms: Ms, max_ms: Ms }).strict(),
  /** Exponential with mean `mean_ms`, cut at `max_ms` (a long tail, bounded). */
  z.object({ dist: z.literal('exponential'), mean_ms: Ms.refine((ms) => ms > 0, 'must be positive'), max_ms: Ms }).strict(),
]);
export type Latency = z.infer<typeof LatencySchema>;

/**
 * One rule: which requests it watches (service, method, route pattern), when it fires (`nth`
 * matching request on a route, or a `rate`; every time when neither is given), and what it
 * does (`kind`, `latency`, or both).
 */
export const FaultRuleSchema = z.object({
  /** Names the rule's decision stream; default: service, method, route and kind. */
  id: z.string().min(1).optional(),
  /** A catalog service id; default: every service. */
  service: z.string().min(1).optional(),
  /** Path pattern: `:name` or `*` one segment, `**` any number, `*` inside a segment any characters. */
  route: z.string().regex(/^\//, 'must start with /').default('/**'),
  method: z.string().regex(/^[A-Za-z]+$/, 'must be an HTTP method').transform((method) => method.toUpperCase()).optional(),
  /** The service's operation name; `*` matches any characters (`issues.*`, `Mutation.*`). */
  operation: z.string().min(1).optional(),
  /** 429, 500, 502, 503 (numbers or strings), `reset` or `timeout`. */
  kind: z.union([z.number().int(), z.string()]).transform(String).pipe(z.enum(FAULT_KINDS)).optional(),
  /** Fire on these matching requests of each route, counted from 1. */
  nth: z.array(z.number().int().positive()).min(1).optional(),
  /** Fire on this share of matching requests (decided per request from the fault stream). */
  rate: z.number().min(0).max(1).optional(),
  latency: LatencySchema.optional(),
  /** Seconds in `Retry-After` of a 429 or 503. */
  retry_after: z.number().int().nonnegative().max(3600).optional(),
  /** How long a `timeout` holds the response before the gateway's answer. */
  hold_ms: z.number().int().positive().max(MAX_HOLD_MS).optional(),
}).strict().superRefine((rule, ctx) => {
  const problem = (message: string, path: string) => ctx.addIssue({ code: z.ZodIssueCode.custom, message, path: [path] });
  if (rule.kind === undefined && rule.latency === undefined) problem('a rule needs a kind, a latency or both', 'kind');
  if (rule.nth !== undefined && rule.rate !== undefined) problem('give nth or rate, not both', 'rate');
  if (rule.retry_after !== undefined && rule.kind !== '429' && rule.kind !== '503') problem('only a 429 or 503 has a Retry-After', 'retry_after');
  if (rule.hold_ms !== undefined && rule.kind !== 'timeout') problem('only a timeout holds', 'hold_ms');
  if (rule.kind === 'timeout' && rule.latency !== undefined) problem('a timeout waits hold_ms; it takes no latency', 'latency');
  if (rule.latency?.dist === 'uniform' && rule.latency.min_ms > rule.latency.max_ms) problem('min_ms is above max_ms', 'latency');
});
export type FaultRule = z.infer<typeof FaultRuleSchema>;
export type FaultRuleInput = z.input<typeof FaultRuleSchema>;

export const CHAOS_LEVELS = ['none', 'low', 'medium', 'high'] as const;
export type ChaosLevel = (typeof CHAOS_LEVELS)[number];

/** The plan a world runs with, as its journal header records it: scenario rules, then the preset's. */
export const FaultPlanSchema = z.object({
  chaos: z.enum(CHAOS_LEVELS).default('none'),
  rules: z.array(FaultRuleSchema).default([]),
});
export type FaultPlan = z.infer<typeof FaultPlanSchema>;

/**
 * `--chaos` presets: every service, every route. Each kind has its own stream id (`chaos/429`),
 * shared by the levels, so a higher level's faults of a kind include the lower level's.
 */
const PRESETS: Record<ChaosLevel, FaultRuleInput[]> = {
  none: [],
  low: [
    { id: 'chaos/429', kind: 429, rate: 0.02, retry_after: 1 },
    { id: 'chaos/503', kind: 503, rate: 0.01, retry_after: 1 },
    { id: 'chaos/latency', latency: { dist: 'uniform', min_ms: 5, max_ms: 50 } },
  ],
  medium: [
    { id: 'chaos/429', kind: 429, rate: 0.05, retry_after: 1 },
    { id: 'chaos/502', kind: 502, rate: 0.02 },
    { id: 'chaos/503', kind: 503, rate: 0.03, retry_after: 1 },
    { id: 'chaos/reset', kind: 'reset', rate: 0.01 },
    { id: 'chaos/latency', latency: { dist: 'exponential', mean_ms: 50, max_ms: 500 } },
  ],
  high: [
    { id: 'chaos/429', kind: 429, rate: 0.1, retry_after: 2 },
    { id: 'chaos/500', kind: 500, rate: 0.03 },
    { id: 'chaos/502', kind: 502, rate: 0.05 },
    { id: 'chaos/503', kind: 503, rate: 0.05, retry_after: 2 },
    { id: 'chaos/reset', kind: 'reset', rate: 0.03 },
    { id: 'chaos/timeout', kind: 'timeout', rate: 0.01, hold_ms: 10_000 },
    { id: 'chaos/latency', latency: { dist: 'exponential', mean_ms: 150, max_ms: 2000 } },
  ],
};

/** A preset's rules. */
export function chaosRules(level: ChaosLevel): FaultRule[] {
  return PRESETS[level].map((rule) => FaultRuleSchema.parse(rule));
}

/** The plan of a world: the scenario's own rules first (they win), then the preset's. */
export function resolveFaultPlan(scenarioRules: readonly FaultRule[], chaos: ChaosLevel = 'none'): FaultPlan {
  return { chaos, rules: [...scenarioRules, ...chaosRules(chaos)] };
}

/** The stream name of a rule: its `id`, else what it watches and does. */
export function ruleId(rule: FaultRule): string {
  return rule.id ?? `${rule.service ?? '*'} ${rule.method ?? '*'} ${rule.route}${rule.operation === undefined ? '' : ` ${rule.operation}`} ${rule.kind ?? 'latency'}`;
}
