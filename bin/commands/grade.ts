import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { CommandModule } from 'yargs';
import { ToolbenchError } from '../../mocks/core/errors.js';
import { TrialResultSchema } from '../../scenarios/grade/result.js';

interface GradeArgs {
  admin: string;
  'admin-token-file'?: string;
  'admin-token'?: string;
  answer?: string;
  agent: string;
  out?: string;
  'reward-file'?: string;
  json: boolean;
}

/** Grades a live world (started with `toolbench world --mcp`) through its admin API: for verifiers that run beside it. */
export const gradeCommand: CommandModule<{}, GradeArgs> = {
  command: 'grade',
  describe: 'Grade the trial of a running world (toolbench world --mcp) from its state, journal and the agent\'s answer',
  builder: (y) => y
    .option('admin', { type: 'string', default: 'http://127.0.0.1:8100', describe: 'The world\'s admin API' })
    .option('admin-token', { type: 'string', describe: 'The world\'s admin token (its ready line\'s `token`); default: $TOOLBENCH_ADMIN_TOKEN' })
    .option('admin-token-file', { type: 'string', describe: 'File holding the world\'s admin token (toolbench world --admin-token-file)' })
    .conflicts('admin-token', 'admin-token-file')
    .option('answer', { type: 'string', describe: 'The agent\'s answer file (missing: no answer)' })
    .option('agent', { type: 'string', default: 'external', describe: 'Name of the agent, for the result' })
    .option('out', { type: 'string', describe: 'Write result.json here' })
    .option('reward-file', { type: 'string', describe: 'Write the reward (0 or 1) alone to this file (Harbor\'s reward.txt)' })
    .option('json', { type: 'boolean', default: false, describe: 'Print result.json' }),
  handler: async (args) => {
    const answer = args.answer && existsSync(args.answer) ? readFileSync(args.answer) : Buffer.alloc(0);
    const headers: Record<string, string> = { 'Content-Type': 'text/plain; charset=utf-8', 'X-Toolbench-Agent': args.agent };
    const token = args['admin-token'] ?? (args['admin-token-file'] ? readTokenFile(args['admin-token-file']) : process.env.TOOLBENCH_ADMIN_TOKEN);
    if (token) headers.Authorization = `Bearer ${token.trim()}`;
    let response: Response;
    try {
      response = await fetch(`${args.admin.replace(/\/$/, '')}/_bench/grade`, { method: 'POST', headers, body: answer });
    } catch (error) {
      throw new ToolbenchError('TB_ERR_USAGE', `no world answers at ${args.admin} (${(error as Error).cause ?? (error as Error).message}); start it with toolbench world --mcp`);
    }
    const text = await response.text();
    if (!response.ok) {
      const hint = response.status === 401 ? (token ? ' (the token is not this world\'s)' : '; give its admin token: --admin-token, --admin-token-file or TOOLBENCH_ADMIN_TOKEN') : '';
      throw new ToolbenchError('TB_ERR_USAGE', `the world at ${args.admin} refused to grade (${response.status}): ${errorText(text)}${hint}`);
    }
    const result = TrialResultSchema.parse(JSON.parse(text));
    const write = (path: string, content: string) => {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, content);
    };
    if (args.out) write(args.out, JSON.stringify(result, null, 2) + '\n');
    if (args['reward-file']) write(args['reward-file'], `${result.reward}\n`);
    process.stdout.write(args.json ? JSON.stringify(result) + '\n'
      : `${result.scenario}: reward ${result.reward} (state ${result.state_ok}, required ${result.required_calls_ok}, forbidden ${result.forbidden_calls_ok}, answer ${result.answer_ok})\n`);
  },
};

function readTokenFile(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new ToolbenchError('TB_ERR_USAGE', `--admin-token-file ${path}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'file not found' : (error as Error).message}`);
  }
}

/** The admin API's `{"error": …}` as one line (any other body as it came, on one line). */
function errorText(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: unknown };
    if (typeof parsed.error === 'string') return parsed.error;
  } catch {
    // Not JSON: say it as it is.
  }
  return body.replace(/\s+/g, ' ').trim();
}
