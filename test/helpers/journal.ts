import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JOURNAL_FORMAT, type JournalHeader } from '../../mocks/core/journal-format.js';

/** The test process's temporary folders, removed as it exits (each suite run made ~130 MB of them). */
const made: string[] = [];

/**
 * A new temporary folder, removed when the test file's process exits; TOOLBENCH_KEEP_TEMP=1 keeps
 * them, to look at a failed test's journals and logs.
 */
export function tempDir(prefix = 'toolbench-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (process.env.TOOLBENCH_KEEP_TEMP !== '1' && made.push(dir) === 1) {
    process.once('exit', () => {
      for (const path of made) rmSync(path, { recursive: true, force: true });
    });
  }
  return dir;
}

export function testHeader(overrides: Partial<JournalHeader> = {}): JournalHeader {
  return {
    format: JOURNAL_FORMAT,
    toolbench: '0.0.0-test',
    scenario: 'test/counter',
    datasetHash: 'd'.repeat(64),
    seed: 7,
    catalogHash: 'c'.repeat(64),
    epoch: '2025-01-01T00:00:00.000Z',
    tickMs: 1000,
    scenarioDir: '/nowhere',
    ...overrides,
  };
}
