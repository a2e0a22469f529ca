import test from 'ava';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

// Done when: replay speed is reported by a benchmark script (requests/s), not asserted in a
// timed test. This only checks that the script runs and reports.
test('bench/replay.ts reports requests/s for recording and both replay paths', async (t) => {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'bench/replay.ts', '--requests', '40', '--clients', '2', '--runs', '1', '--json']);
  const result = JSON.parse(stdout) as { recording: { requests: number; requestsPerSecond: number }; replay: Record<string, { best: number; entries: number }> };
  t.true(result.recording.requests >= 40);
  for (const via of ['process', 'http']) {
    t.is(result.replay[via]?.entries, result.recording.requests);
    t.true(result.replay[via]!.best > 0);
  }
});
