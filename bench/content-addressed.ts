/**
 * Would a content-addressed journal pay? Measured on real entries: each request and response
 * body replaced by its sha256 (32 bytes) in the packed entry, every distinct body stored once
 * beside it; what that saves in bytes, what hashing costs per entry, and how fast LevelDB alone
 * writes each encoding's values (batches of 1,000, the same disk). An estimate of a format that
 * does not exist: nothing here is read back.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Level } from 'level';
import { Packr } from 'msgpackr';
import { entryKey, type JournalEntry } from '../mocks/core/journal-format.js';
import type { ContentAddressedEstimate } from './report.js';

const packr = new Packr({ useRecords: false });

export async function contentAddressedEstimate(entries: readonly JournalEntry[]): Promise<ContentAddressedEstimate> {
  const plain: Uint8Array[] = entries.map((entry) => packr.pack(entry));
  const seen = new Set<string>();
  const values: Uint8Array[] = [];
  let bodyBytes = 0;
  let repeated = 0;
  const hashStart = performance.now();
  const digests = entries.map((entry) => [entry.request.body, entry.response.body].map((body) => createHash('sha256').update(body).digest()));
  const hashMicrosPerEntry = (performance.now() - hashStart) * 1000 / Math.max(1, entries.length);
  entries.forEach((entry, i) => {
    const [requestDigest, responseDigest] = digests[i]!;
    values.push(packr.pack({ ...entry, request: { ...entry.request, body: requestDigest }, response: { ...entry.response, body: responseDigest } }));
    bodyBytes += entry.response.body.length;
    for (const [body, digest] of [[entry.request.body, requestDigest!], [entry.response.body, responseDigest!]] as const) {
      const key = digest.toString('hex');
      if (seen.has(key)) {
        if (body === entry.response.body) repeated += body.length;
        continue;
      }
      seen.add(key);
      values.push(body);
    }
  });
  const sum = (list: Uint8Array[]) => list.reduce((total, value) => total + value.length, 0);
  return {
    entries: entries.length,
    packedBytes: sum(plain),
    contentAddressedBytes: sum(values) + seen.size * 32,
    repeatedBodyShare: bodyBytes === 0 ? 0 : repeated / bodyBytes,
    hashMicrosPerEntry,
    levelDbPerSecond: entries.length / (await writeAll(plain) / 1000),
    contentAddressedLevelDbPerSecond: entries.length / (await writeAll(values) / 1000),
  };
}

/** ms for LevelDB alone to write `values` in batches of 1,000, in a fresh directory. */
async function writeAll(values: readonly Uint8Array[]): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'toolbench-bench-ca-'));
  const db = new Level<string, Uint8Array>(dir, { keyEncoding: 'utf8', valueEncoding: 'view' });
  await db.open();
  try {
    const start = performance.now();
    for (let from = 0; from < values.length; from += 1000) {
      await db.batch(values.slice(from, from + 1000).map((value, i) => ({ type: 'put' as const, key: entryKey(from + i + 1), value })));
    }
    return performance.now() - start;
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
