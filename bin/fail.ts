import { isToolbenchError } from '../mocks/core/errors.js';

/** Prints a failure as one clear message (a stack only for bugs) and exits. */
export function reportFailure(error: unknown): never {
  if (isToolbenchError(error)) {
    process.stderr.write(`toolbench: ${error.message}\n`);
    process.exit(2);
  }
  const code = (error as NodeJS.ErrnoException | null)?.code;
  // The reader of our output went away (`toolbench journal J | head`): not a failure.
  if (code === 'EPIPE') process.exit(0);
  if (code === 'EADDRINUSE' || code === 'EACCES') {
    const e = error as NodeJS.ErrnoException & { port?: number; address?: string };
    process.stderr.write(`toolbench: cannot listen on ${e.address ?? ''}:${e.port ?? ''} (${code}); ` +
      `another process holds the port: pass --ports ephemeral (and --admin-port 0), or stop the other process\n`);
    process.exit(2);
  }
  process.stderr.write(`toolbench: internal error (a bug, please report it):\n${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(70);
}

/** A command that streams to stdout stops quietly when the reader goes away (`| head`). */
export function exitQuietlyOnClosedPipe(stream: NodeJS.WriteStream = process.stdout): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    reportFailure(error);
  });
}
