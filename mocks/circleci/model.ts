import { jsonResponse, type HeaderList, type ServiceResponse } from '../core/http.js';
import type { Collection, DocumentStore } from '../core/store.js';
import { ServiceError } from '../kit/errors.js';

/** The store's documents, as the mock keeps them (rendered into CircleCI's shapes by the handlers). */

export interface TokenDoc { token: string; login: string }
export interface OrgDoc { id: string; name: string; slug: string; vcs_type: string }
export interface ProjectDoc {
  slug: string; name: string; id: string; default_branch: string; followed: boolean;
  definitions: { id: string; name: string }[]; rollback_pipeline: boolean;
}
export interface PipelineDoc {
  id: string; project: string; number: number; branch: string; revision: string; commit_subject: string;
  actor: string; created_at: string; trigger: 'webhook' | 'api'; definition_id: string | null; definition_name: string | null;
}
export interface WorkflowDoc {
  id: string; pipeline_id: string; project: string; pipeline_number: number; name: string; status: string;
  created_at: string; stopped_at: string | null; started_by: string; rerun_of: string | null; order: number;
}
export interface StepDoc { name: string; status: string; output: string; error: string; exit_code: number | null }
export interface JobDoc {
  id: string; number: number; project: string; workflow_id: string; name: string; status: string;
  started_at: string | null; stopped_at: string | null; resource_class: string; parallelism: number;
  steps: StepDoc[]; tests: { classname: string; name: string; file?: string; result: string; message: string; run_time: number }[];
  artifacts: { path: string; content: string }[]; order: number;
}
export interface FlakyDoc {
  project: string; classname: string; test_name: string; file: string; job_name: string; job_number: number;
  workflow_name: string; pipeline_number: number; times_flaked: number; time_wasted: number;
}
export interface EnvironmentDoc { id: string; name: string; description: string; created_at: string }
export interface ComponentDoc {
  id: string; name: string; project_id: string; created_at: string;
  versions: { name: string; environment_id: string; is_live: boolean; job_number: number; deployed_at: string }[];
}
export interface UsageJobDoc { id: string; org: string; start: string; end: string; created_ms: number }
export interface RollbackDoc { id: string; project_id: string; component_name: string; environment_name: string; current_version: string; target_version: string; reason: string | null; pipeline_number: number }

export interface Db {
  tokens: Collection<TokenDoc>;
  org: Collection<OrgDoc>;
  projects: Collection<ProjectDoc>;
  pipelines: Collection<PipelineDoc>;
  workflows: Collection<WorkflowDoc>;
  jobs: Collection<JobDoc>;
  flaky_tests: Collection<FlakyDoc>;
  environments: Collection<EnvironmentDoc>;
  components: Collection<ComponentDoc>;
  usage_exports: Collection<UsageJobDoc>;
  usage_rows: Collection<Record<string, string | number>>;
  rollbacks: Collection<RollbackDoc>;
}

export function dbOf(store: DocumentStore): Db {
  const c = <T>(name: string) => store.collection<T>(name);
  return {
    tokens: c('tokens'), org: c('org'), projects: c('projects'), pipelines: c('pipelines'), workflows: c('workflows'), jobs: c('jobs'),
    flaky_tests: c('flaky_tests'), environments: c('environments'), components: c('components'), usage_exports: c('usage_exports'),
    usage_rows: c('usage_rows'), rollbacks: c('rollbacks'),
  };
}

export const jobKey = (project: string, number: number): string => `${project}/${number}`;

/** CircleCI's error body: `{"message": "…"}`. */
export function ciError(status: number, message: string, headers: HeaderList = []): ServiceError {
  return new ServiceError(status, 'error', message, undefined, headers);
}

export function renderError(error: ServiceError): ServiceResponse {
  return jsonResponse(error.status, { message: error.message }, [...error.headers]);
}

/** An opaque page token: the offset of the next page. */
export function pageOf<T>(items: readonly T[], token: string | undefined, size: number): { items: T[]; next_page_token: string | null } {
  const offset = token ? Number(Buffer.from(token, 'base64url').toString('utf8').replace(/^offset:/, '')) : 0;
  if (!Number.isInteger(offset) || offset < 0) throw ciError(400, 'Invalid page-token.');
  const next = offset + size < items.length ? Buffer.from(`offset:${offset + size}`).toString('base64url') : null;
  return { items: items.slice(offset, offset + size), next_page_token: next };
}
