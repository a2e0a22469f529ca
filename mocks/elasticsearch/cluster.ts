import { createHash } from 'node:crypto';
import type { DocDoc, IndexDoc } from './model.js';

/**
 * The deployment's shape: three data nodes (an Elastic Cloud deployment across three zones),
 * each primary shard on one node and its replicas on the next ones, every copy started (health
 * green), documents routed to shards by a hash of their `_id`.
 */

export const NODES = [
  { name: 'instance-0000000000', id: 'tJ2aPq5wQ3GmV0sXk1bN7g', ip: '10.42.1.17', zone: 'us-east-1a' },
  { name: 'instance-0000000001', id: 'Hn8cUe4rS6ya2LdWf0pZqA', ip: '10.42.2.23', zone: 'us-east-1b' },
  { name: 'instance-0000000002', id: 'bV5kYt1mR9xo3JgEc7uPsw', ip: '10.42.3.31', zone: 'us-east-1c' },
] as const;

function hash(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0);
}

/** The node holding copy `copy` (0: the primary) of a shard. */
export function nodeIndexOf(index: IndexDoc, shard: number, copy = 0): number {
  return (hash(index.name) + shard + copy) % NODES.length;
}

export function nodeOfShard(index: IndexDoc, shard: number): string {
  return NODES[nodeIndexOf(index, shard)]!.id;
}

/**
 * The shard a document lives on. Elasticsearch routes by a murmur3 hash of `_id`; auto IDs here
 * are seeded, so routing by them would make shard counts depend on the seed: documents go round
 * robin in insertion order instead.
 */
export function shardOf(index: IndexDoc, doc: DocDoc): number {
  return doc.order % index.shards;
}

/** A document's stored size in bytes: its source plus Lucene's per-document overhead, so sizes track content. */
export function docBytes(doc: DocDoc): number {
  return Buffer.byteLength(JSON.stringify(doc.source)) * 2 + 180;
}

/** Bytes as `_cat` prints them: `4.2kb`, `1.1mb`, `225b`. */
export function humanBytes(n: number): string {
  const units: [string, number][] = [['gb', 1024 ** 3], ['mb', 1024 ** 2], ['kb', 1024]];
  for (const [unit, size] of units) {
    if (n >= size) return `${trim(n / size)}${unit}`;
  }
  return `${n}b`;
}

function trim(value: number): string {
  return value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1).replace(/\.0$/, '') : value.toFixed(1).replace(/\.0$/, '');
}
