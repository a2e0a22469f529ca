import type { HeaderList } from '../mocks/core/http.js';

/** One difference between two ordered header lists. Names keep the case each side sent. */
export type HeaderChange =
  /** The value differs (or the name's case: then `replayedName` says how the replay spelt it). */
  | { op: 'changed'; name: string; recorded: string; replayed: string; replayedName?: string }
  | { op: 'removed'; name: string; recorded: string }
  | { op: 'added'; name: string; replayed: string }
  /** Same name and value on both sides, in another position. */
  | { op: 'moved'; name: string; value: string };

/**
 * Differences between two ordered header lists: a longest common subsequence of exact
 * `name: value` lines, then leftovers paired by name (case-insensitive) into `changed` or
 * `moved`. Empty when the lists are byte-identical.
 */
export function headerDiff(recorded: HeaderList, replayed: HeaderList): HeaderChange[] {
  // The common case (every entry of a replay that agrees), without building the lines.
  if (recorded.length === replayed.length && recorded.every(([name, value], i) => name === replayed[i]![0] && value === replayed[i]![1])) return [];
  const a = recorded.map(line);
  const b = replayed.map(line);

  // LCS table; header lists are short.
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const removed: number[] = [];
  const added: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) { i++; j++; }
    else if (j >= b.length || (i < a.length && lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) removed.push(i++);
    else added.push(j++);
  }

  const changes: HeaderChange[] = [];
  const unpaired = new Set(added);
  for (const r of removed) {
    const [name, value] = recorded[r]!;
    const sameLine = [...unpaired].find((k) => replayed[k]![0] === name && replayed[k]![1] === value);
    const sameName = sameLine ?? [...unpaired].find((k) => replayed[k]![0].toLowerCase() === name.toLowerCase());
    if (sameName === undefined) {
      changes.push({ op: 'removed', name, recorded: value });
      continue;
    }
    unpaired.delete(sameName);
    const [otherName, otherValue] = replayed[sameName]!;
    if (otherName === name && otherValue === value) changes.push({ op: 'moved', name, value });
    else if (otherName === name) changes.push({ op: 'changed', name, recorded: value, replayed: otherValue });
    else changes.push({ op: 'changed', name, recorded: value, replayed: otherValue, replayedName: otherName });
  }
  for (const k of unpaired) changes.push({ op: 'added', name: replayed[k]![0], replayed: replayed[k]![1] });
  return changes;
}

function line([name, value]: [string, string]): string {
  return `${name}\0${value}`;
}
