/**
 * Paths where two JSON values differ, as `$.items[3].title`. Arrays are compared index by
 * index (a length change is one path of its own); object keys in either value are visited in
 * the recorded value's order, then the replayed value's new keys.
 */
export interface JsonChange {
  path: string;
  /** `changed`: both sides have a value; `removed`: only the recorded one; `added`: only the replayed one. */
  op: 'changed' | 'removed' | 'added';
  /** Compact JSON text of each side (cut at PREVIEW_CHARS). */
  recorded?: string;
  replayed?: string;
}

export const PREVIEW_CHARS = 120;

export function jsonPathDiff(recorded: unknown, replayed: unknown, limit = 20): { changes: JsonChange[]; total: number } {
  const changes: JsonChange[] = [];
  let total = 0;
  const push = (change: JsonChange) => {
    total += 1;
    if (changes.length < limit) changes.push(change);
  };
  walk(recorded, replayed, '$', push);
  return { changes, total };
}

function walk(a: unknown, b: unknown, path: string, push: (change: JsonChange) => void): void {
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) push({ path: `${path}.length`, op: 'changed', recorded: String(a.length), replayed: String(b.length) });
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const at = `${path}[${i}]`;
      if (i >= b.length) push({ path: at, op: 'removed', recorded: preview(a[i]) });
      else if (i >= a.length) push({ path: at, op: 'added', replayed: preview(b[i]) });
      else walk(a[i], b[i], at, push);
    }
    return;
  }
  if (isObject(a) && isObject(b)) {
    for (const key of Object.keys(a)) {
      const at = path + keySegment(key);
      if (!Object.hasOwn(b, key)) push({ path: at, op: 'removed', recorded: preview(a[key]) });
      else walk(a[key], b[key], at, push);
    }
    for (const key of Object.keys(b)) {
      if (!Object.hasOwn(a, key)) push({ path: path + keySegment(key), op: 'added', replayed: preview(b[key]) });
    }
    return;
  }
  if (!Object.is(a, b)) push({ path, op: 'changed', recorded: preview(a), replayed: preview(b) });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function keySegment(key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

export function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS - 1)}…` : text;
}

/** The body parsed as JSON, or `undefined` when it is empty or not JSON. */
export function parseJsonBody(body: Uint8Array): unknown {
  if (body.length === 0) return undefined;
  const first = body.find((byte) => byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09);
  // Cheap guard: only objects and arrays are worth a path diff.
  if (first !== 0x7b && first !== 0x5b) return undefined;
  try {
    return JSON.parse(strictUtf8.decode(body));
  } catch {
    return undefined;
  }
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
