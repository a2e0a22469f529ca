import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JOURNAL_FORMAT, type JournalHeader } from '../../mocks/core/journal-format.js';

export function tempDir(prefix = 'toolbench-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
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
