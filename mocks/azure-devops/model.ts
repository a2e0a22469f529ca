import { jsonResponse, type HeaderList, type ServiceResponse } from '../core/http.js';
import type { Collection, DocumentStore } from '../core/store.js';
import { ServiceError } from '../kit/errors.js';

/** The store's documents, as the mock keeps them (rendered into Azure DevOps' shapes by the handlers). */

export interface OrgDoc { name: string; id: string; tenantId: string }
export interface TokenDoc { token: string; user: string }
export interface UserDoc { id: string; displayName: string; uniqueName: string }
export interface ProjectDoc { id: string; name: string; description: string; visibility: string; revision: number; lastUpdateTime: string; defaultTeam: string; areas: string[] }
export interface TeamDoc { id: string; name: string; project: string; description: string; members: string[]; areaPath: string }
export interface IterationDoc { id: string; identifier: number; project: string; name: string; path: string; startDate: string | null; finishDate: string | null; teams: string[] }
export interface CapacityDoc { team: string; iteration: string; member: string; activities: { name: string; capacityPerDay: number }[]; daysOff: { start: string; end: string }[] }
export interface RelationDoc { rel: string; url: string; attributes: Record<string, unknown> }
export interface WorkItemDoc { id: number; rev: number; project: string; fields: Record<string, unknown>; relations: RelationDoc[] }
export interface RevisionDoc { id: number; rev: number; fields: Record<string, unknown> }
export interface CommentDoc { workItemId: number; id: number; version: number; text: string; format: string; createdBy: string; createdDate: string; modifiedDate: string }
export interface QueryDoc { id: string; project: string; name: string; path: string; wiql: string | null; isFolder: boolean; parent: string | null }
export interface RepoDoc { id: string; name: string; project: string; defaultBranch: string; isDisabled: boolean }
export interface RefDoc { repo: string; name: string; objectId: string; creator: string }
export interface CommitDoc { repo: string; commitId: string; message: string; author: string; date: string; branch: string; files: Record<string, string> }
export interface ReviewerDoc { id: string; vote: number; isRequired: boolean }
export interface PullRequestDoc {
  id: number; repo: string; project: string; title: string; description: string; source: string; target: string;
  status: string; isDraft: boolean; createdBy: string; creationDate: string; closedDate: string | null;
  reviewers: ReviewerDoc[]; labels: string[]; workItems: number[]; changes: { path: string; changeType: string }[];
  mergeStatus: string; completionOptions: Record<string, unknown> | null; autoCompleteSetBy: string | null;
}
export interface ThreadCommentDoc { id: number; parentCommentId: number; author: string; content: string; publishedDate: string; lastUpdatedDate: string; commentType: string }
export interface ThreadDoc { pr: number; id: number; status: string; filePath: string | null; line: number | null; publishedDate: string; lastUpdatedDate: string; comments: ThreadCommentDoc[] }
export interface DefinitionDoc { id: number; project: string; name: string; path: string; repo: string; yamlPath: string; revision: number; createdDate: string }
export interface BuildDoc {
  id: number; project: string; definition: number; buildNumber: string; status: string; result: string | null;
  sourceBranch: string; sourceVersion: string; reason: string; requestedFor: string; queueTime: string;
  startTime: string | null; finishTime: string | null; tags: string[]; templateParameters: Record<string, string>;
  changes: { id: string; message: string; author: string }[]; artifacts: { name: string; files: Record<string, string> }[];
  stages: { name: string; result: string }[];
}
export interface LogDoc { build: number; id: number; lines: string[]; createdOn: string }
export interface TestResultDoc { build: number; id: number; runId: number; name: string; automatedTestName: string; outcome: string; errorMessage: string | null; stackTrace: string | null; durationInMs: number }
export interface TestPlanDoc { id: number; project: string; name: string; iteration: string; state: string; rootSuite: number; areaPath: string; owner: string; revision: number }
export interface TestSuiteDoc { id: number; plan: number; project: string; name: string; parent: number | null; suiteType: string; testCases: number[] }
export interface WikiDoc { id: string; project: string; name: string; type: string; repositoryId: string }
export interface PageDoc { wiki: string; path: string; id: number; content: string; order: number; eTag: string }
export interface AlertDoc { id: number; project: string; repo: string; alertType: string; severity: string; state: string; title: string; ruleName: string; filePath: string; line: number; firstSeenDate: string }

