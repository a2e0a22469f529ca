import test from 'ava';
import { readdirSync } from 'node:fs';
import { COMMANDS, commandName } from '../bin/commands/index.js';
import { runTsx, toolbench } from './helpers/replay-cli.js';
import { topLevelHelp } from '../bin/top-help.js';
import { sourceUrl } from '../mocks/core/source-url.js';

// bin/cli.ts lists every command from bin/commands/index.ts and loads only the one being run.
test('every command module is listed, with its own command string and description', async (t) => {
  const modules = readdirSync(new URL('../bin/commands/', sourceUrl(import.meta.url))).filter((name) => name.endsWith('.ts') && name !== 'index.ts');
  t.deepEqual(COMMANDS.map((entry) => `${commandName(entry)}.ts`).sort(), modules.sort());
  for (const entry of COMMANDS) {
    const module = await entry.load();
    t.is(module.command, entry.command, commandName(entry));
    t.is(module.describe, entry.describe, commandName(entry));
  }
});

test('toolbench --help lists every command; a command\'s --help shows its options; a typo is refused', async (t) => {
  const help = await toolbench(['--help']);
  t.is(help.code, 0);
  for (const entry of COMMANDS) t.true(help.stdout.includes(`toolbench ${entry.command}`), entry.command);
  const replay = await toolbench(['replay', '--help']);
  t.is(replay.code, 0);
  t.regex(replay.stdout, /--jobs/);
  t.regex(replay.stdout, /--allow-unclosed/);
  const typo = await toolbench(['replya', 'x']);
  t.is(typo.code, 2);
  t.regex(typo.stderr, /Did you mean replay\?/);
});

test('toolbench --help\'s fast path (no yargs) prints what yargs prints', async (t) => {
  // yargs's own rendering of the same command list, on a pipe (yargs wraps at min(100, columns)).
  const yargs = await runTsx(['--input-type=module', '-e', "import { runCli } from './bin/cli.ts'; await runCli(['--help']);"], { cwd: process.cwd(), env: process.env });
  t.is(yargs.code, 0, yargs.stderr);
  t.is(topLevelHelp(COMMANDS), yargs.stdout);
  const fast = await toolbench(['-h']);
  t.is(fast.stdout, yargs.stdout);
});
