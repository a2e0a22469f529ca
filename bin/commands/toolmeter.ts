import type { CommandModule } from 'yargs';
import { DEFAULT_SNAPSHOT_DIR, readSnapshots } from '../../catalog/snapshots.js';
import { ENCODINGS, measureTools } from '../../catalog/toolmeter.js';

interface ToolmeterArgs {
  snapshots: string;
  json: boolean;
}

export const toolmeterCommand: CommandModule<{}, ToolmeterArgs> = {
  command: 'toolmeter',
  describe: 'What the endpoints\' tool lists cost an agent: tools, bytes and tokens per endpoint, in total and per tool arm (all, router), from the snapshots',
  builder: (y) => y
    .option('snapshots', { type: 'string', default: DEFAULT_SNAPSHOT_DIR, describe: 'Folder of tool snapshots (toolbench catalog capture)' })
    .option('json', { type: 'boolean', default: false, describe: 'Print the report as JSON' }),
  handler: async (args) => {
    const report = measureTools(readSnapshots(args.snapshots));
    if (args.json) {
      process.stdout.write(JSON.stringify(report) + '\n');
      return;
    }
    const rows = [...report.endpoints, report.total, { ...report.arms.all, endpoint: 'arm all' }, { ...report.arms.router, endpoint: 'arm router' }];
    const header = ['endpoint', 'tools', 'bytes', ...ENCODINGS];
    const cells = rows.map((m) => [m.endpoint, String(m.tools), String(m.bytes), ...ENCODINGS.map((e) => String(m.tokens[e]))]);
    const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
    const line = (c: string[]) => c.map((v, i) => (i === 0 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join('  ');
    process.stdout.write([line(header), ...cells.map(line)].join('\n') + '\n');
  },
};
