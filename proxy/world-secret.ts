import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readPrivateFile, writeAtomic } from '../certs/files.js';
import { ToolbenchError } from '../mocks/core/errors.js';

/**
 * The world's secret: a split proxy signs what it forwards with it (forwarded.ts). Kept in a
 * file readable only by its owner, shared by the world and its proxy (e.g. a mounted volume).
 */
export function randomSecret(): Buffer {
  return randomBytes(32);
}

/** Reads the secret in `path`, or (with `create`) makes one there when the file is missing. */
export function loadSecret(path: string, options: { create: boolean }): Buffer {
  if (!existsSync(path)) {
    if (!options.create) throw new ToolbenchError('TB_ERR_PROXY', `no world secret at ${path}; start the world with --secret-file ${path} first`);
    const secret = randomSecret();
    writeAtomic(path, secret.toString('hex') + '\n', 0o600);
    return secret;
  }
  const text = readPrivateFile(path, 'world secret', 'remove it to have the world make a new one', 'TB_ERR_PROXY').trim();
  if (!/^[0-9a-f]{32,}$/i.test(text)) throw new ToolbenchError('TB_ERR_PROXY', `world secret ${path} must hold at least 16 bytes as hex`);
  return Buffer.from(text, 'hex');
}
