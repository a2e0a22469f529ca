import { isoSeconds } from '../core/clock.js';
import { ToolbenchError } from '../core/errors.js';
import type { Gh } from './context.js';
import { ID_START, type IdKind } from './model.js';

/** Helpers shared by the dataset loaders. */
export function datasetError(where: string, message: string): ToolbenchError {
  return new ToolbenchError('TB_ERR_DATASET', `github dataset, ${where}: ${message}`);
}

/** An explicit ID from the dataset, or the next one; explicit IDs push the counter past them. */
export function takeId(gh: Gh, kind: IdKind, explicit: number | undefined): number {
  if (explicit === undefined) return gh.ctx.ids.next(kind, ID_START[kind]);
  gh.ctx.ids.reserve(kind, Math.max(explicit, ID_START[kind] - 1));
  return explicit;
}

/** A dataset timestamp as ISO seconds, or the fallback time. */
export function at(value: string | undefined, fallbackMs: number): string {
  return isoSeconds(value === undefined ? fallbackMs : Date.parse(value));
}
