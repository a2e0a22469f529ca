import { spawn, type ChildProcess } from 'node:child_process';
import type { Writable } from 'node:stream';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface StdioProcessOptions {
  command: string;
  args: string[];
  /** The child's whole environment: nothing is inherited that is not listed here. */
  env: Record<string, string>;
  cwd?: string;
  /** Where the child's stderr goes (a log file). */
  stderr: Writable;
  /** Told once when the process ends, whoever ended it. */
  onExit?: (exit: ProcessExit) => void;
}

/**
 * An MCP stdio client transport, as the SDK's, but with the exact environment we give, the exit
 * code and signal reported, and shutdown as the SDK does it: close stdin, then SIGTERM, then SIGKILL.
 */
export class StdioProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child: ChildProcess | null = null;
  private readonly buffer = new ReadBuffer();
  private exited: Promise<ProcessExit> | null = null;

  constructor(private readonly options: StdioProcessOptions) {}

  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  start(): Promise<void> {
    if (this.child) throw new Error('StdioProcessTransport already started');
    const { command, args, env, cwd, stderr } = this.options;
    return new Promise((resolve, reject) => {
      const child = spawn(command, args, { env, cwd, stdio: ['pipe', 'pipe', 'pipe'], shell: false });
      this.child = child;
      this.exited = new Promise((done) => child.once('close', (code, signal) => done({ code, signal })));
      child.once('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.once('spawn', () => resolve());
      void this.exited.then((exit) => {
        this.child = null;
        this.options.onExit?.(exit);
        this.onclose?.();
      });
      child.stderr!.pipe(stderr, { end: false });
      child.stdin!.on('error', (error) => this.onerror?.(error));
      child.stdout!.on('data', (chunk: Buffer) => {
        this.buffer.append(chunk);
        for (;;) {
          let message: JSONRPCMessage | null;
          try {
            message = this.buffer.readMessage();
          } catch (error) {
            this.onerror?.(error as Error);
            continue;
          }
          if (message === null) break;
          this.onmessage?.(message);
        }
      });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || stdin.destroyed) return Promise.reject(new Error('the server process is not running'));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    const child = this.child;
    const exited = this.exited;
    if (!child || !exited) return;
    const within = (ms: number) => Promise.race([exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms).unref())]);
    child.stdin?.end();
    if (await within(2000)) return;
    child.kill('SIGTERM');
    if (await within(2000)) return;
    child.kill('SIGKILL');
    await exited;
  }
}
