import { parseNestedForm } from '../kit/bodies.js';
import type { Call } from '../kit/operation.js';
import { glParamError } from './model.js';

/** The API's prefix. */
export const V4 = '/api/v4';

/**
 * A request's parameters as Grape sees them: the query string and the body (JSON or form)
 * together, the body winning. GitLab takes most parameters either way.
 */
export function argsOf(call: Call<unknown, unknown, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of call.req.query) {
    const name = k.endsWith('[]') ? k.slice(0, -2) : k;
    if (k.endsWith('[]')) out[name] = [...((out[name] as string[] | undefined) ?? []), v];
    else out[name] = v;
  }
  if (call.decoded.kind === 'multipart') {
    // Multipart fields (gitbeaker sends `position[new_line]` so), nested as a form would be; files stay parts.
    const fields = new URLSearchParams();
    for (const [name, part] of Object.entries(call.decoded.value)) {
      const first = Array.isArray(part) ? part[0] : part;
      if (first && first.filename === undefined) fields.append(name, first.text);
      else out[name] = part;
    }
    Object.assign(out, parseNestedForm(fields.toString()));
    return out;
  }
  const value = call.decoded.value;
  if (value && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Uint8Array)) Object.assign(out, value);
  return out;
}

export function str(args: Record<string, unknown>, name: string): string | undefined {
  const v = args[name];
  if (v === undefined || v === null) return undefined;
  return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v);
}

/** A required parameter: Grape's `{"error": "<name> is missing"}` when absent. */
export function need(args: Record<string, unknown>, name: string): string {
  const v = str(args, name);
  if (v === undefined || v === '') throw glParamError(`${name} is missing`);
  return v;
}

export function num(args: Record<string, unknown>, name: string): number | undefined {
  const v = args[name];
  if (v === undefined || v === null || v === '') return undefined;
  const n = Number(v);
  if (!Number.isFinite(n)) throw glParamError(`${name} is invalid`);
  return n;
}

export function bool(args: Record<string, unknown>, name: string): boolean | undefined {
  const v = args[name];
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === '1' || v === 1) return true;
  if (v === 'false' || v === '0' || v === 0) return false;
  throw glParamError(`${name} is invalid`);
}

/** A list parameter: an array, or a comma-separated string. */
export function list(args: Record<string, unknown>, name: string): string[] | undefined {
  const v = args[name];
  if (v === undefined || v === null) return undefined;
  if (Array.isArray(v)) return v.map(String).flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean);
  return String(v).split(',').map((s) => s.trim()).filter(Boolean);
}

export function ids(args: Record<string, unknown>, name: string): number[] | undefined {
  const v = args[name];
  if (v === undefined || v === null) return undefined;
  const items = Array.isArray(v) ? v : String(v).split(',');
  return items.map((x) => Number(x)).filter((x) => Number.isFinite(x) && x > 0);
}
