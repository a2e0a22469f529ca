import type { ServiceRequest, ServiceResponse } from '../core/http.js';
import type { FaultOrder, ServiceContext } from '../core/service.js';
import { defineService } from '../kit/define.js';
import { accountOperations } from './account.js';
import { branchOperations } from './branches.js';
import { sbAuth, sbContext, type SbCtx } from './context.js';
import { databaseOperations } from './database.js';
import { SupabaseDatasetSchema, type SupabaseDataset } from './dataset.js';
import { loadSupabase } from './load.js';
import { renderError, sbError } from './model.js';
import { projectOperations } from './project.js';

/**
 * Supabase's Management API v1 (api.supabase.com/v1): organizations, projects (create, pause,
 * restore), the project database through `database/query` (a deterministic SQL subset over the
 * dataset's tables, with Postgres's own error text) and migrations, preview branches (each a
 * project of its own), edge functions (deploy as multipart, files as multipart), storage buckets
 * and config, API keys, secrets, generated TypeScript types, logs and the database linter's
 * advisors. Errors are `{message}`. docs/supabase-mock.md.
 */

/**
 * Supabase's answers when a fault stands in for the handler (docs/faults.md): 429 is its rate
 * limiter's `{message}` with `Retry-After` and the `X-RateLimit-*` headers; 5xx are `{message}`.
 */
function sbFault(order: FaultOrder, _req: ServiceRequest, ctx: ServiceContext): ServiceResponse {
  if (order.kind === '429') {
    return renderError(sbError(429, 'Too many requests', [
      ['Retry-After', String(order.retryAfter)], ['X-RateLimit-Limit', '120'], ['X-RateLimit-Remaining', '0'], ['X-RateLimit-Reset', String(Math.floor(ctx.nowMs / 1000) + order.retryAfter)],
    ]));
  }
  // The API's NestJS wording (its InternalServerErrorException and friends), not the world's generic text.
  if (order.kind === '503') return renderError(sbError(503, 'Service unavailable', [['Retry-After', String(order.retryAfter)]]));
  if (order.kind === 'timeout') return renderError(sbError(504, 'Gateway timeout'));
  if (order.kind === 'reset' || order.kind === '502') return renderError(sbError(502, 'Bad gateway'));
  return renderError(sbError(500, 'Internal server error'));
}

export const supabaseService = defineService<SupabaseDataset, SbCtx>({
  id: 'supabase',
  version: '1',
  dataset: SupabaseDatasetSchema,
  load: loadSupabase,
  context: sbContext,
  operations: [...accountOperations, ...databaseOperations, ...projectOperations, ...branchOperations],
  errors: (error) => renderError(error),
  refusal: (reason, detail) => {
    switch (reason) {
      case 'invalid_params': {
        const issue = detail.issues?.[0];
        const name = issue?.path.join('.') || (detail.where === 'body' ? 'body' : 'parameter');
        return sbError(400, `${name} ${issue?.message ?? 'is invalid'}`.trim());
      }
      case 'malformed_body': return sbError(400, 'Unexpected token in JSON body');
      case 'unauthenticated': return sbError(401, 'Unauthorized');
      case 'method_not_allowed': return sbError(405, 'Method Not Allowed');
      case 'payload_too_large': return sbError(413, 'Payload Too Large');
      case 'internal_error': return sbError(500, 'Internal server error');
      case 'not_found': return sbError(404, 'Cannot find the requested resource');
    }
  },
  middleware: [sbAuth],
  fault: sbFault,
  volatile: {
    // Tokens are credentials; logs and linter findings are read-only history; a project's
    // oid counter and a table's row/sequence counters move as side effects of writes.
    tokens: '*',
    logs: '*',
    lints: '*',
    projects: ['next_oid', 'api_keys'],
    tables: ['next_rowid', 'sequences', 'oid'],
    functions: ['id', 'created_at', 'updated_at'],
    branches: ['id', 'created_at', 'updated_at', 'project_ref'],
    rows: ['rowid'],
  },
});
