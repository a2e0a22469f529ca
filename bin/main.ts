import { COMMANDS } from './commands/index.js';
import { TOP_HELP_WIDTH, topLevelHelp } from './top-help.js';

// `toolbench --help` alone is printed without loading yargs (issue 14: --help ≤ 250 ms); every
// other invocation, and --help on a terminal narrower than the fast path renders, goes to yargs.
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h') && (process.stdout.columns ?? TOP_HELP_WIDTH) >= TOP_HELP_WIDTH) {
  process.stdout.write(topLevelHelp(COMMANDS));
} else {
  await (await import('./cli.js')).runCli(argv);
}
