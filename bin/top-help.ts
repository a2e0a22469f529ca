import type { CommandEntry } from './commands/index.js';

/** The first lines of `toolbench --help` (yargs's usage, and the fast path's). */
export const USAGE = '$0 <command> [options]\n\nA deterministic world for testing LLM agents that call real MCP servers.';

/** The width the fast path renders at: yargs's `.wrap(min(100, columns))` when stdout is not narrower. */
export const TOP_HELP_WIDTH = 100;

/**
 * `toolbench --help` as yargs renders it at TOP_HELP_WIDTH columns, without loading yargs: yargs
 * and its string-width (grapheme segmentation, Unicode property regexes) were 60 % of the
 * command's 310 ms. test/cli-commands.test.ts checks it against yargs's own rendering.
 */
export function topLevelHelp(commands: readonly CommandEntry[]): string {
  const rows = commands.map((entry) => [`toolbench ${entry.command}`, entry.describe] as const);
  const left = 2 + Math.max(...rows.map(([name]) => name.length)) + 2;
  const lines = [USAGE.replace('$0', 'toolbench'), '', 'Commands:'];
  for (const [name, describe] of rows) {
    const wrapped = wrapWords(describe, TOP_HELP_WIDTH - left);
    lines.push(`  ${name}`.padEnd(left) + wrapped[0], ...wrapped.slice(1).map((line) => ' '.repeat(left) + line));
  }
  lines.push('', 'Options:');
  const options = [['      --version', 'Show version number'], ['  -h, --help', 'Show help']] as const;
  const optionLeft = Math.max(...options.map(([flag]) => flag.length)) + 2;
  for (const [flag, describe] of options) {
    const type = '[boolean]';
    lines.push(flag.padEnd(optionLeft) + describe + ' '.repeat(TOP_HELP_WIDTH - optionLeft - describe.length - type.length) + type);
  }
  return `${lines.join('\n')}\n`;
}

/** Greedy word wrap to `width` columns (every description is plain ASCII text). */
function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line];
}
