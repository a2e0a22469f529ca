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
  return loadDatasetFile(join(scenarioDir, 'dataset', `${definition.id}.json`), definition);
}

/**
 * Where a service's dataset comes from in a scenario: its own `dataset/<service>.json` when it
 * has one; else, for a service the scenario does not name, the shared baseline
 * (`scenarios/baseline/dataset/<service>.json`: a plausible background world, so every catalog
 * service answers in every trial); else nothing (`{}`).
 */
export function datasetSource(scenarioDir: string, baselineDir: string, service: string, named: boolean): { file: string; baseline: boolean } | null {
  const own = join(scenarioDir, 'dataset', `${service}.json`);
  if (existsSync(own)) return { file: own, baseline: false };
  const shared = join(baselineDir, `${service}.json`);
  if (!named && existsSync(shared)) return { file: shared, baseline: true };
  return null;
}

/** Reads and validates one dataset file (a missing file is `{}`). */
export function loadDatasetFile(file: string | null, definition: ServiceDefinition): unknown {
  let raw: unknown = {};
  if (file === null) return parseDataset(`(no ${definition.id} dataset)`, {}, definition);
  if (existsSync(file)) {
    const text = readFileSync(file, 'utf8');
    try {
      raw = JSON.parse(text);
    } catch (error) {
      throw new ToolbenchError('TB_ERR_DATASET', `${file}: ${jsonErrorWhere(text, error as Error)}`);
    }
  }
  return parseDataset(file, raw, definition);
}

function parseDataset(file: string, raw: unknown, definition: ServiceDefinition): unknown {
  const result = definition.dataset.safeParse(raw);
  if (!result.success) {
    const problems = result.error.issues.slice(0, 10).map((issue) =>
      `field ${issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('').replace(/^\./, '') || '(top level)'}: ${issue.message}`);
    const more = result.error.issues.length > 10 ? [`… and ${result.error.issues.length - 10} more`] : [];
    throw new ToolbenchError('TB_ERR_DATASET', `${file}:\n  ${[...problems, ...more].join('\n  ')}`);
  }
  return result.data;
}

/** sha256 of one file's bytes (a baseline dataset, recorded per service in the journal header). */
export function fileHash(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
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
