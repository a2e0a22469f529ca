import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ToolbenchError } from '../mocks/core/errors.js';

/**
 * The journal a command-line argument names. A run folder (`runs/x`, as `record` writes it)
 * stands for its `journal/`; a path that does not exist is an error that suggests the nearest
 * name beside it ("did you mean"). Every command that takes a JOURNAL resolves it here.
 */
export function resolveJournalPath(path: string): string {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path;
  if (existsSync(trimmed)) {
    const nested = join(trimmed, 'journal');
    const isLevelDb = (dir: string) => existsSync(join(dir, 'CURRENT'));
    if (statSync(trimmed).isDirectory() && !isLevelDb(trimmed) && existsSync(nested) && statSync(nested).isDirectory()) return nested;
    return trimmed;
  }
  const guess = nearestName(trimmed);
  throw new ToolbenchError('TB_ERR_JOURNAL_MISSING', `no journal at ${path}${guess ? `; did you mean ${guess}?` : ''}`);
}

/** The closest existing sibling of a missing path (or of its nearest missing ancestor), if one is close. */
function nearestName(path: string): string | undefined {
  const parent = dirname(path);
  if (parent !== path && !existsSync(parent)) {
    const up = nearestName(parent);
    return up === undefined ? undefined : join(up, basename(path));
  }
  let names: string[];
  try {
    names = readdirSync(parent === '' ? '.' : parent);
  } catch {
    return undefined;
  }
  const wanted = basename(path);
  let best: { name: string; distance: number } | undefined;
  for (const name of names) {
    const distance = editDistance(wanted.toLowerCase(), name.toLowerCase());
    if (!best || distance < best.distance) best = { name, distance };
  }
  // Close: a couple of typos, or a third of the name for long run names (`demo-3` for `demo-13`).
  if (!best || best.distance > Math.max(2, Math.floor(wanted.length / 3))) return undefined;
  return parent === '.' && !path.startsWith('./') ? best.name : join(parent, best.name);
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = row;
  }
  return previous[b.length]!;
}
