import { join } from 'node:path';
import type { CommandModule } from 'yargs';
import { parseEndpointSelection } from '../../catalog/endpoint-selection.js';
import { loadCatalog } from '../../catalog/load.js';
import { TOOLBENCH_ROOT } from '../../catalog/paths.js';
import { endpointsOption } from '../shared.js';
import { generateTasks } from '../../scenarios/taskgen.js';
import { findScenarios } from '../../scenarios/validate.js';

interface TaskgenArgs {
  out: string;
  scenarios: string[];
  endpoints: string;
}

export const taskgenCommand: CommandModule<{}, TaskgenArgs> = {
  command: 'taskgen [scenarios..]',
  describe: 'Write one Harbor task per scenario (task.toml, instruction.md, environment/, tests/test.sh, solution/solve.sh)',
  builder: (y) => y
    .positional('scenarios', { type: 'string', array: true, default: [] as string[], describe: 'Scenario folders or folders to search (default: every shipped scenario)' })
    .option('out', { type: 'string', default: 'tasks', describe: 'Folder for the tasks (each task folder must be new)' })
    .option('endpoints', { ...endpointsOption, describe: `The MCP endpoints each task's world serves and its agent is given: ${endpointsOption.describe}` }),
  handler: async (args) => {
    const roots = args.scenarios.length > 0 ? args.scenarios : [join(TOOLBENCH_ROOT, 'scenarios')];
    const dirs = roots.flatMap((root) => findScenarios(root));
    const endpoints = parseEndpointSelection(args.endpoints);
    for (const task of generateTasks(dirs, args.out, loadCatalog(), endpoints)) process.stdout.write(`wrote ${task}\n`);
  },
};
