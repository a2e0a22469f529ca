import type { CommandModule } from 'yargs';
import { TOOLBENCH_ROOT } from '../../catalog/paths.js';
import { scaffoldService } from '../../catalog/scaffold.js';
import { GroupSchema } from '../../catalog/schema.js';

interface ServiceArgs {
  name: string;
  group?: string;
  hostname?: string;
}

const service: CommandModule<{}, ServiceArgs> = {
  command: 'service <name>',
  describe: 'Write a new service from the kit\'s templates: mocks/<name>/, catalog entry, baseline dataset, conformance test',
  builder: (y) => y
    .positional('name', { type: 'string', demandOption: true, describe: 'Catalog id, lower case with hyphens (acme-crm)' })
    .option('group', { type: 'string', choices: GroupSchema.options, describe: 'Scenario group (default business)' })
    .option('hostname', { type: 'string', describe: 'The API\'s hostname (default api.<name>.com)' })
    .epilogue('Refuses to overwrite anything. Then: write the dataset schema and handlers, run npx ava test/conformance-<name>.test.ts (docs/authoring-service.md).'),
  // Async: a nested command's synchronous throw would escape the CLI's one failure path.
  handler: async (args) => {
    const result = scaffoldService({ root: TOOLBENCH_ROOT, name: args.name, ...(args.group ? { group: args.group } : {}), ...(args.hostname ? { host: args.hostname } : {}) });
    for (const file of result.created) process.stdout.write(`created ${file}\n`);
    for (const file of result.changed) process.stdout.write(`changed ${file}\n`);
    process.stdout.write(`next: npx tsc -p . --noEmit && npx ava test/conformance-${args.name}.test.ts\n`);
  },
};

export const scaffoldCommand: CommandModule = {
  command: 'scaffold <kind>',
  describe: 'Write the files of something new from templates (a service)',
  builder: (y) => y.command(service).demandCommand(1, 'Name what to scaffold: service.'),
  handler: () => undefined,
};
