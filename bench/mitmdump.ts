/**
 * mitmdump (Debian's `mitmproxy` package) as a comparison proxy: installed with apt-get when
 * missing, then run in reverse mode in front of the world's plain GitHub port, terminating TLS
 * with its own CA (the load client trusts it) and writing every flow to a file (`-w`).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

export type Availability = { ok: true; version: string } | { ok: false; why: string };

function mitmdumpVersion(): string | null {
  const probe = spawnSync('mitmdump', ['--version'], { encoding: 'utf8', timeout: 60_000 });
  if (probe.status !== 0) return null;
  return /Mitmproxy:\s*(\S+)/.exec(probe.stdout)?.[1] ?? probe.stdout.split('\n')[0]!.trim();
}

/** mitmdump on PATH, installing `mitmproxy` with apt-get (one `apt-get update` first) when missing. */
export function ensureMitmdump(log: (line: string) => void): Availability {
  const found = mitmdumpVersion();
  if (found) return { ok: true, version: found };
  if (process.platform !== 'linux' || spawnSync('apt-get', ['--version']).status !== 0) {
    return { ok: false, why: 'mitmdump is not installed and apt-get is not available' };
  }
  log('bench: mitmdump missing; installing Debian\'s mitmproxy with apt-get (once)');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = spawnSync('apt-get', ['update'], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', env, timeout: 600_000 });
  if (update.status !== 0) return { ok: false, why: `apt-get update failed: ${lastLine(update.stderr)}` };
  const install = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'mitmproxy'], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', env, timeout: 900_000 });
  if (install.status !== 0) return { ok: false, why: `apt-get install mitmproxy failed: ${lastLine(install.stderr)}` };
  const version = mitmdumpVersion();
  return version ? { ok: true, version } : { ok: false, why: 'apt-get installed mitmproxy but mitmdump does not run' };
}

function lastLine(text: string | null): string {
  return (text ?? '').trim().split('\n').at(-1) ?? '(no output)';
}

export interface RunningMitmdump {
  port: number;
  pid: number;
  /** mitmproxy's CA certificate (PEM), to trust in the load client. */
  ca: string;
  flowFile: string;
  close(): Promise<void>;
}

/**
 * `mitmdump --mode reverse:http://127.0.0.1:WORLD` on a free loopback port: clients speak TLS to
 * it (a leaf for the SNI name, signed by mitmproxy's CA in `confdir`) and every flow goes to
 * `flowFile`. Nothing is sent anywhere but the world.
 */
export async function startMitmdump(worldUrl: string, dir: string): Promise<RunningMitmdump> {
  const confdir = join(dir, 'mitmproxy');
  mkdirSync(confdir, { recursive: true });
  const flowFile = join(dir, 'flows.mitm');
  const port = await freePort();
  const child = spawn('mitmdump', [
    '--mode', `reverse:${worldUrl}`,
    '--listen-host', '127.0.0.1', '--listen-port', String(port),
    '--set', `confdir=${confdir}`,
    '--set', 'keep_host_header=true',
    '--set', 'termlog_verbosity=error',
    '--set', 'flow_detail=0',
    '-w', flowFile,
  ], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  child.stderr!.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  const caPath = join(confdir, 'mitmproxy-ca-cert.pem');
  await waitFor(async () => existsSync(caPath) && await canConnect(port), child, () => output, 60_000);
  return {
    port,
    pid: child.pid!,
    ca: readFileSync(caPath, 'utf8'),
    flowFile,
    close: () => stop(child),
  };
}

/** A TCP port that is free on loopback now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    import('node:net').then(({ connect }) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => { socket.destroy(); resolve(true); });
      socket.once('error', () => resolve(false));
    });
  });
}

async function waitFor(ready: () => Promise<boolean>, child: ChildProcess, output: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`mitmdump exited (${child.exitCode}): ${output().trim().slice(-500)}`);
    if (await ready()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`mitmdump did not start within ${timeoutMs} ms: ${output().trim().slice(-500)}`);
}

/** SIGINT lets mitmdump flush its flow file; SIGKILL after 5 s. */
export function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => { clearTimeout(timer); resolve(); });
    child.kill('SIGINT');
  });
}
