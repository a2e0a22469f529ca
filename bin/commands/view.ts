import { spawn } from 'node:child_process';
import type { CommandModule } from 'yargs';
import { ToolbenchError } from '../../mocks/core/errors.js';
import { serviceDefinitions } from '../../mocks/index.js';
import { routesResolver } from '../../replay/route.js';
import { startViewServer } from '../../replay/view/server.js';
import { loadTrial, trialPaths } from '../../replay/view/trial.js';
import { onShutdown } from '../shared.js';

interface ViewArgs {
  path: string;
  port: number;
  open: boolean;
  report?: string;
  'show-secrets': boolean;
  json: boolean;
}

export const viewCommand: CommandModule<{}, ViewArgs> = {
  command: 'view <path>',
  describe: 'Look at a trial in the browser: timeline of tool calls and requests, details, grade, replay divergence',
  builder: (y) => y
    .positional('path', { type: 'string', demandOption: true, describe: 'A run folder (journal/, result.json) or a journal directory' })
    .option('port', { type: 'number', default: 0, describe: 'Port on 127.0.0.1 (0: any free one)' })
    .option('open', { type: 'boolean', default: false, describe: 'Open the page in the desktop\'s browser' })
    .option('report', { type: 'string', describe: `A replay report (toolbench replay --verify --report FILE); default: the run folder's replay-report.json` })
    .option('json', { type: 'boolean', default: false, describe: 'Print one JSON ready line (url, port, token, entries, calls) instead of the text' })
    .option('show-secrets', { type: 'boolean', default: false, describe: 'Show credential header values (default: REDACTED, as export --har)' })
    .example('$0 view runs/demo-1', 'serve a run folder; open the printed URL')
    .example('$0 replay runs/t1/journal --verify --report runs/t1/replay-report.json; $0 view runs/t1', 'with its replay divergence'),
  handler: async (args) => {
    if (!Number.isInteger(args.port) || args.port < 0 || args.port > 65535) {
      throw new ToolbenchError('TB_ERR_USAGE', `--port ${args.port}: expected a port number from 0 to 65535 (0: any free one)`);
    }
    const trial = await loadTrial(trialPaths(args.path, args.report), routesResolver(serviceDefinitions));
    for (const warning of trial.journal.warnings) process.stderr.write(`toolbench: note: ${warning}\n`);
    const server = await startViewServer(trial, { port: args.port, showSecrets: args['show-secrets'] });
    const entries = trial.index.entries.length;
    process.stdout.write(args.json
      ? JSON.stringify({ url: server.url, port: server.port, token: server.token, entries, calls: trial.calls.length }) + '\n'
      : `toolbench view: ${server.url}\n  ${entries} entries, ${trial.calls.length} tool calls` +
        `${trial.result ? ', graded' : ''}${trial.report ? `, replay ${trial.report.verdict}` : ''}; Ctrl-C to stop\n`);
    if (args.open) openBrowser(server.url);
    await onShutdown(async () => {
      await server.close();
      await trial.close();
    });
  },
};

/** The desktop's opener; a machine without one gets a note, the server keeps running. */
function openBrowser(url: string): void {
  const opener = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  const child = spawn(opener, [url], { stdio: 'ignore', detached: true });
  child.on('error', (error: NodeJS.ErrnoException) => {
    process.stderr.write(`toolbench view: cannot open a browser (${opener}: ${error.code ?? error.message}); open the URL above yourself\n`);
  });
  child.unref();
}
