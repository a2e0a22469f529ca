import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { ToolbenchError } from './errors.js';
import type { ServiceDefinition } from './service.js';

/**
 * Reads `<scenario>/dataset/<service>.json` for each service and validates it with the
 * service's schema. Runs once at world build: handlers never touch the file system.
 */
export function loadDataset(scenarioDir: string, definition: ServiceDefinition): unknown {
  const file = join(scenarioDir, 'dataset', `${definition.id}.json`);
  let raw: unknown = {};
  if (existsSync(file)) {
    const text = readFileSync(file, 'utf8');
    try {
      raw = JSON.parse(text);
    } catch (error) {
      throw new ToolbenchError('TB_ERR_DATASET', `${file}: ${jsonErrorWhere(text, error as Error)}`);
    }
  }
  const result = definition.dataset.safeParse(raw);
  if (!result.success) {
    const problems = result.error.issues.slice(0, 10).map((issue) =>
      `field ${issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('').replace(/^\./, '') || '(top level)'}: ${issue.message}`);
    const more = result.error.issues.length > 10 ? [`… and ${result.error.issues.length - 10} more`] : [];
    throw new ToolbenchError('TB_ERR_DATASET', `${file}:\n  ${[...problems, ...more].join('\n  ')}`);
  }
  return result.data;
}

/** sha256 over every file of `<scenario>/dataset/` (names and bytes, in name order). */
export function datasetHash(scenarioDir: string): string {
  const dir = join(scenarioDir, 'dataset');
  const hash = createHash('sha256');
  if (existsSync(dir)) {
    for (const name of readdirSync(dir).sort()) {
      hash.update(name).update('\0').update(readFileSync(join(dir, name))).update('\0');
    }
  }
  return hash.digest('hex');
}

/** Where the JSON breaks, as line and column (Node 20's JSON.parse does not always say). */
function jsonErrorWhere(text: string, error: Error): string {
  const errors: ParseError[] = [];
  parseJsonc(text, errors, { disallowComments: true, allowTrailingComma: false });
  const first = errors[0];
  if (!first) return `invalid JSON: ${error.message}`;
  const before = text.slice(0, first.offset);
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  return `invalid JSON at line ${line}, column ${column}: ${printParseErrorCode(first.error)}`;
}
