/**
 * Errors the CLI can explain. Every one carries a stable code (as undici does) so callers
 * branch on `code`, not on message text, and bin/ maps codes to exit codes.
 */
export type ToolbenchErrorCode =
  | 'TB_ERR_CATALOG'
  | 'TB_ERR_DATASET'
  | 'TB_ERR_SCENARIO'
  | 'TB_ERR_JOURNAL_MISSING'
  | 'TB_ERR_JOURNAL_EXISTS'
  | 'TB_ERR_JOURNAL_CORRUPT'
  | 'TB_ERR_JOURNAL_VERSION'
  | 'TB_ERR_USAGE'
  | 'TB_ERR_CERTS'
  | 'TB_ERR_PROXY'
  | 'TB_ERR_REPLAY_WORKER';

export class ToolbenchError extends Error {
  readonly code: ToolbenchErrorCode;
  constructor(code: ToolbenchErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ToolbenchError';
    this.code = code;
  }
}

export function isToolbenchError(error: unknown): error is ToolbenchError {
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof Error && typeof code === 'string' && code.startsWith('TB_ERR_');
}
