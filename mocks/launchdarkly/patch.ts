import { invalid } from './model.js';

/**
 * RFC 6902 JSON Patch over a plain JSON value (LaunchDarkly's `PATCH` with `{patch: [...]}`):
 * add, remove, replace, move, copy and test, paths as RFC 6901 pointers. Returns a new value;
 * a failed operation is LaunchDarkly's 400.
 */
export interface PatchOp { op: string; path: string; value?: unknown; from?: string }

type Container = Record<string, unknown> | unknown[];

function tokens(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw invalid(`Invalid JSON pointer: ${pointer}`);
  return pointer.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function parentOf(root: unknown, path: string[]): Container {
  let node = root;
  for (const token of path.slice(0, -1)) {
    if (Array.isArray(node)) node = node[Number(token)];
    else if (node !== null && typeof node === 'object') node = (node as Record<string, unknown>)[token];
    else node = undefined;
    if (node === undefined) throw invalid(`Invalid JSON patch path: /${path.join('/')} does not exist`);
  }
  if (node === null || typeof node !== 'object') throw invalid(`Invalid JSON patch path: /${path.join('/')}`);
  return node as Container;
}

function index(array: unknown[], token: string, adding: boolean): number {
  if (adding && token === '-') return array.length;
  if (!/^(0|[1-9]\d*)$/.test(token)) throw invalid(`Invalid array index: ${token}`);
  const i = Number(token);
  if (i > array.length || (!adding && i === array.length)) throw invalid(`Array index out of bounds: ${token}`);
  return i;
}

function get(root: unknown, pointer: string): unknown {
  const path = tokens(pointer);
  if (path.length === 0) return root;
  const parent = parentOf(root, path);
  const last = path[path.length - 1]!;
  const value = Array.isArray(parent) ? parent[index(parent, last, false)] : parent[last];
  if (value === undefined) throw invalid(`Invalid JSON patch path: ${pointer} does not exist`);
  return value;
}

function remove(root: unknown, pointer: string): void {
  const path = tokens(pointer);
  const parent = parentOf(root, path);
  const last = path[path.length - 1]!;
  if (Array.isArray(parent)) parent.splice(index(parent, last, false), 1);
  else {
    if (!(last in parent)) throw invalid(`Invalid JSON patch path: ${pointer} does not exist`);
    delete parent[last];
  }
}

function add(root: unknown, pointer: string, value: unknown, replace: boolean): void {
  const path = tokens(pointer);
  if (path.length === 0) throw invalid('A patch may not replace the whole resource');
  const parent = parentOf(root, path);
  const last = path[path.length - 1]!;
  if (Array.isArray(parent)) {
    const i = index(parent, last, !replace);
    if (replace) parent[i] = value;
    else parent.splice(i, 0, value);
  } else {
    if (replace && !(last in parent)) throw invalid(`Invalid JSON patch path: ${pointer} does not exist`);
    parent[last] = value;
  }
}

export function applyJsonPatch<T>(value: T, ops: readonly PatchOp[]): T {
  const root = structuredClone(value) as unknown;
  for (const op of ops) {
    switch (op.op) {
      case 'add': add(root, op.path, structuredClone(op.value), false); break;
      case 'replace': add(root, op.path, structuredClone(op.value), true); break;
      case 'remove': remove(root, op.path); break;
      case 'move': { const v = get(root, op.from ?? ''); remove(root, op.from ?? ''); add(root, op.path, v, false); break; }
      case 'copy': add(root, op.path, structuredClone(get(root, op.from ?? '')), false); break;
      case 'test':
        if (JSON.stringify(get(root, op.path)) !== JSON.stringify(op.value)) throw invalid(`Test operation failed at ${op.path}`);
        break;
      default: throw invalid(`Unsupported JSON patch operation: ${op.op}`);
    }
  }
  return root as T;
}
