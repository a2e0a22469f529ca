import type { World } from '../mocks/core/world.js';
import type { JournalEntry } from '../mocks/core/journal-format.js';
import { DivergenceTally, diffResponse, type DivergenceSummary, type ReplayedResponse } from './diff.js';
import { inProcess, overHttp, type Reissuer } from './reissue.js';
import type { JournalSource } from './source.js';

export interface ReplayOptions {
  /** `process` (default): straight into the world; `http`: over the world's plain ports. */
  via?: 'process' | 'http';
  /** Called after each entry with the number replayed so far. */
  onProgress?: (done: number) => void;
  /** Called with each entry as it is read, before it is re-issued (the compatibility checks' pass). */
  onEntry?: (entry: JournalEntry) => void;
}

export interface ReplayOutcome extends DivergenceSummary {
  via: 'process' | 'http';
  /** Entries re-issued in process although `via` is http (resets, blocked or oversize requests, unknown hosts). */
  inProcess: number;
  elapsedMs: number;
  /** The first divergent entry's two responses in full (the report keeps only what differs). */
  firstResponses: FirstResponses | null;
}

export interface FirstResponses {
  recorded: JournalEntry['response'];
  replayed: ReplayedResponse;
}

/**
 * Re-issues every entry of `journal`, in sequence order and one at a time, to `world` (which
 * must be fresh: built from the journal's scenario, dataset and seed) and compares each response
 * with the recorded one. Latency is never slept: the world answers at once.
 */
export async function replayJournal(journal: JournalSource, world: World, options: ReplayOptions = {}): Promise<ReplayOutcome> {
  const started = performance.now();
  const reissuer: Reissuer = options.via === 'http' ? await overHttp(world) : inProcess(world);
  const tally = new DivergenceTally();
  let firstResponses: FirstResponses | null = null;
  try {
    let done = 0;
    for await (const recorded of journal.entries()) {
      options.onEntry?.(recorded);
      const replayed = await reissuer.issue(recorded);
      const diff = diffResponse(recorded, replayed);
      if (diff && !firstResponses) firstResponses = { recorded: recorded.response, replayed };
      tally.add(diff);
      done += 1;
      options.onProgress?.(done);
    }
  } finally {
    await reissuer.close();
  }
  return {
    ...tally.summary(),
    via: reissuer.via,
    inProcess: reissuer.via === 'http' ? reissuer.inProcess : 0,
    elapsedMs: performance.now() - started,
    firstResponses,
  };
}

