import yargs, { type CommandModule } from 'yargs';
import { COMMANDS, commandName } from './commands/index.js';
import { reportFailure } from './fail.js';
import { USAGE } from './top-help.js';

// Every command is a thin composition of library functions; failures are mapped to exit codes
// in one place (fail.ts). Only the module of the command being run is imported: the others are
// listed by name and description alone (bin/commands/index.ts says how to add one).

/** The yargs CLI over `argv` (the arguments after the script). */
export async function runCli(argv: string[]): Promise<void> {
  const invoked = argv.find((arg) => !arg.startsWith('-'));
  const commands: CommandModule<any, any>[] = await Promise.all(COMMANDS.map(async (entry) => (commandName(entry) === invoked ? entry.load() : {
    command: entry.command,
    describe: entry.describe,
    // Never reached: yargs runs the command named first, which is the one loaded.
    handler: () => { throw new Error(`toolbench ${commandName(entry)} ran without its module (bin/cli.ts found ${invoked} first)`); },
  })));

  let cli = yargs(argv)
    .scriptName('toolbench')
    // English whatever LANG says, as every toolbench message is (and as the fast --help prints).
    .locale('en')
    .usage(USAGE);
  for (const command of commands) cli = cli.command(command);
  // yargs renders the running command's whole help text as soon as its handler starts, to show it
  // later if asked; toolbench never asks (`.fail` prints one line), and the rendering cost 30 ms of
  // every `toolbench world`'s start. `--help` renders on demand as before.
  const usage = (cli as unknown as { getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: () => void } } })
    .getInternalMethods?.().getUsageInstance?.();
  if (usage?.cacheHelpMessage) usage.cacheHelpMessage = () => {};
  await cli
    .demandCommand(1, 'Name a command; see --help.')
    .strict()
    .recommendCommands()
    .help()
    .alias('h', 'help')
    .version()
    .wrap(Math.min(100, process.stdout.columns ?? 100))
    .fail((message, error) => {
      if (error) reportFailure(error);
      process.stderr.write(`toolbench: ${message}\nRun 'toolbench --help' for usage.\n`);
      process.exit(2);
    })
    .parseAsync()
    .catch(reportFailure);
}
