import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';

export interface AgentRun {
  code: number | null;
  signal: string | null;
  /** The agent's stdout and stderr as one text (its last MiB), for markers such as context overflow. */
  output: string;
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
}

const KEEP = 1024 * 1024;

/** Runs an agent command; ends it (SIGTERM, then SIGKILL) on timeout or abort. */
export function runAgent(options: AgentOptions): Promise<AgentRun> {
  const [command, ...args] = options.command;
  return new Promise((resolve, reject) => {
    const log = createWriteStream(options.logPath);
    const child = spawn(command!, args, { env: options.env, cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let timedOut = false;
    let aborted = false;
    const keep = (chunk: Buffer, echo: NodeJS.WriteStream) => {
      log.write(chunk);
      if (options.echo) echo.write(chunk);
      output = (output + chunk.toString()).slice(-KEEP);
    };
    child.stdout.on('data', (chunk: Buffer) => keep(chunk, process.stdout));
    child.stderr.on('data', (chunk: Buffer) => keep(chunk, process.stderr));
    const stop = () => {
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5000).unref();
    };
    const timer = options.timeoutMs > 0 ? setTimeout(() => { timedOut = true; stop(); }, options.timeoutMs) : null;
    const onAbort = () => { aborted = true; stop(); };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.once('error', (error) => {
      log.end();
      reject(Object.assign(new Error(`cannot start the agent ${command}: ${error.message}`), { code: (error as NodeJS.ErrnoException).code }));
    });
    child.once('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      log.end(() => resolve({ code, signal, output, timedOut, aborted }));
    });
  });
}
