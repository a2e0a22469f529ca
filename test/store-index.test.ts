import test from 'ava';
import { DocumentStore, type Collection } from '../mocks/core/store.js';
import { prng } from './helpers/reliability.js';

/**
 * The store's indexes (mocks/core/store-index.ts) must answer exactly what a scan of the
 * collection answers, after any sequence of puts, deletes, group changes, rolled-back
 * transactions and restores: each test replays seeded random operations and compares after
 * every one.
 */
interface Doc { group: string; name: string; open: boolean }

const byGroup = (d: Doc) => d.group;
const openByGroup = (d: Doc) => (d.open ? d.group : null);
const byName = (d: Doc) => `${d.group}\u0000${d.name}`;
const GROUPS = ['a', 'b', 'c'];

function check(t: import('ava').ExecutionContext, items: Collection<Doc>, step: string): void {
  const all = items.values();
  for (const group of GROUPS) {
    const scanned = all.filter((d) => d.group === group);
    t.deepEqual(items.groups('by-group', byGroup).docs(group), scanned, `${step}: docs(${group})`);
    t.is(items.groups('by-group', byGroup).count(group), scanned.length, `${step}: count(${group})`);
    t.is(items.groups('open', openByGroup).count(group), scanned.filter((d) => d.open).length, `${step}: open count(${group})`);
    t.deepEqual(items.groups('open', openByGroup).docs(group), scanned.filter((d) => d.open), `${step}: open docs(${group})`);
    // Sort keys that tie go in key order.
    const sorted = items.entries().filter(([, d]) => d.group === group)
      .sort(([kx, x], [ky, y]) => (x.name < y.name ? -1 : x.name > y.name ? 1 : kx < ky ? -1 : kx > ky ? 1 : 0)).map(([, d]) => d);
    t.deepEqual(items.sorted('by-name', byName).range(`${group}\u0000`), sorted, `${step}: range(${group})`);
    t.deepEqual(items.sorted('by-name', byName).range(`${group}\u0000n1`), sorted.filter((d) => d.name.startsWith('n1')), `${step}: range(${group}, n1)`);
    t.is(items.sorted('by-name', byName).any(`${group}\u0000`), sorted.length > 0, `${step}: any(${group})`);
  }
}

for (const seed of [1, 2, 3, 42, 1105]) {
  test(`store indexes agree with a scan after seeded random writes (seed ${seed})`, (t) => {
    const next = prng(seed);
    const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
    const store = new DocumentStore();
    let items = store.collection<Doc>('items');
    const keys = Array.from({ length: 24 }, (_, i) => `k${i}`);
    const write = () => {
      const key = pick(keys);
      const roll = next();
      if (roll < 0.15) items.delete(key);
      else if (roll < 0.35 && items.has(key)) items.update(key, { open: !items.get(key)!.open });
      else if (roll < 0.5 && items.has(key)) items.update(key, { group: pick(GROUPS) });
      else items.put(key, { group: pick(GROUPS), name: `n${Math.floor(next() * 30)}`, open: next() < 0.5 });
    };
    // Built before the first write, so that every later write goes through them.
    check(t, items, 'empty');
    let snapshot = store.snapshot();
    for (let step = 0; step < 300; step++) {
      const roll = next();
      if (roll < 0.6) write();
      else if (roll < 0.85) {
        // A transaction of a few writes that throws: everything goes back, order included.
        const before = items.entries();
        t.throws(() => store.transaction(() => {
          for (let i = 0; i < 1 + Math.floor(next() * 4); i++) write();
          check(t, items, `step ${step} inside a transaction`);
          throw new Error('roll back');
        }));
        t.deepEqual(items.entries(), before);
      } else if (roll < 0.92) {
        snapshot = store.snapshot();
      } else {
        store.restore(snapshot);
        items = store.collection<Doc>('items');
      }
      check(t, items, `step ${step}`);
    }
  });
}

test('a group\'s version changes on every write to it, a rollback included, and on no other', (t) => {
  const store = new DocumentStore();
  const items = store.collection<Doc>('items');
  items.put('x', { group: 'a', name: 'x', open: true });
  const groups = items.groups('by-group', byGroup);
  const a0 = groups.version('a');
  const b0 = groups.version('b');
  items.put('y', { group: 'b', name: 'y', open: true });
  t.is(groups.version('a'), a0, 'a write to b leaves a as it was');
  t.not(groups.version('b'), b0);
  const a1 = groups.version('a');
  t.throws(() => store.transaction(() => {
    items.update('x', { name: 'changed' });
    throw new Error('roll back');
  }));
  const a2 = groups.version('a');
  t.not(a2, a1, 'a rolled-back write is a change too: what was derived inside it is stale');
  t.not(a2, a0);
  items.update('x', { group: 'b' });
  t.not(groups.version('a'), a2, 'a document leaving a group changes it');
  t.deepEqual(groups.docs('b').map((d) => d.name), ['x', 'y'], 'in the collection\'s order, not the order they joined');
});
