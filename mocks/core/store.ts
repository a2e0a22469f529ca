/**
 * The document store of one service: named collections of JSON documents keyed by string.
 *
 * Iteration follows insertion order, which is deterministic because every insertion comes from
 * the dataset or from a request in journal order. Documents are frozen when stored: a handler
 * changes a document by putting a new one, which lets a transaction roll back by keeping the
 * collections' previous maps (copy-on-write on the first write of a transaction).
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every collection's documents by key, for display (`/_bench/state`) and grading. */
export type StoreDump = Record<string, Record<string, unknown>>;

/** An exact copy, order included (object keys that look like integers would be reordered). */
export type StoreSnapshot = [name: string, entries: [key: string, doc: unknown][]][];

export class Collection<T> {
  /** @internal */
  constructor(private readonly owner: DocumentStore, readonly name: string, /** @internal */ public map: Map<string, T>) {}

  get size(): number {
    return this.map.size;
  }

  get(key: string | number): T | undefined {
    return this.map.get(String(key));
  }

  has(key: string | number): boolean {
    return this.map.has(String(key));
  }

  /** Stores `doc` under `key` (replacing any previous one, which keeps its place in order). */
  put(key: string | number, doc: T): T {
    this.owner.beforeWrite(this);
    const frozen = Object.freeze(doc);
    this.map.set(String(key), frozen);
    return frozen;
  }

  /** Replaces the document at `key` with `{...old, ...patch}`; undefined when there is none. */
  update(key: string | number, patch: Partial<T>): T | undefined {
    const old = this.get(key);
    if (old === undefined) return undefined;
    return this.put(key, { ...old, ...patch });
  }

  delete(key: string | number): boolean {
    if (!this.has(key)) return false;
    this.owner.beforeWrite(this);
    return this.map.delete(String(key));
  }

  values(): T[] {
    return [...this.map.values()];
  }

  entries(): [string, T][] {
    return [...this.map.entries()];
  }

  find(predicate: (doc: T) => boolean): T | undefined {
    for (const doc of this.map.values()) if (predicate(doc)) return doc;
    return undefined;
  }

  filter(predicate: (doc: T) => boolean): T[] {
    const out: T[] = [];
    for (const doc of this.map.values()) if (predicate(doc)) out.push(doc);
    return out;
  }
}

export class DocumentStore {
  private readonly collections = new Map<string, Collection<unknown>>();
  /** Maps as they were before the open transaction first wrote each collection. */
  private saved: Map<Collection<unknown>, Map<string, unknown>> | null = null;

  collection<T>(name: string): Collection<T> {
    let found = this.collections.get(name);
    if (!found) {
      found = new Collection<unknown>(this, name, new Map());
      this.collections.set(name, found);
    }
    return found as Collection<T>;
  }

  /** Runs `fn`; if it throws, every collection is put back as it was and the error rethrown. */
  transaction<R>(fn: () => R): R {
    if (this.saved) return fn();
    this.saved = new Map();
    try {
      const result = fn();
      this.saved = null;
      return result;
    } catch (error) {
      this.rollback();
      throw error;
    }
  }

  /** @internal */
  beforeWrite(collection: Collection<unknown>): void {
    if (this.saved && !this.saved.has(collection)) this.saved.set(collection, new Map(collection.map));
  }

  private rollback(): void {
    for (const [collection, map] of this.saved ?? []) collection.map = map;
    this.saved = null;
  }

  /** A deep copy of every collection, in order. */
  snapshot(): StoreSnapshot {
    return [...this.collections].map(([name, collection]) => [name, structuredClone(collection.entries())]);
  }

  restore(snapshot: StoreSnapshot): void {
    this.collections.clear();
    for (const [name, entries] of structuredClone(snapshot)) {
      const collection = this.collection<unknown>(name);
      for (const [key, doc] of entries) collection.map.set(key, deepFreeze(doc));
    }
  }

  /** Every collection as a plain object (a copy), for `/_bench/state` and grading. */
  dump(): StoreDump {
    const out: StoreDump = {};
    for (const [name, collection] of this.collections) out[name] = Object.fromEntries(collection.entries());
    return structuredClone(out);
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
