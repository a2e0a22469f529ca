import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ToolbenchError } from '../mocks/core/errors.js';

/**
 * File helpers for key material: private keys are written 0600 and refused on load when a group
 * or other user can read them; every write goes to a temporary name first and is renamed into
 * place, so a reader never sees half a file.
 */
export function writeAtomic(path: string, data: string, mode: number): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o755 });
  const temp = join(dirname(path), `.tmp-${process.pid}-${randomBytes(6).toString('hex')}`);
  try {
    writeFileSync(temp, data, { mode, flag: 'wx' });
    chmodSync(temp, mode); // the umask may have removed bits we want (never added any)
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/**
 * Reads a private file (a key, a secret), refusing one that a group or other user could read.
 * `instead` says what else the user can do (e.g. make a new CA).
 */
export function readPrivateFile(path: string, what: string, instead = 'run `toolbench certs init --force` for a new CA',
  code: 'TB_ERR_CERTS' | 'TB_ERR_PROXY' = 'TB_ERR_CERTS'): string {
  const mode = statSync(path).mode & 0o777;
  if ((mode & 0o077) !== 0) {
    throw new ToolbenchError(code,
      `${what} ${path} is readable by other users (mode ${mode.toString(8).padStart(4, '0')}); ` +
      `run \`chmod 600 ${path}\` if it is yours, or ${instead}`);
  }
  return readFileSync(path, 'utf8');
}
