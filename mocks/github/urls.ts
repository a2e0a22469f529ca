import type { SeededIds } from '../core/ids.js';

/** Bodies always name GitHub's own hosts, whichever listener the request came through. */
export const API = 'https://api.github.com';
export const WEB = 'https://github.com';
export const RAW = 'https://raw.githubusercontent.com';

/** GitHub's GraphQL node ID prefixes (the new format), by kind of object. */
const NODE_PREFIX = {
  user: 'U_kgDO',
  org: 'O_kgDO',
  repo: 'R_kgDO',
  issue: 'I_kwDO',
  pull: 'PR_kwDO',
  comment: 'IC_kwDO',
  label: 'LA_kwDO',
  milestone: 'MI_kwDO',
  ref: 'REF_kwDO',
  commit: 'C_kwDO',
  tree: 'T_kwDO',
  blob: 'B_kwDO',
  review: 'PRR_kwDO',
  review_comment: 'PRRC_kwDO',
  status: 'SC_kwDO',
} as const;
export type NodeKind = keyof typeof NODE_PREFIX;

/** A node ID from a hash of (seed, kind, key): stable per object, different per seed. */
export function nodeId(ids: SeededIds, kind: NodeKind, key: string | number): string {
  return NODE_PREFIX[kind] + ids.opaqueBase64(`node:${kind}`, key, 14);
}

/** Percent-encodes each segment of a path, keeping the slashes. */
export function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

export const repoApi = (fullName: string) => `${API}/repos/${fullName}`;
export const repoWeb = (fullName: string) => `${WEB}/${fullName}`;
export const userApi = (login: string) => `${API}/users/${login}`;