export interface Db {
  org: Collection<OrgDoc>;
  tokens: Collection<TokenDoc>;
  users: Collection<UserDoc>;
  projects: Collection<ProjectDoc>;
  teams: Collection<TeamDoc>;
  iterations: Collection<IterationDoc>;
  capacities: Collection<CapacityDoc>;
  work_items: Collection<WorkItemDoc>;
  revisions: Collection<RevisionDoc>;
  comments: Collection<CommentDoc>;
  queries: Collection<QueryDoc>;
  repositories: Collection<RepoDoc>;
  refs: Collection<RefDoc>;
  commits: Collection<CommitDoc>;
  pull_requests: Collection<PullRequestDoc>;
  threads: Collection<ThreadDoc>;
  definitions: Collection<DefinitionDoc>;
  builds: Collection<BuildDoc>;
  logs: Collection<LogDoc>;
  test_results: Collection<TestResultDoc>;
  test_plans: Collection<TestPlanDoc>;
  test_suites: Collection<TestSuiteDoc>;
  wikis: Collection<WikiDoc>;
  pages: Collection<PageDoc>;
  alerts: Collection<AlertDoc>;
}

const NAMES = ['org', 'tokens', 'users', 'projects', 'teams', 'iterations', 'capacities', 'work_items', 'revisions', 'comments', 'queries',
  'repositories', 'refs', 'commits', 'pull_requests', 'threads', 'definitions', 'builds', 'logs', 'test_results', 'test_plans', 'test_suites',
  'wikis', 'pages', 'alerts'] as const;

export function dbOf(store: DocumentStore): Db {
  return Object.fromEntries(NAMES.map((name) => [name, store.collection(name)])) as unknown as Db;
}

/**
 * Azure DevOps' error envelope: `{$id, innerException, message, typeName, typeKey, errorCode,
 * eventId}`. The ServiceError's code is the typeKey; details carry typeName and eventId.
 */
export function adoError(status: number, typeKey: string, message: string, options: { eventId?: number; namespace?: string; headers?: HeaderList } = {}): ServiceError {
  const namespace = options.namespace ?? 'Microsoft.TeamFoundation.Framework.Server';
  const assembly = namespace.startsWith('Microsoft.VisualStudio.Services') ? 'Microsoft.VisualStudio.Services.Common' : namespace;
  return new ServiceError(status, typeKey, message, { typeName: `${namespace}.${typeKey}, ${assembly}`, eventId: options.eventId ?? 3000 }, options.headers ?? []);
}

export function renderError(error: ServiceError, activityId: string): ServiceResponse {
  const details = error.details as { typeName?: string; eventId?: number };
  return jsonResponse(error.status, {
    $id: '1', innerException: null, message: error.message,
    typeName: details.typeName ?? `Microsoft.TeamFoundation.Framework.Server.${error.code}, Microsoft.TeamFoundation.Framework.Server`,
    typeKey: error.code, errorCode: 0, eventId: details.eventId ?? 3000,
  }, [...error.headers, ['ActivityId', activityId]]);
}

export const notFound = (what: string) => adoError(404, 'ResourceNotFoundException', what, { namespace: 'Microsoft.VisualStudio.Services.WebApi' });
export const badRequest = (message: string) => adoError(400, 'ArgumentException', message, { namespace: 'System' });
export const projectNotFound = (project: string) => adoError(404, 'ProjectDoesNotExistWithNameException',
  `TF200016: The following project does not exist: ${project}. Verify that the name of the project is correct and that the project exists on the specified Azure DevOps Server.`,
  { namespace: 'Microsoft.TeamFoundation.Core.WebApi' });

/** An ADO list: `{count, value}`. */
export const list = (value: unknown[], headers: HeaderList = []) => jsonResponse(200, { count: value.length, value }, headers);

export const iso = (ms: number) => new Date(ms).toISOString();

/** A GUID-shaped id from 32 hex characters (plan ids, merge ids, label ids). */
export const guidOf = (hex: string) => `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
