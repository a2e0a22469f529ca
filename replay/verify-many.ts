import type { ChalkInstance } from 'chalk';
import { fork, type ChildProcess } from 'node:child_process';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ToolbenchError, isToolbenchError } from '../mocks/core/errors.js';
import { formatReport, type ReplayReport } from './report.js';
import type { FirstResponses } from './run.js';
import { BatchInputs } from './rebuild.js';
import { verifyJournalWithResponses, type VerifyOptions } from './verify.js';
import type { VerifyAnswer, VerifyJob } from './verify-worker.js';

/** One journal's outcome in `replay --verify DIR… --jobs N`. */
export type VerifiedJournal =
  | { dir: string; verdict: 'identical' | 'divergent'; report: ReplayReport; first: FirstResponses | null }
  | { dir: string; verdict: 'unusable'; error: { code: string | null; message: string } };

export interface VerifyManyOptions extends Omit<VerifyOptions, 'progress' | 'catalog' | 'batch'> {
  /** Journals verified at once: this process, and for N > 1 N − 1 child processes beside it. */
  jobs: number;
  /** Told as each journal finishes (in completion order). */
  onDone?: (result: VerifiedJournal, index: number) => void;
}

/**
 * Verifies every journal in `dirs` and returns their outcomes in the order given. A journal that
 * cannot be verified (missing, damaged, a changed dataset) is `unusable` with its coded error,
 * and the others still run. With `jobs` > 1 this process and up to `jobs` − 1 child processes
 * each take the next journal when done with one (journals differ in length); a verifier process
 * that dies makes its journal unusable, and a new one takes the rest. A bug (an error without a code) is
 * thrown, as with one journal.
 */
export async function verifyMany(dirs: readonly string[], options: VerifyManyOptions): Promise<VerifiedJournal[]> {
  const { jobs, onDone, ...verify } = options;
  const results: VerifiedJournal[] = new Array(dirs.length);
  const done = (index: number, result: VerifiedJournal) => {
    results[index] = result;
    onDone?.(result, index);
  };
  let next = 0;
  // This process's journals share one read of the catalog and baselines (each child has its own).
  const here = { ...verify, batch: new BatchInputs() };
  if (jobs <= 1 || dirs.length <= 1) {
    for (; next < dirs.length; next++) done(next, await verifyHere(dirs[next]!, here));
    return results;
  }
  let bug: Error | null = null;
  // This process is one of the lanes (it is loaded and warm already); the others are children.
  const local = async () => {
    while (next < dirs.length && !bug) {
      const index = next++;
      done(index, await verifyHere(dirs[index]!, here));
    }
  };
  const lane = async () => {
    let worker: Worker | null = null;
    try {
      while (next < dirs.length && !bug) {
        const index = next++;
        worker ??= await Worker.start();
        const answer = await worker.verify(dirs[index]!, verify).catch((error: Error) => {
          worker = null;
          return { ok: false as const, code: 'TB_ERR_REPLAY_WORKER', message: `verifying ${dirs[index]} failed: ${error.message}` };
        });
        if (answer.ok) done(index, { dir: dirs[index]!, verdict: answer.outcome.report.verdict, ...answer.outcome });
        else if (answer.code === null) bug ??= new Error(`verifying ${dirs[index]}: ${answer.message}`);
        else done(index, { dir: dirs[index]!, verdict: 'unusable', error: { code: answer.code, message: answer.message } });
      }
    } finally {
      await (worker as Worker | null)?.close();
    }
  };
  await Promise.all([local(), ...Array.from({ length: Math.min(jobs, dirs.length) - 1 }, lane)]);
  if (bug) throw bug;
  return results;
}

async function verifyHere(dir: string, options: Omit<VerifyOptions, 'progress'>): Promise<VerifiedJournal> {
  try {
    const outcome = await verifyJournalWithResponses(dir, options);
    return { dir, verdict: outcome.report.verdict, ...outcome };
  } catch (error) {
    if (!isToolbenchError(error)) throw error;
    return { dir, verdict: 'unusable', error: { code: error.code, message: error.message } };
  }
}

/** The overall verdict: unusable over divergent over identical. */
export function overallVerdict(results: readonly VerifiedJournal[]): 'identical' | 'divergent' | 'unusable' {
  if (results.some((r) => r.verdict === 'unusable')) return 'unusable';
  return results.some((r) => r.verdict === 'divergent') ? 'divergent' : 'identical';
}

