import { readFileSync } from 'node:fs';
import { parse, TomlError } from 'smol-toml';
import type { z } from 'zod';

/**
 * Reads a TOML file and validates it with a zod schema. Every failure names the file, the line
 * and the field, so a user can fix a catalog or scenario without reading our source.
 */
export class TomlFileError extends Error {
  override name = 'TomlFileError';
  constructor(readonly file: string, readonly problems: string[]) {
    super(`${file}: ${problems.length === 1 ? problems[0] : `\n  ${problems.join('\n  ')}`}`);
  }
}

export function readTomlFile<S extends z.ZodTypeAny>(file: string, schema: S): z.infer<S> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new TomlFileError(file, [code === 'ENOENT' ? 'file not found' : `cannot read: ${(error as Error).message}`]);
  }
  return parseToml(file, text, schema);
}

export function parseToml<S extends z.ZodTypeAny>(file: string, text: string, schema: S): z.infer<S> {
  let raw: unknown;
  try {
    raw = parse(text);
  } catch (error) {
    if (error instanceof TomlError) {
      throw new TomlFileError(file, [`line ${error.line}, column ${error.column}: ${error.message.split('\n')[0]}`]);
    }
    throw new TomlFileError(file, [(error as Error).message]);
  }
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const lines = locateKeys(text);
  throw new TomlFileError(file, result.error.issues.flatMap(specific).map((issue) => {
    // A misspelt key is on its own line, not on its table's header.
    const where = issue.code === 'unrecognized_keys' && issue.keys.length > 0 ? [...issue.path, issue.keys[0]!] : issue.path;
    const field = formatPath(issue.path);
    const line = lineOf(lines, where);
    return `${line ? `line ${line}, ` : ''}field ${field || '(top level)'}: ${issue.message}`;
  }));
}

/**
 * A union's issue as the issues of the alternative that came closest (fewest issues), so a typo
 * in one alternative is named at its field rather than as "Invalid input" on the table.
 */
function specific(issue: z.ZodIssue): z.ZodIssue[] {
  if (issue.code !== 'invalid_union' || issue.unionErrors.length === 0) return [issue];
  const closest = [...issue.unionErrors].sort((a, b) => a.issues.length - b.issues.length)[0]!;
  return closest.issues.flatMap(specific);
}

export function formatPath(path: (string | number)[]): string {
  return path.map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? part : `.${part}`)).join('');
}

/** Line numbers (1-based) of every table header and key, by their path in the parsed document. */
function locateKeys(text: string): Map<string, number> {
  const found = new Map<string, number>();
  const counts = new Map<string, number>();
  let table: (string | number)[] = [];
  const remember = (path: (string | number)[], line: number) => {
    const key = JSON.stringify(path);
    if (!found.has(key)) found.set(key, line);
  };
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    const arrayTable = /^\[\[\s*([^\]]+?)\s*\]\]/.exec(line);
    const plainTable = /^\[\s*([^\]]+?)\s*\]/.exec(line);
    if (arrayTable) {
      const name = arrayTable[1]!;
      const n = counts.get(name) ?? 0;
      counts.set(name, n + 1);
      table = [...splitKey(name), n];
      remember(table, index + 1);
    } else if (plainTable) {
      table = splitKey(plainTable[1]!);
      remember(table, index + 1);
    } else {
      const key = /^("[^"]*"|'[^']*'|[A-Za-z0-9_.-]+)\s*=/.exec(line);
      if (key) remember([...table, ...splitKey(key[1]!)], index + 1);
    }
  });
  return found;
}

function splitKey(key: string): (string | number)[] {
  if (/^["']/.test(key)) return [key.slice(1, -1)];
  return key.split('.').map((part) => part.trim());
}

/** The line of the longest prefix of `path` that the file spells out. */
function lineOf(lines: Map<string, number>, path: (string | number)[]): number | undefined {
  for (let n = path.length; n > 0; n--) {
    const line = lines.get(JSON.stringify(path.slice(0, n)));
    if (line) return line;
  }
  return undefined;
}
