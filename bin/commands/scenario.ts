import type { CommandModule } from 'yargs';
import { ToolbenchError } from '../../mocks/core/errors.js';
import { checkScenario, findScenarios } from '../../scenarios/validate.js';
import { TOOLBENCH_ROOT } from '../../catalog/paths.js';
import { join } from 'node:path';

interface ValidateArgs {
  dirs: string[];
  json: boolean;
}

const validate: CommandModule<{}, ValidateArgs> = {
  command: 'validate [dirs..]',
  describe: 'Check scenarios: scenario.toml, datasets, instruction, oracle tools, ignored fields (default: every shipped scenario); warn where a bypassed write could pass',
  builder: (y) => y
    .positional('dirs', { type: 'string', array: true, default: [] as string[], describe: 'Scenario folders, or folders to search for scenario.toml' })
    .option('json', { type: 'boolean', default: false, describe: 'Print {scenario: [problems]} as JSON' }),
  handler: async (args) => {
    const roots = args.dirs.length > 0 ? args.dirs : [join(TOOLBENCH_ROOT, 'scenarios')];
    const dirs = roots.flatMap((root) => {
      const found = findScenarios(root);
      return found.length > 0 ? found : [root];
    });
    const checks: (readonly [string, Awaited<ReturnType<typeof checkScenario>>])[] = [];
    for (const dir of dirs) checks.push([dir, await checkScenario(dir)] as const);
    for (const [dir, { warnings }] of checks) for (const warning of warnings) process.stderr.write(`toolbench: warning: ${dir}: ${warning}\n`);
    const results = Object.fromEntries(checks.map(([dir, check]) => [dir, check.problems]));
    const bad = Object.entries(results).filter(([, problems]) => problems.length > 0);
    if (args.json) {
      process.stdout.write(JSON.stringify(results) + '\n');
      if (bad.length > 0) process.exitCode = 2;
      return;
    }
    for (const [dir, problems] of Object.entries(results)) if (problems.length === 0) process.stdout.write(`ok  ${dir}\n`);
    if (bad.length > 0) {
      throw new ToolbenchError('TB_ERR_SCENARIO', `${bad.length} of ${dirs.length} scenarios have problems:\n${bad.map(([dir, problems]) => `${dir}\n  ${problems.join('\n  ')}`).join('\n')}`);
    }
  },
};

export const scenarioCommand: CommandModule = {
  command: 'scenario <command>',
  describe: 'Work with scenarios',
  builder: (y) => y.command(validate).demandCommand(1, 'Name a scenario command; see toolbench scenario --help.'),
  handler: () => undefined,
};
