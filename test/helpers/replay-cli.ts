import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CLI_ARGS } from './cli.js';
import { sourceUrl } from '../../mocks/core/source-url.js';

const root = fileURLToPath(new URL('../..', sourceUrl(import.meta.url)));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node --import tsx ARGS…` with exactly `env`, collecting its output. */
export function runTsx(args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<CliResult> {
  // By its path: `--import tsx` resolves from the child's cwd, which may be a temporary folder.
  return runNode(['--import', import.meta.resolve('tsx'), ...args], options);
}

/** Runs `node ARGS…` with exactly `env`, collecting its output. */
export function runNode(args: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...args], { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => { stdout += chunk; });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk; });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs `toolbench ARGS…` (test/helpers/cli.ts: dist/ when built, else the sources), never on a TTY. */
export function toolbench(args: string[], env: Record<string, string | undefined> = {}): Promise<CliResult> {
  return runNode([...CLI_ARGS, ...args], { cwd: root, env: { ...process.env, NO_COLOR: undefined, FORCE_COLOR: undefined, ...env } });
}
