import { badRequest, clone, isObject } from './model.js';

/**
 * The three patch types the API server accepts by Content-Type: JSON merge patch (RFC 7386),
 * strategic merge patch (merge patch whose lists of named things merge by key; `$patch: delete`
 * and `$retainKeys` are not modelled) and JSON patch (RFC 6902).
 */

export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return clone(patch);
  const out: Record<string, unknown> = isObject(target) ? clone(target) : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = mergePatch(out[key], value);
  }
  return out;
}

/** Merge keys of the lists strategic merge patch merges by element (the API types' patchMergeKey). */
const MERGE_KEYS: Record<string, string> = {
  containers: 'name', initContainers: 'name', ephemeralContainers: 'name', env: 'name', volumes: 'name', volumeMounts: 'mountPath',
  ports: 'containerPort', imagePullSecrets: 'name', conditions: 'type', tolerations: 'key', hostAliases: 'ip', ownerReferences: 'uid',
};

export function strategicMergePatch(target: unknown, patch: unknown, key = ''): unknown {
  if (Array.isArray(patch)) {
    const mergeKey = MERGE_KEYS[key];
    if (!mergeKey || !Array.isArray(target)) return clone(patch);
    const out = clone(target) as unknown[];
    for (const item of patch) {
      if (!isObject(item)) continue;
      // Service ports merge by `port`, container ports by `containerPort`.
      const k = key === 'ports' && item.containerPort === undefined && item.port !== undefined ? 'port' : mergeKey;
      const index = out.findIndex((existing) => isObject(existing) && existing[k] === item[k]);
      if (item.$patch === 'delete') {
        if (index >= 0) out.splice(index, 1);
      } else if (index >= 0) out[index] = strategicMergePatch(out[index], item);
      else out.push(clone(item));
    }
    return out;
  }
  if (!isObject(patch)) return clone(patch);
  const out: Record<string, unknown> = isObject(target) ? clone(target) : {};
  for (const [k, value] of Object.entries(patch)) {
    if (k.startsWith('$')) continue;
    if (value === null) delete out[k];
    else out[k] = strategicMergePatch(out[k], value, k);
  }
  return out;
}

function pointer(path: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/')) throw badRequest(`the server rejected our request due to an error in our request`);
  return path.slice(1).split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function parentOf(doc: unknown, parts: string[], path: string): { parent: Record<string, unknown> | unknown[]; last: string } {
  let cur: unknown = doc;
  for (const part of parts.slice(0, -1)) {
    cur = Array.isArray(cur) ? cur[Number(part)] : isObject(cur) ? cur[part] : undefined;
    if (cur === undefined) throw status422(`doc is missing path: "${path}": missing value`);
  }
  if (!Array.isArray(cur) && !isObject(cur)) throw status422(`doc is missing path: "${path}": missing value`);
  return { parent: cur, last: parts[parts.length - 1]! };
}

function status422(message: string): Error {
  return badRequest(message);
}

function get(doc: unknown, path: string): unknown {
  let cur: unknown = doc;
  for (const part of pointer(path)) cur = Array.isArray(cur) ? cur[Number(part)] : isObject(cur) ? cur[part] : undefined;
  return cur;
}

export function jsonPatch(target: unknown, ops: unknown): unknown {
  if (!Array.isArray(ops)) throw badRequest('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  let doc = clone(target);
  for (const raw of ops) {
    if (!isObject(raw) || typeof raw.op !== 'string' || typeof raw.path !== 'string') throw badRequest('the server rejected our request due to an error in our request');
    const { op, path } = raw as { op: string; path: string };
    const value = raw.value;
    if (op === 'test') {
      if (JSON.stringify(get(doc, path)) !== JSON.stringify(value)) throw badRequest(`the server rejected our request due to an error in our request: testing value ${path} failed: test failed`);
      continue;
    }
    if (op === 'move' || op === 'copy') {
      const from = String(raw.from ?? '');
      const moved = clone(get(doc, from));
      if (moved === undefined) throw badRequest(`doc is missing from path: "${from}": missing value`);
      if (op === 'move') doc = jsonPatch(doc, [{ op: 'remove', path: from }]);
      doc = jsonPatch(doc, [{ op: 'add', path, value: moved }]);
      continue;
    }
    const parts = pointer(path);
    if (parts.length === 0) {
      if (op === 'remove') throw badRequest('unable to remove the root');
      doc = clone(value);
      continue;
    }
    const { parent, last } = parentOf(doc, parts, path);
    if (Array.isArray(parent)) {
      const index = last === '-' ? parent.length : Number(last);
      if (!Number.isInteger(index) || index < 0 || index > parent.length) throw badRequest(`unable to access invalid index: ${last}`);
      if (op === 'add') parent.splice(index, 0, clone(value));
      else if (op === 'replace') {
        if (index >= parent.length) throw badRequest(`replace operation does not apply: doc is missing key: ${path}`);
        parent[index] = clone(value);
      } else if (op === 'remove') {
        if (index >= parent.length) throw badRequest(`remove operation does not apply: doc is missing path: ${path}`);
        parent.splice(index, 1);
      } else throw badRequest(`Unexpected kind: ${op}`);
    } else {
      if (op === 'add') parent[last] = clone(value);
      else if (op === 'replace') {
        if (!(last in parent)) throw badRequest(`replace operation does not apply: doc is missing key: ${path}: missing value`);
        parent[last] = clone(value);
      } else if (op === 'remove') {
        if (!(last in parent)) throw badRequest(`remove operation does not apply: doc is missing path: "${path}": missing value`);
        delete parent[last];
      } else throw badRequest(`Unexpected kind: ${op}`);
    }
  }
  return doc;
}