/** The worker module beside this one: .ts from the sources (through tsx), .js from dist/. */
const WORKER = fileURLToPath(new URL(`./verify-worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url));

/** A verifier child process (replay/verify-worker.ts): one journal at a time. */
class Worker {
  private waiting: { resolve: (answer: VerifyAnswer) => void; reject: (error: Error) => void } | null = null;
  private nextId = 1;

  private constructor(private readonly child: ChildProcess) {
    child.on('message', (answer: VerifyAnswer) => {
      const waiting = this.waiting;
      this.waiting = null;
      waiting?.resolve(answer);
    });
    child.on('exit', (code, signal) => {
      const waiting = this.waiting;
      this.waiting = null;
      waiting?.reject(new Error(`its verifier process exited (${signal ?? code})`));
    });
  }

  static start(): Promise<Worker> {
    // Debugger and profiler flags stay with the parent; the loader (tsx) goes to the child.
    const execArgv = process.execArgv.filter((arg) => !/^--(inspect|cpu-prof|heap-prof)/.test(arg));
    const child = fork(WORKER, [], { execArgv, serialization: 'advanced', stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    return new Promise((resolve, reject) => {
      child.once('message', () => resolve(new Worker(child)));
      child.once('error', (error) => reject(new ToolbenchError('TB_ERR_REPLAY_WORKER', `cannot start a verifier process: ${error.message}`)));
      child.once('exit', (code) => reject(new ToolbenchError('TB_ERR_REPLAY_WORKER', `a verifier process exited (${code}) before it was ready`)));
    });
  }

  verify(dir: string, options: VerifyJob['options']): Promise<VerifyAnswer> {
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.child.send({ id: this.nextId++, dir, options } satisfies VerifyJob);
    });
  }

  close(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.disconnect();
    });
  }
}

/** `replay --json` with several journals: one object, every journal's report (or error) in the order given. */
export function manyJson(results: readonly VerifiedJournal[], jobs: number, elapsedMs: number) {
  const count = (verdict: VerifiedJournal['verdict']) => results.filter((r) => r.verdict === verdict).length;
  return {
    verdict: overallVerdict(results),
    journals: results.map((r) => (r.verdict === 'unusable' ? { verdict: r.verdict, journal: r.dir, error: r.error } : r.report)),
    identical: count('identical'),
    divergent: count('divergent'),
    unusable: count('unusable'),
    entries: results.reduce((sum, r) => sum + (r.verdict === 'unusable' ? 0 : r.report.entries), 0),
    jobs,
    elapsedMs: Math.round(elapsedMs),
  };
}

/** The combined report: one line per journal, each divergent journal's own report after, a total. */
export function formatMany(results: readonly VerifiedJournal[], jobs: number, elapsedMs: number, c: ChalkInstance): string {
  const lines: string[] = [];
  for (const r of results) {
    if (r.verdict === 'unusable') lines.push(`${c.red.bold('unusable ')} ${r.dir}: ${r.error.message}`);
    else if (r.verdict === 'identical') lines.push(`${c.green.bold('identical')} ${r.dir}: ${r.report.entries} entries`);
    else lines.push(`${c.red.bold('divergent')} ${r.dir}: ${r.report.divergent} of ${r.report.entries} entries differ; first at seq ${r.report.firstDivergence?.seq}`);
  }
  for (const r of results) if (r.verdict === 'divergent') lines.push('', formatReport(r.report, c).trimEnd());
  const json = manyJson(results, jobs, elapsedMs);
  lines.push('', `${results.length} journals: ${json.identical} identical, ${json.divergent} divergent, ${json.unusable} unusable; `
    + `${json.entries} entries in ${json.elapsedMs} ms with ${jobs} job${jobs === 1 ? '' : 's'}`);
  return lines.join('\n') + '\n';
}

/** `--report DIR` with several journals: `01-<folder>.json`, in the order given (folders may share a name). */
export function reportFileName(dir: string, index: number): string {
  const parts = dir.split(/[\\/]+/).filter(Boolean);
  // A run folder's journal is `runs/x/journal`: name the file after `x`.
  const name = parts.at(-1) === 'journal' && parts.length > 1 ? parts.at(-2)! : parts.at(-1) ?? 'journal';
  return `${String(index + 1).padStart(2, '0')}-${name.replace(/[^A-Za-z0-9._-]/g, '_')}.json`;
}
