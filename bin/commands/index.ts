import type { CommandModule } from 'yargs';

/**
 * Every toolbench command, in the order `toolbench --help` lists them: its yargs command string
 * and one-line description (all the top-level help needs), and how to load its module. bin/cli.ts
 * imports only the module of the command being run, so `toolbench --help` and each command start
 * without loading the others (issue 14: cold start).
 *
 * To add a command: write bin/commands/NAME.ts exporting a yargs CommandModule (with --help for
 * every option), then add one entry here with the same `command` and `describe`
 * (test/cli-commands.test.ts checks that they match and that every module is listed).
 */
export interface CommandEntry {
  /** The module's `command` (its name first, then its positionals). */
  readonly command: string;
  readonly describe: string;
  load(): Promise<CommandModule<any, any>>;
}

export const COMMANDS: readonly CommandEntry[] = [
  {
    command: 'world',
    describe: 'Serve a scenario\'s world: every service on a plain-HTTP port, the admin API, the TLS proxy, and with --mcp the MCP endpoints',
    load: async () => (await import('./world.js')).worldCommand,
  },
  {
    command: 'record [options] [-- AGENT...]',
    describe: 'Run one trial: world, proxy and MCP endpoints up, the agent run, the result graded and journaled',
    load: async () => (await import('./record.js')).recordCommand,
  },
  {
    command: 'run [scenarios..]',
    describe: 'Run every scenario (or a filter) as trials of one agent, N at a time; a summary table, and a folder `toolbench report` compares',
    load: async () => (await import('./run.js')).runCommand,
  },
  {
    command: 'demo',
    describe: 'Record the example scenario with the oracle agent, grade it, then replay --verify its journal',
    load: async () => (await import('./demo.js')).demoCommand,
  },
  {
    command: 'scenario <command>',
    describe: 'Work with scenarios',
    load: async () => (await import('./scenario.js')).scenarioCommand,
  },
  {
    command: 'report <a> <b>',
    describe: 'Compare two sets of trial results (folders of result.json): pass rates, pass^k, per-scenario changes',
    load: async () => (await import('./report.js')).reportCommand,
  },
  {
    command: 'grade',
    describe: 'Grade the trial of a running world (toolbench world --mcp) from its state, journal and the agent\'s answer',
    load: async () => (await import('./grade.js')).gradeCommand,
  },
  {
    command: 'taskgen [scenarios..]',
    describe: 'Write one Harbor task per scenario (task.toml, instruction.md, environment/, tests/test.sh, solution/solve.sh)',
    load: async () => (await import('./taskgen.js')).taskgenCommand,
  },
  {
    command: 'proxy',
    describe: 'Run the proxy alone in front of a world in another process (`toolbench world --secret-file`)',
    load: async () => (await import('./proxy.js')).proxyCommand,
  },
  {
    command: 'certs <command>',
    describe: 'The local CA the proxy signs its certificates with',
    load: async () => (await import('./certs.js')).certsCommand,
  },
  {
    command: 'catalog <command>',
    describe: 'Inspect and check the catalog of services and MCP endpoints',
    load: async () => (await import('./catalog.js')).catalogCommand,
  },
  {
    command: 'toolmeter',
    describe: 'What the endpoints\' tool lists cost an agent: tools, bytes and tokens per endpoint, in total and per tool arm (all, router), from the snapshots',
    load: async () => (await import('./toolmeter.js')).toolmeterCommand,
  },
  {
    command: 'replay <journals..>',
    describe: 'Replay journals against fresh worlds and compare every response byte for byte',
    load: async () => (await import('./replay.js')).replayCommand,
  },
  {
    command: 'audit <journal>',
    describe: 'Count what a trial did: api_calls, mcp_bypass, startup, blocked; by service, endpoint and MCP tool',
    load: async () => (await import('./audit.js')).auditCommand,
  },
  {
    command: 'journal <journal>',
    describe: 'List a journal\'s entries: logical time, seq, attribution, method, host, target, status, sizes',
    load: async () => (await import('./journal.js')).journalCommand,
  },
  {
    command: 'export <journal>',
    describe: 'Export a journal as HAR 1.2 (Chrome DevTools, HAR viewers); credentials redacted by default',
    load: async () => (await import('./export.js')).exportCommand,
  },
  {
    command: 'view <path>',
    describe: 'Look at a trial in the browser: timeline of tool calls and requests, details, grade, replay divergence',
    load: async () => (await import('./view.js')).viewCommand,
  },
  {
    command: 'coverage [sources..]',
    describe: 'Per MCP endpoint and tool, the operations its calls reached: by a handler, by the spec fallback, or unmatched',
    load: async () => (await import('./coverage.js')).coverageCommand,
  },
  {
    command: 'scaffold <kind>',
    describe: 'Write the files of something new from templates (a service)',
    load: async () => (await import('./scaffold.js')).scaffoldCommand,
  },
];

/** A command's name: the first word of its command string. */
export const commandName = (entry: CommandEntry): string => entry.command.split(' ')[0]!;
