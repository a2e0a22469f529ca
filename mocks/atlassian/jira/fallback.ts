import type { Fallback } from '../../kit/define.js';
import { lazySpec } from '../../kit/openapi.js';
import { specFallback, type SpecFallback } from '../../kit/spec-fallback.js';
import type { AtlassianCtx } from '../context.js';
import { jiraError } from '../errors.js';

/**
 * Jira's long tail (dashboards and gadgets, attachments, components and versions, remote links…):
 * the pruned platform spec (jira/spec/jira.openapi.json, see docs/provenance.md) answered
 * statefully by the kit's spec fallback, with Jira's error envelope and numeric string IDs.
 * Parsed on the first request that reaches it.
 */
const spec = lazySpec(import.meta.url, './spec/jira.openapi.json');

let built: SpecFallback<AtlassianCtx> | undefined;
export function jiraSpecFallback(): SpecFallback<AtlassianCtx> {
  return (built ??= specFallback<AtlassianCtx>({
    spec: spec(),
    notFound: (resource, id) => jiraError(404, [`The ${resource} with id '${id}' does not exist or you do not have permission to see it.`]),
    invalid: (param, message) => jiraError(400, [], { [param]: message }),
    malformed: (message) => jiraError(400, [`Unexpected character: the request body is not valid JSON (${message}).`]),
    id: (ctx, { collection }) => String(ctx.ids.next(`jira-spec:${collection}`, 10000)),
  }));
}

export const jiraTail: Fallback<AtlassianCtx> & { readonly operations: SpecFallback<AtlassianCtx>['operations'] } = {
  get operations() { return jiraSpecFallback().operations; },
  operation: (req) => jiraSpecFallback().operation(req),
  operationNames: () => jiraSpecFallback().operationNames(),
  handle: (req, name, context, ctx) => jiraSpecFallback().handle(req, name, context, ctx),
};
