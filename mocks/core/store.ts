/**
 * The document store of one service: named collections of JSON documents keyed by string.
 *
 * Iteration follows insertion order, which is deterministic because every insertion comes from
 * the dataset or from a request in journal order. Documents are frozen when stored: a handler
 * changes a document by putting a new one, which lets a transaction roll back by keeping each
 * written key's previous document (an undo log; see `Undo`).
 */
import { GroupIndex, SortedIndex, type Groups, type Sorted, type StoreIndex } from './store-index.js';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every collection's documents by key, for display (`/_bench/state`) and grading. */
export type StoreDump = Record<string, Record<string, unknown>>;

/** An exact copy, order included (object keys that look like integers would be reordered). */
export type StoreSnapshot = [name: string, entries: [key: string, doc: unknown][]][];

export class Collection<T> {
  /** Built on first use; see store-index.ts. */
  private indexes = new Map<string, StoreIndex<T>>();

  /** @internal */
  constructor(private readonly owner: DocumentStore, readonly name: string, /** @internal */ public map: Map<string, T>) {}

  /**
   * The documents grouped by `groupOf` (null: in no group), kept up to date as they are written.
   * Built on the first call under `name`; later calls with that name get the same index, so one
   * name must always come with the same function.
   */
  groups(name: string, groupOf: (doc: T) => string | null): Groups<T> {
    return this.index(name, () => new GroupIndex(this.map, groupOf));
  }

  /** The documents in `sortKeyOf` order (null: left out), kept up to date; built on first use under `name`. */
  sorted(name: string, sortKeyOf: (doc: T) => string | null): Sorted<T> {
    return this.index(name, () => new SortedIndex(this.map, sortKeyOf));
  }

  private index<I extends StoreIndex<T>>(name: string, build: () => I): I {
    let found = this.indexes.get(name);
    if (!found) {
      found = build();
      this.indexes.set(name, found);
    }
    return found as I;
  }

  /** @internal Sets or (undefined) deletes `key`'s document, telling the indexes. */
  write(key: string, doc: T | undefined): void {
    const before = this.map.get(key);
    if (doc === undefined) this.map.delete(key);
    else this.map.set(key, doc);
    for (const index of this.indexes.values()) index.move(key, before, doc);
  }

  /** @internal Puts the whole map back (a rollback after a delete): the indexes are built again on use. */
  replaceAll(map: Map<string, T>): void {
    this.map = map;
    this.indexes = new Map();
  }

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
    const k = String(key);
    this.owner.beforeWrite(this, k, false);
    const frozen = Object.freeze(doc);
    this.write(k, frozen);
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
    this.owner.beforeWrite(this, String(key), true);
    this.write(String(key), undefined);
    return true;
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

/** A key that did not exist before the transaction wrote it. */
const ABSENT = Symbol('absent');

/**
 * What rolling back one collection takes: each written key's document from before its first
 * write in the transaction (ABSENT: the key was new), so a write costs O(1) however large the
 * collection. Puts never move a key (a new key goes last), so undoing them restores the order
 * exactly. A delete does move keys, so on the first delete the map as it was when the
 * transaction began is rebuilt once (`whole`) and rollback puts that back.
 */
interface Undo {
  keys: Map<string, unknown>;
  whole: Map<string, unknown> | null;
}

/** What a transaction needs of a collection it wrote (any document type). */
interface Undoable {
  readonly map: ReadonlyMap<string, unknown>;
  write(key: string, doc: unknown): void;
  replaceAll(map: Map<string, unknown>): void;
}

export class DocumentStore {
  private readonly collections = new Map<string, Collection<unknown>>();
  /** How to put back each collection the open transaction wrote. */
  private saved: Map<Undoable, Undo> | null = null;

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
  beforeWrite(collection: Undoable, key: string, deleting: boolean): void {
    if (!this.saved) return;
    let undo = this.saved.get(collection);
    if (!undo) {
      undo = { keys: new Map(), whole: null };
      this.saved.set(collection, undo);
    }
    if (undo.whole) return;
    if (deleting) {
      const whole = new Map(collection.map);
      for (const [k, old] of undo.keys) {
        if (old === ABSENT) whole.delete(k);
        else whole.set(k, old);
      }
      undo.whole = whole;
      undo.keys.clear();
      return;
    }
    if (!undo.keys.has(key)) undo.keys.set(key, collection.map.has(key) ? collection.map.get(key) : ABSENT);
  }

  private rollback(): void {
    for (const [collection, undo] of this.saved ?? []) {
      if (undo.whole) {
        collection.replaceAll(undo.whole);
        continue;
      }
      for (const [key, old] of undo.keys) collection.write(key, old === ABSENT ? undefined : old);
    }
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
