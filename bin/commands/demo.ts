import { existsSync } from 'node:fs';
import type { CommandModule } from 'yargs';
import { DEFAULT_CA_DIR } from '../../certs/index.js';
import { colors } from '../../replay/colors.js';
import { formatReport } from '../../replay/report.js';
import { verifyJournal } from '../../replay/verify.js';
import { recordTrial } from '../../scenarios/record.js';
import { parseEndpointSelection } from '../../catalog/endpoint-selection.js';
import { DEFAULT_SCENARIO, endpointsOption } from '../shared.js';
import { summary } from './record.js';

interface DemoArgs {
  scenario: string;
  'ca-dir': string;
  endpoints: string;
}

/**
 * The README's main job: one trial of the example scenario with the oracle agent, graded, then
 * its journal replayed against a fresh world and verified byte for byte.
 */
export const demoCommand: CommandModule<{}, DemoArgs> = {
  command: 'demo',
  describe: 'Record the example scenario with the oracle agent, grade it, then replay --verify its journal',
  builder: (y) => y
    .option('scenario', { type: 'string', default: DEFAULT_SCENARIO, describe: 'Scenario directory' })
    .option('ca-dir', { type: 'string', default: DEFAULT_CA_DIR, describe: 'CA directory (made if missing)' })
    .option('endpoints', endpointsOption),
  handler: async (args) => {
    let n = 1;
    while (existsSync(`runs/demo-${n}`)) n++;
    const endpoints = parseEndpointSelection(args.endpoints);
    process.stdout.write(`toolbench demo: starting the MCP endpoints (${typeof endpoints === 'string' ? endpoints : endpoints.join(', ')}; `
      + 'every catalog server with --endpoints all takes up to a minute on a small machine)\n');
    let ready = 0;
    const { result, outDir, journalDir } = await recordTrial({
      scenarioDir: args.scenario, outDir: `runs/demo-${n}`, agent: 'oracle', caDir: args['ca-dir'], echo: true, timeoutMs: 300_000, endpoints,
      onReady: (r) => process.stdout.write(`  ready ${String(++ready).padStart(2)}  ${r.endpoint.padEnd(16)} ${String(r.tools).padStart(3)} tools in ${(r.readyMs / 1000).toFixed(1)} s\n`),
    });
    const chalk = colors(process.env.NO_COLOR);
    process.stdout.write(summary(result, outDir, chalk));
    const report = await verifyJournal(journalDir);
    process.stdout.write(formatReport(report, chalk));
    if (result.reward !== 1 || report.verdict !== 'identical') {
      process.stderr.write('toolbench demo: the oracle should score 1 and its journal replay identically; this is a bug\n');
      process.exitCode = 1;
    }
  },
};
