import { z } from 'zod';
import { FieldPredicatesSchema, PredicateSchema } from './predicates.js';

/**
 * What a scenario expects of a trial: the final state, the calls that must and must not have
 * been made, and the answer. Graded deterministically from the world's state and the journal.
 */

/** Documents of one collection matching `where`; then `fields` must hold on each (or `absent`/`count`). */
export const StateExpectationSchema = z.object({
  service: z.string(),
  collection: z.string(),
  /** Which documents: dotted path → predicate. Empty matches every document. */
  where: FieldPredicatesSchema.default({}),
  /** What each matching document must look like. */
  fields: FieldPredicatesSchema.default({}),
  /** Exactly this many documents match `where` (default: at least one). */
  count: z.number().int().nonnegative().optional(),
  /** No document matches `where`. */
  absent: z.boolean().default(false),
  /** Shown when the check fails. */
  description: z.string().default(''),
}).strict();
export type StateExpectation = z.infer<typeof StateExpectationSchema>;

/** The MCP tool behind a call: endpoint, tool name, argument predicates. */
export const ToolMatcherSchema = z.object({
  endpoint: z.string().optional(),
  name: z.string().optional(),
  arguments: FieldPredicatesSchema.default({}),
}).strict();

/**
 * A world request (API level): method, host, path pattern (`:param` matches one segment, `*`
 * any rest, `**` anything), query and JSON body predicates, status (`2xx` by default for
 * required calls), and optionally the MCP tool that caused it.
 */
export const CallMatcherSchema = z.object({
  // One method, compared exactly: `POST|PUT` would silently match nothing, so it is refused.
  method: z.string().toUpperCase().regex(/^[A-Z]+$/, 'one HTTP method (GET, POST, PUT, PATCH, DELETE, …); for several, write one matcher each').optional(),
  host: z.string().optional(),
  path: z.string().optional(),
  /** The service's operation name (`chat.postMessage`, `Mutation.issueCreate`); `*` matches any characters. */
  operation: z.string().optional(),
  query: FieldPredicatesSchema.default({}),
  body: PredicateSchema.optional(),
  status: z.union([z.number().int(), z.enum(['1xx', '2xx', '3xx', '4xx', '5xx', 'any'])]).optional(),
  tool: ToolMatcherSchema.optional(),
  /** Required calls: at least this many matching requests (default 1). */
  min: z.number().int().positive().default(1),
  description: z.string().default(''),
}).strict().refine((m) => m.path !== undefined || m.tool !== undefined || m.method !== undefined || m.operation !== undefined, {
  message: 'a call matcher needs at least a method, a path, an operation or a tool',
});
export type CallMatcher = z.infer<typeof CallMatcherSchema>;

/**
 * A required call that may be made in more than one way, e.g. a file changed by `PUT contents`
 * (create_or_update_file) or by moving its branch (push_files): one alternative suffices.
 */
export const AnyOfCallsSchema = z.object({
  any_of: z.array(CallMatcherSchema).min(2),
  min: z.number().int().positive().default(1),
  description: z.string().default(''),
}).strict();
export const RequiredCallSchema = z.union([AnyOfCallsSchema, CallMatcherSchema]);
export type RequiredCall = z.infer<typeof RequiredCallSchema>;

/** The matchers of a required call: itself, or its alternatives. */
export function alternatives(call: RequiredCall): CallMatcher[] {
  return 'any_of' in call ? call.any_of.map((m) => ({ ...m, min: call.min })) : [call];
}

export const AnswerCheckSchema = z.object({
  contains: z.string().optional(),
  not_contains: z.string().optional(),
  regex: z.string().optional(),
  equals: z.string().optional(),
  case_sensitive: z.boolean().default(false),
  description: z.string().default(''),
}).strict().superRefine((check, ctx) => {
  const kinds = ['contains', 'not_contains', 'regex', 'equals'].filter((k) => check[k as keyof typeof check] !== undefined);
  if (kinds.length !== 1) ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'an answer check has exactly one of contains, not_contains, regex, equals' });
  if (check.regex !== undefined) {
    try { new RegExp(check.regex); } catch (error) { ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['regex'], message: (error as Error).message }); }
  }
});
export type AnswerCheck = z.infer<typeof AnswerCheckSchema>;

export const ExpectSchema = z.object({
  state: z.array(StateExpectationSchema).default([]),
  /** Every state-changing call the task needs, matched with `tool` (through MCP) so a bypassed write does not count. */
  required_calls: z.array(RequiredCallSchema).default([]),
  forbidden_calls: z.array(CallMatcherSchema).default([]),
  answer: z.array(AnswerCheckSchema).default([]),
  /** More fields to leave out of the state diff, beyond the services' volatile ones: `service.collection.field` or `service.collection.*`. */
  ignore: z.array(z.string().regex(/^[a-z][a-z0-9-]*\.[A-Za-z_][A-Za-z0-9_]*\.(\*|[A-Za-z_][A-Za-z0-9_.]*)$/, 'must be service.collection.field or service.collection.*')).default([]),
}).strict();
export type Expect = z.infer<typeof ExpectSchema>;

/** The scenario's solution, replayed over MCP by the oracle agent. */
export const OracleSchema = z.object({
  answer: z.string().default(''),
  calls: z.array(z.object({
    endpoint: z.string(),
    tool: z.string(),
    arguments: z.record(z.unknown()).default({}),
  }).strict()).default([]),
}).strict();
export type Oracle = z.infer<typeof OracleSchema>;
