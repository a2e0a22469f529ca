import type { Collection, DocumentStore } from '../core/store.js';

/**
 * Sentry's records as the store keeps them. Issues and events keep the fields the API answers
 * (built into their API shape by render functions in issues.ts); members keep their tokens.
 */
export interface OrgDoc { id: string; slug: string; name: string; dateCreated: string }
export interface MemberDoc { id: string; name: string; email: string; username: string; tokens: string[] }
export interface TeamDoc { id: string; slug: string; name: string; dateCreated: string; members: string[] }
export interface ProjectDoc { id: string; slug: string; name: string; platform: string | null; teams: string[]; dateCreated: string }
export interface KeyDoc { id: string; project: string; name: string; public: string; secret: string; isActive: boolean; dateCreated: string }
export interface ReleaseDoc {
  version: string; id: number; projects: string[]; dateCreated: string; dateReleased: string | null; newGroups: number;
  commitMessage: string | null; deployEnvironment: string | null;
}
export interface IssueDoc {
  id: string; shortId: string; project: string; title: string; culprit: string | null; type: string; value: string; level: string;
  status: string; substatus: string | null; assignedTo: string | null; count: number; userCount: number;
  firstSeen: string; lastSeen: string; firstRelease: string | null;
  /** The status-change options of the last update (ignoreDuration, …), as Sentry keeps them. */
  statusDetails: Record<string, unknown>;
}
export interface EventDoc {
  id: string; issue: string; project: string; dateCreated: string; message: string | null; environment: string; release: string | null;
  user: { id: string | null; email: string | null }; tags: Record<string, string>;
  frames: { filename: string; function: string; lineNo: number; inApp: boolean }[];
}
export interface ActivityDoc { id: string; issue: string; type: string; user: string | null; data: Record<string, unknown>; dateCreated: string }

export interface Db {
  org: Collection<OrgDoc>;
  members: Collection<MemberDoc>;
  teams: Collection<TeamDoc>;
  projects: Collection<ProjectDoc>;
  keys: Collection<KeyDoc>;
  releases: Collection<ReleaseDoc>;
  issues: Collection<IssueDoc>;
  events: Collection<EventDoc>;
  activities: Collection<ActivityDoc>;
}

export function dbOf(store: DocumentStore): Db {
  return {
    org: store.collection('org'),
    members: store.collection('members'),
    teams: store.collection('teams'),
    projects: store.collection('projects'),
    keys: store.collection('keys'),
    releases: store.collection('releases'),
    issues: store.collection('issues'),
    events: store.collection('events'),
    activities: store.collection('activities'),
  };
}
