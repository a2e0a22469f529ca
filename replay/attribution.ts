import type { Attribution } from '../mocks/core/journal-format.js';

/** How an entry's origin is shown: `mcp github/create_issue`, `direct`, `startup`, `blocked`, `-` (a plain port). */
export function attributionLabel(attribution: Attribution | null): string {
  if (!attribution) return '-';
  if (attribution.kind !== 'mcp') return attribution.kind;
  const who = attribution.endpoint ?? attribution.client;
  const what = [who, attribution.tool].filter((part): part is string => Boolean(part)).join('/');
  return what ? `mcp ${what}` : 'mcp';
}

/** The audit category of an entry: its attribution kind, or `unattributed` for the plain ports. */
export type AttributionCategory = Attribution['kind'] | 'unattributed';

export function attributionCategory(attribution: Attribution | null): AttributionCategory {
  return attribution?.kind ?? 'unattributed';
}
