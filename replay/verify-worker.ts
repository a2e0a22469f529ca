/**
 * One process of `replay --verify --jobs N` (replay/verify-many.ts): verifies the journals its
 * parent sends, one at a time, and answers each with the report (and the first divergent
 * entry's responses) or the error. Messages use structured clone (bytes stay bytes).
 */
import { isToolbenchError } from '../mocks/core/errors.js';
import { BatchInputs } from './rebuild.js';
import { verifyJournalWithResponses, type VerifyOptions } from './verify.js';

export interface VerifyJob {
  id: number;
  dir: string;
  options: Omit<VerifyOptions, 'progress' | 'catalog' | 'batch'>;
}

export type VerifyAnswer =
  | { id: number; ok: true; outcome: Awaited<ReturnType<typeof verifyJournalWithResponses>> }
  | { id: number; ok: false; code: string | null; message: string };

// This process lives for one batch (replay/verify-many.ts): its journals share one read of the catalog and baselines.
const batch = new BatchInputs();

process.on('message', (job: VerifyJob) => {
  verifyJournalWithResponses(job.dir, { ...job.options, batch }).then(
    (outcome) => process.send!({ id: job.id, ok: true, outcome } satisfies VerifyAnswer),
    (error: unknown) => process.send!({
      id: job.id, ok: false, code: isToolbenchError(error) ? error.code : null,
      message: isToolbenchError(error) ? error.message : (error as Error)?.stack ?? String(error),
    } satisfies VerifyAnswer),
  );
});
process.on('disconnect', () => process.exit(0));
process.send!({ ready: true });
