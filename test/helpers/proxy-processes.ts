import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { preloadNodeOptions } from '../../proxy/preload-path.js';
import { CLI_ARGS } from './cli.js';
import { sourceUrl } from '../../mocks/core/source-url.js';

export const ROOT = fileURLToPath(new URL('../..', sourceUrl(import.meta.url)));

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a program to completion with exactly `env` (plus PATH and HOME). Never throws on a non-zero exit. */
export function run(file: string, args: string[], env: Record<string, string> = {}, timeoutMs = 30_000): Promise<Run> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd: ROOT, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...env }, timeout: timeoutMs, encoding: 'utf8' },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }));
  });
}

/** The environment of a Node child that reaches the world through the preload, trusting the CA. */
export function nodeClientEnv(proxyUrl: string, caPath: string): Record<string, string> {
  return { HTTPS_PROXY: proxyUrl, NODE_EXTRA_CA_CERTS: caPath, NODE_OPTIONS: preloadNodeOptions() };
}

/** Runs test/helpers/proxy-node-client.mjs with `steps` through the preload; its JSON lines parsed. */
export async function nodeClient(proxyUrl: string, caPath: string, steps: string[], token = ''): Promise<{ results: Record<string, unknown>[]; run: Run }> {
  const result = await run(process.execPath, [fileURLToPath(new URL('./proxy-node-client.mjs', sourceUrl(import.meta.url))), ...steps],
    { ...nodeClientEnv(proxyUrl, caPath), GITHUB_TOKEN: token });
  const results = result.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
  return { results, run: result };
}

export interface Daemon<T> {
  ready: T;
  child: ChildProcess;
  stderr(): string;
  /** SIGTERM, then wait for the exit. */
  stop(): Promise<number | null>;
}

/**
 * Starts `toolbench ARGS… --json` from the sources and waits for its ready line. The child gets
 * the parent's environment minus any proxy variables (or exactly `childEnv`, when given).
 */
/**
 * This process's environment for a toolbench child, plus `extra`: no proxy variables, and
 * NODE_OPTIONS only to `--import` the module at `preload` (none without one).
 */
export function toolbenchEnv(preload?: string, extra: Record<string, string> = {}): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env, ...extra };
  for (const name of ['HTTPS_PROXY', 'HTTP_PROXY', 'https_proxy', 'http_proxy', 'NODE_OPTIONS']) delete env[name];
  if (preload !== undefined) env.NODE_OPTIONS = `--import=${pathToFileURL(preload).href}`;
  return env;
}

export async function startToolbench<T>(args: string[], childEnv?: Record<string, string | undefined>): Promise<Daemon<T>> {
  const env = childEnv ?? toolbenchEnv();
  const child = spawn(process.execPath, [...CLI_ARGS, ...args, '--json'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk; });
  let stdout = '';
  child.stdout!.setEncoding('utf8');
  const ready = await new Promise<T>((resolve, reject) => {
    const onData = (chunk: string) => {
      stdout += chunk;
      const end = stdout.indexOf('\n');
      if (end === -1) return;
      child.stdout!.off('data', onData);
      try {
        resolve(JSON.parse(stdout.slice(0, end)) as T);
      } catch (error) {
        reject(error);
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`toolbench ${args.join(' ')} exited (${code}) before it was ready:\n${stderr}`)));
  });
  child.removeAllListeners('exit');
  const exited = once(child, 'exit');
  return {
    ready,
    child,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      const [code] = await exited;
      return code as number | null;
    },
  };
}
