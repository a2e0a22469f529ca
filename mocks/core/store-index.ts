/**
 * Indexes of one collection, kept up to date as its documents are written, so that a handler
 * asking "how many open issues has this repository" or "this repository's branches in name order"
 * pays for the answer, not for a scan of every document (replay's long journals made those scans
 * most of a list request's cost: see docs/benchmarks.md, issue 14's eighth pass).
 *
 * An index is a pure function of the collection's documents: it only speeds up reads, and every
 * read gives what a scan would. Each is built on first use under its name (`Collection.groups`,
 * `Collection.sorted`), updated on every put and delete, and dropped when a collection is put back
 * whole (a rolled-back delete, a reset), to be built again on the next use.
 */

const EMPTY: ReadonlyMap<string, never> = new Map<string, never>();

/** Stamps for `GroupIndex.version`: unique in the process, so that no two states share one. */
let stamps = 0;
const stamp = () => ++stamps;

/** What a collection tells its indexes: `key`'s document went from `before` to `after` (undefined: absent). */
export interface StoreIndex<T> {
  move(key: string, before: T | undefined, after: T | undefined): void;
}

/** What a handler reads of a `GroupIndex` (an interface, so that a collection stays covariant in its type). */
export interface Groups<T> {
  count(group: string): number;
  docs(group: string): T[];
  version(group: string): number;
}

/** What a handler reads of a `SortedIndex`. */
export interface Sorted<T> {
  range(prefix: string): T[];
  any(prefix: string): boolean;
}

/**
 * Keys grouped by `groupOf(doc)` (null: in no group). Each group lists its keys in the
 * collection's order, as a scan would find them; `version(group)` changes whenever a document of
 * the group is written, for caches of what is derived from a group.
 */
export class GroupIndex<T> implements StoreIndex<T>, Groups<T> {
  /** Each group's documents by key (in the collection's order unless `unordered`). */
  private readonly members = new Map<string, Map<string, T>>();
  /**
   * Groups whose order may differ from the collection's: a key already in the collection that
   * moved in goes last in its group but keeps its place in the collection. Rebuilt on read.
   */
  private readonly unordered = new Set<string>();
  private readonly versions = new Map<string, number>();
  private readonly created = stamp();

  constructor(private readonly map: ReadonlyMap<string, T>, private readonly groupOf: (doc: T) => string | null) {
    for (const [key, doc] of map) {
      const group = groupOf(doc);
      if (group !== null) this.group(group).set(key, doc);
    }
  }

  /** How many documents are in `group`. */
  count(group: string): number {
    return this.members.get(group)?.size ?? 0;
  }

  /** The documents of `group`, in the collection's order. */
  docs(group: string): T[] {
    return [...this.ordered(group).values()];
  }

  private ordered(group: string): ReadonlyMap<string, T> {
    const members = this.members.get(group);
    if (!members) return EMPTY;
    if (this.unordered.delete(group)) {
      members.clear();
      for (const [key, doc] of this.map) if (this.groupOf(doc) === group) members.set(key, doc);
    }
    return members;
  }

  /** Changes whenever a document of `group` is put, replaced or deleted. */
  version(group: string): number {
    return this.versions.get(group) ?? this.created;
  }

  move(key: string, before: T | undefined, after: T | undefined): void {
    const from = before === undefined ? null : this.groupOf(before);
    const to = after === undefined ? null : this.groupOf(after);
    if (from !== null) this.versions.set(from, stamp());
    if (to !== null && to !== from) this.versions.set(to, stamp());
    if (from !== null && from !== to) this.members.get(from)?.delete(key);
    if (to === null) return;
    const members = this.group(to);
    // A new key goes last in the collection too; a key that was there keeps its place.
    if (from !== to && before !== undefined && members.size > 0) this.unordered.add(to);
    members.set(key, after!);
  }

  private group(group: string): Map<string, T> {
    let members = this.members.get(group);
    if (!members) {
      members = new Map();
      this.members.set(group, members);
    }
    return members;
  }
}

/**
 * Keys in the order of `sortKeyOf(doc)` (JavaScript's string order; null: left out), ties in key
 * order. `range(prefix)` is every document whose sort key starts with `prefix`: with a sort key
 * `${group}\u0000${name}`, one group's documents in name order.
 */
export class SortedIndex<T> implements StoreIndex<T>, Sorted<T> {
  /** [sort key, key, document], sorted by sort key then key. */
  private readonly rows: Row<T>[] = [];

  constructor(map: ReadonlyMap<string, T>, private readonly sortKeyOf: (doc: T) => string | null) {
    for (const [key, doc] of map) {
      const sortKey = sortKeyOf(doc);
      if (sortKey !== null) this.rows.push([sortKey, key, doc]);
    }
    this.rows.sort(compareRows);
  }

  /** The documents whose sort key starts with `prefix`, in sort order. */
  range(prefix: string): T[] {
    const out: T[] = [];
    for (let i = this.first(prefix, ''), end = this.end(prefix); i < end; i++) out.push(this.rows[i]![2]);
    return out;
  }

  /** Whether any document's sort key starts with `prefix`. */
  any(prefix: string): boolean {
    return this.first(prefix, '') < this.end(prefix);
  }

  move(key: string, before: T | undefined, after: T | undefined): void {
    const from = before === undefined ? null : this.sortKeyOf(before);
    const to = after === undefined ? null : this.sortKeyOf(after);
    if (from !== null && from === to) {
      this.rows[this.first(from, key)]![2] = after!;
      return;
    }
    if (from !== null) this.rows.splice(this.first(from, key), 1);
    if (to !== null) this.rows.splice(this.first(to, key), 0, [to, key, after!]);
  }

  /** The first row not before (sortKey, key). */
  private first(sortKey: string, key: string): number {
    let low = 0;
    let high = this.rows.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const row = this.rows[mid]!;
      if (row[0] < sortKey || (row[0] === sortKey && row[1] < key)) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /**
   * The first row after those whose sort key starts with `prefix` (they are contiguous: every row
   * before them sorts below `prefix`). `lastIndexOf(p, 0)` is `startsWith`, several times faster
   * on Node 20.
   */
  private end(prefix: string): number {
    let low = 0;
    let high = this.rows.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const sortKey = this.rows[mid]![0];
      if (sortKey < prefix || sortKey.lastIndexOf(prefix, 0) === 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}

type Row<T> = [sortKey: string, key: string, doc: T];

function compareRows<T>(a: Row<T>, b: Row<T>): number {
  if (a[0] !== b[0]) return a[0] < b[0] ? -1 : 1;
  return a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;
}
