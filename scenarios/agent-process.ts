import { spawn } from 'node:child_process';
import { accessSync, constants, createWriteStream, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { ToolbenchError } from '../mocks/core/errors.js';

export interface AgentRun {
  code: number | null;
  signal: string | null;
  /** The agent's stdout and stderr as one text (its last MiB), for markers such as context overflow. */
  output: string;
  /** The last lines the agent wrote to stderr (for a user whose agent failed). */
  stderrTail: string;
  timedOut: boolean;
  aborted: boolean;
}

export interface AgentOptions {
  command: string[];
  env: Record<string, string>;
  cwd: string;
  /** stdout and stderr go here too. */
  logPath: string;
  /** Copy the agent's output to ours. */
  echo: boolean;
  /** 0: no limit. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Between SIGTERM and SIGKILL of the agent's process group (default 5 s). */
  graceMs?: number;
}

const KEEP = 1024 * 1024;
const TAIL_LINES = 20;
/** After the agent's own process exits, how long its output pipes may stay open (held by a stray child). */
const DRAIN_MS = 1000;

/**
 * The executable a command names, found the way the shell finds it (PATH, or a path from `cwd`);
 * a ToolbenchError (exit 2) when there is none, so a typo costs one line and no trial folder.
 */
export function resolveAgentCommand(command: readonly string[], cwd: string, env: Record<string, string | undefined>): string {
  const name = command[0];
  if (!name) throw new ToolbenchError('TB_ERR_USAGE', 'no agent command after --');
  const runnable = (path: string) => {
    try {
      if (!statSync(path).isFile()) return false;
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (name.includes('/')) {
    const path = isAbsolute(name) ? name : resolve(cwd, name);
    if (runnable(path)) return path;
    throw new ToolbenchError('TB_ERR_USAGE', `agent command ${name}: no executable file at ${path}`);
  }
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const path = join(resolve(cwd, dir), name);
    if (runnable(path)) return path;
  }
  throw new ToolbenchError('TB_ERR_USAGE', `agent command ${name}: not found on PATH (give a path, or install it)`);
}

/**
 * Runs an agent command in its own process group, so a shell wrapper's children (`sh -c '…'`)
 * are stopped with it: SIGTERM to the group on timeout or abort, SIGKILL after the grace period.
 * When the agent's own process has exited, whatever it left running in its group is stopped too,
 * and pipes a stray process still holds are not waited on past a short drain.
 */
export function runAgent(options: AgentOptions): Promise<AgentRun> {
  const [command, ...args] = options.command;
  const grace = options.graceMs ?? 5000;
  return new Promise((resolvePromise, reject) => {
    const log = createWriteStream(options.logPath);
    const child = spawn(command!, args, { env: options.env, cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    let stderr = '';
    let timedOut = false;
    let aborted = false;
    let settled = false;
    const keep = (chunk: Buffer, echo: NodeJS.WriteStream, isErr: boolean) => {
      log.write(chunk);
      if (options.echo) echo.write(chunk);
      output = (output + chunk.toString()).slice(-KEEP);
      if (isErr) stderr = (stderr + chunk.toString()).slice(-64 * 1024);
    };
    child.stdout.on('data', (chunk: Buffer) => keep(chunk, process.stdout, false));
    child.stderr.on('data', (chunk: Buffer) => keep(chunk, process.stderr, true));
    const signalGroup = (signal: NodeJS.Signals) => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, signal);
      } catch {
        // The group is gone already.
      }
    };
    // If toolbench itself exits (a second Ctrl-C), the agent's group goes with it.
    const onExit = () => signalGroup('SIGKILL');
    process.once('exit', onExit);
    let killTimer: NodeJS.Timeout | undefined;
    const stop = () => {
      signalGroup('SIGTERM');
      killTimer ??= setTimeout(() => signalGroup('SIGKILL'), grace);
      killTimer.unref();
    };
    const timer = options.timeoutMs > 0 ? setTimeout(() => { timedOut = true; stop(); }, options.timeoutMs) : null;
    const onAbort = () => { aborted = true; stop(); };
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });
    const cleanup = () => {
      if (timer) clearTimeout(timer);
      if (killTimer) clearTimeout(killTimer);
      options.signal?.removeEventListener('abort', onAbort);
      process.off('exit', onExit);
    };
    child.once('error', (error) => {
      if (settled) return;
      settled = true;
      cleanup();
      log.end();
      const code = (error as NodeJS.ErrnoException).code;
      reject(new ToolbenchError('TB_ERR_USAGE', `cannot start the agent ${command}: ${code ?? error.message}`));
    });
    child.once('exit', (code, signal) => {
      // The agent is done: nothing it started may outlive it (nor write to the world after grading).
      signalGroup('SIGTERM');
      setTimeout(() => signalGroup('SIGKILL'), grace).unref();
      const finish = () => {
        if (settled) return;
        settled = true;
        cleanup();
        child.stdout.destroy();
        child.stderr.destroy();
        const stderrTail = stderr.split('\n').filter((line) => line.trim() !== '').slice(-TAIL_LINES).join('\n');
        log.end(() => resolvePromise({ code, signal, output, stderrTail, timedOut, aborted }));
      };
      // Usually the pipes close at once; a stray process holding them is not waited on for long.
      const drain = setTimeout(finish, DRAIN_MS);
      child.once('close', () => { clearTimeout(drain); finish(); });
    });
  });
}
