import type { CommandModule } from 'yargs';
import { compareRuns, readResults, type RunSummary } from '../../scenarios/report.js';
import { readRunErrors } from '../../scenarios/run.js';

interface ReportArgs {
  a: string;
  b: string;
  json: boolean;
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

function describe(label: string, s: RunSummary): string {
  const hat = Object.entries(s.pass_hat_k).map(([k, v]) => `pass^${k} ${pct(v)}`).join('  ');
  return `${label}: ${s.passes}/${s.trials} trials passed (${pct(s.pass_rate)}), ${s.scenarios.length} scenarios; ${hat}; api_calls ${s.api_calls}, mcp_bypass ${s.mcp_bypass}\n`;
}

export const reportCommand: CommandModule<{}, ReportArgs> = {
  command: 'report <a> <b>',
  describe: 'Compare two sets of trial results (folders of result.json): pass rates, pass^k, per-scenario changes',
  builder: (y) => y
    .positional('a', { type: 'string', demandOption: true, describe: 'The first run: a folder holding result.json files' })
    .positional('b', { type: 'string', demandOption: true, describe: 'The second run' })
    .option('json', { type: 'boolean', default: false, describe: 'Print the comparison as JSON' }),
  handler: async (args) => {
    const comparison = compareRuns(readResults(args.a), readResults(args.b));
    // Trials a `toolbench run` could not start have no result.json; its run.json lists them.
    const errors = { a: readRunErrors(args.a), b: readRunErrors(args.b) };
    if (args.json) {
      process.stdout.write(JSON.stringify({ ...comparison, errors }) + '\n');
      return;
    }
    process.stdout.write(describe(`A ${args.a}`, comparison.a) + describe(`B ${args.b}`, comparison.b));
    for (const side of ['a', 'b'] as const) {
      for (const trial of errors[side]) process.stdout.write(`  ${side.toUpperCase()}: ${trial.scenario} could not start (not counted above): ${trial.error!.split('\n')[0]}\n`);
    }
    if (comparison.changes.length === 0) process.stdout.write('no scenario changed\n');
    for (const c of comparison.changes) {
      const show = (x: number | null) => (x === null ? '—' : pct(x));
      process.stdout.write(`  ${c.change.padEnd(9)} ${c.scenario}  ${show(c.a)} → ${show(c.b)}\n`);
    }
  },
};
