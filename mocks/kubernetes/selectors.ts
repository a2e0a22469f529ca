import { badRequest, isObject, type K8sObject } from './model.js';

/** A parsed label selector requirement (`a=b`, `a!=b`, `a in (x,y)`, `a notin (x)`, `a`, `!a`). */
type Requirement = { key: string; op: 'eq' | 'ne' | 'in' | 'notin' | 'exists' | '!exists'; values: string[] };

/** Splits on commas outside parentheses. */
function terms(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')') depth--;
    else if (text[i] === ',' && depth === 0) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out.map((t) => t.trim()).filter((t) => t.length > 0);
}

export function parseLabelSelector(text: string): Requirement[] {
  return terms(text).map((term) => {
    let m = /^([A-Za-z0-9_./-]+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(term);
    if (m) return { key: m[1]!, op: m[2] as 'in' | 'notin', values: m[3]!.split(',').map((v) => v.trim()).filter(Boolean) };
    m = /^([A-Za-z0-9_./-]+)\s*(==|!=|=)\s*([A-Za-z0-9_.-]*)$/.exec(term);
    if (m) return { key: m[1]!, op: m[2] === '!=' ? 'ne' : 'eq', values: [m[3]!] };
    m = /^(!?)([A-Za-z0-9_./-]+)$/.exec(term);
    if (m) return { key: m[2]!, op: m[1] ? '!exists' : 'exists', values: [] };
    throw badRequest(`unable to parse requirement: found '${term}', expected: in, notin, =, ==, !=, gt, lt`);
  });
}

export function matchesLabels(labels: Record<string, string> | undefined, requirements: Requirement[]): boolean {
  const have = labels ?? {};
  return requirements.every((r) => {
    const value = Object.prototype.hasOwnProperty.call(have, r.key) ? have[r.key] : undefined;
    switch (r.op) {
      case 'eq': return value === r.values[0];
      case 'ne': return value !== r.values[0];
      case 'in': return value !== undefined && r.values.includes(value);
      case 'notin': return value === undefined || !r.values.includes(value);
      case 'exists': return value !== undefined;
      case '!exists': return value === undefined;
    }
  });
}

/** A `matchLabels`/`matchExpressions` selector as a label-selector string's requirements. */
export function selectorRequirements(selector: unknown): Requirement[] {
  if (!isObject(selector)) return [];
  const out: Requirement[] = [];
  for (const [key, value] of Object.entries(isObject(selector.matchLabels) ? selector.matchLabels : {})) out.push({ key, op: 'eq', values: [String(value)] });
  for (const expr of Array.isArray(selector.matchExpressions) ? selector.matchExpressions : []) {
    const e = expr as { key: string; operator: string; values?: string[] };
    const op = ({ In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!exists' } as const)[e.operator as 'In'];
    if (op) out.push({ key: e.key, op, values: e.values ?? [] });
  }
  return out;
}

export function selectorString(selector: unknown): string {
  return selectorRequirements(selector).map((r) => {
    switch (r.op) {
      case 'eq': return `${r.key}=${r.values[0]}`;
      case 'ne': return `${r.key}!=${r.values[0]}`;
      case 'in': return `${r.key} in (${r.values.join(',')})`;
      case 'notin': return `${r.key} notin (${r.values.join(',')})`;
      case 'exists': return r.key;
      case '!exists': return `!${r.key}`;
    }
  }).join(',');
}

/** Field selectors each kind supports, as the API server registers them. */
const FIELDS: Record<string, readonly string[]> = {
  Pod: ['spec.nodeName', 'spec.restartPolicy', 'spec.schedulerName', 'spec.serviceAccountName', 'spec.hostNetwork', 'status.phase', 'status.podIP', 'status.nominatedNodeName'],
  Event: ['involvedObject.kind', 'involvedObject.namespace', 'involvedObject.name', 'involvedObject.uid', 'involvedObject.apiVersion', 'involvedObject.resourceVersion', 'involvedObject.fieldPath', 'reason', 'reportingComponent', 'source', 'type'],
  Secret: ['type'],
  Namespace: ['status.phase'],
  Node: ['spec.unschedulable'],
  ReplicaSet: ['status.replicas'],
  Job: ['status.successful'],
};

function fieldValue(obj: K8sObject, path: string): string {
  if (path === 'metadata.name') return obj.metadata.name;
  if (path === 'metadata.namespace') return obj.metadata.namespace ?? '';
  if (obj.kind === 'Event' && path === 'source') return String((obj.source as { component?: string } | undefined)?.component ?? '');
  let cur: unknown = obj;
  for (const part of path.split('.')) cur = isObject(cur) ? cur[part] : undefined;
  return cur === undefined || cur === null ? '' : String(cur);
}

export type FieldRequirement = { path: string; negate: boolean; value: string };

export function parseFieldSelector(text: string, kind: string): FieldRequirement[] {
  return terms(text).map((term) => {
    const m = /^([A-Za-z0-9_.]+)\s*(==|!=|=)\s*(.*)$/.exec(term);
    if (!m) throw badRequest(`invalid selector: '${text}'; can't understand '${term}'`);
    const path = m[1]!;
    if (path !== 'metadata.name' && path !== 'metadata.namespace' && !(FIELDS[kind] ?? []).includes(path)) {
      throw badRequest(`field label not supported: ${path}`);
    }
    return { path, negate: m[2] === '!=', value: m[3]! };
  });
}

export function matchesFields(obj: K8sObject, requirements: FieldRequirement[]): boolean {
  return requirements.every((r) => (fieldValue(obj, r.path) === r.value) !== r.negate);
}
