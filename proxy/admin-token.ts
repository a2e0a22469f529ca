import { existsSync } from 'node:fs';
import { readPrivateFile, writeAtomic } from '../certs/files.js';
import { newAdminToken } from '../mocks/core/admin.js';
import { ToolbenchError } from '../mocks/core/errors.js';

/**
 * The admin API's token in a file, for a world whose grader or tools run in another process or
 * container (`toolbench world --admin-token-file F`): read from F when it exists (refused when a
 * group or other user can read it), else a fresh random one written there, mode 0600.
 */
export function loadAdminToken(path: string): string {
  if (!existsSync(path)) {
    const token = newAdminToken();
    writeAtomic(path, token + '\n', 0o600);
    return token;
  }
  const token = readPrivateFile(path, 'admin token file', 'remove it to have the world make a new one', 'TB_ERR_PROXY').trim();
  if (!/^[A-Za-z0-9_-]{16,}$/.test(token)) {
    throw new ToolbenchError('TB_ERR_PROXY', `admin token file ${path} must hold one token of at least 16 characters (letters, digits, - and _)`);
  }
  return token;
}
