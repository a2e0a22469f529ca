import test from 'ava';
import { execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { parse } from 'smol-toml';
import { builtInAgentCommand } from '../scenarios/agents/index.js';
import { tempDir } from './helpers/journal.js';
import { testCaDir } from './helpers/proxy.js';
import { EXAMPLE_SCENARIO } from './helpers/world.js';

const run = promisify(execFile);
const CLI = [process.execPath, '--import', 'tsx', 'bin/main.ts'];

test('toolbench world --mcp serves the endpoints; an agent elsewhere solves the task; toolbench grade scores it from the live world', async (t) => {
  const dir = tempDir();
  const tokenFile = join(dir, 'admin-token');
  const world = spawn(CLI[0]!, [...CLI.slice(1), 'world', '--mcp', '--ports', 'ephemeral', '--admin-port', '0', '--json', '--ca-dir', testCaDir(),
    '--admin-token-file', tokenFile, '--journal', join(dir, 'journal')], { stdio: ['ignore', 'pipe', 'inherit'] });
  t.teardown(() => { world.kill('SIGTERM'); });
  const ready = JSON.parse(await new Promise<string>((resolve) => createInterface({ input: world.stdout! }).once('line', resolve))) as { admin: string; mcp: Record<string, string> };
  t.regex(ready.mcp.github!, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);

  const before = await run(CLI[0]!, [...CLI.slice(1), 'grade', '--admin', ready.admin, '--admin-token-file', tokenFile, '--json']);
  t.is(JSON.parse(before.stdout).reward, 0, 'nothing done yet: reward 0');

  const mcpConfig = join(dir, 'mcp.json');
  writeFileSync(mcpConfig, JSON.stringify({ mcpServers: { github: { type: 'http', url: ready.mcp.github } } }));
  const answer = join(dir, 'answer.txt');
  const [node, ...oracleArgs] = builtInAgentCommand('oracle');
  await run(node!, oracleArgs, { env: { ...process.env, TOOLBENCH_MCP_CONFIG: mcpConfig, TOOLBENCH_SCENARIO: EXAMPLE_SCENARIO, TOOLBENCH_ANSWER_FILE: answer } });

  const reward = join(dir, 'verifier', 'reward.txt');
  const graded = await run(CLI[0]!, [...CLI.slice(1), 'grade', '--admin', ready.admin, '--admin-token-file', tokenFile, '--answer', answer, '--agent', 'oracle', '--out', join(dir, 'verifier', 'result.json'), '--reward-file', reward]);
  t.regex(graded.stdout, /reward 1/);
  t.is(readFileSync(reward, 'utf8'), '1\n');
  t.like(JSON.parse(readFileSync(join(dir, 'verifier', 'result.json'), 'utf8')), { agent: 'oracle', reward: 1, mcp_calls: 2 });

  const noToken = await t.throwsAsync(run(CLI[0]!, [...CLI.slice(1), 'grade', '--admin', ready.admin])) as unknown as { code: number; stderr: string };
  t.is(noToken.code, 2);
  t.regex(noToken.stderr, /refused to grade \(401\)/);
});

test('taskgen: one Harbor task per scenario; task.toml parses and every file it and the scripts name exists', async (t) => {
  const out = join(tempDir(), 'tasks');
  const { stdout } = await run(CLI[0]!, [...CLI.slice(1), 'taskgen', '--out', out, EXAMPLE_SCENARIO]);
  t.regex(stdout, /wrote .*example-github-basic/);
  const task = join(out, 'example-github-basic');
  const toml = parse(readFileSync(join(task, 'task.toml'), 'utf8')) as {
    task: { name: string }; environment: { env: Record<string, string>; mcp_servers: { name: string; transport: string; url: string }[] };
    agent: { allowed_hosts: string[] };
  };
  t.is(toml.task.name, 'toolbench/example-github-basic');
  t.deepEqual(toml.environment.mcp_servers, [{ name: 'github', transport: 'streamable-http', url: 'http://127.0.0.1:7101/mcp' }]);
  t.true(toml.agent.allowed_hosts.includes('api.anthropic.com'));
  for (const file of ['instruction.md', 'environment/Dockerfile', 'environment/start-world.sh', 'tests/test.sh', 'solution/solve.sh',
    'environment/toolbench/package-lock.json', 'environment/toolbench/bin/toolbench.js', 'environment/toolbench/scenarios/agents/oracle.ts',
    'environment/toolbench/scenarios/example/github/basic/scenario.toml', 'environment/toolbench/catalog/services.toml']) {
    t.true(existsSync(join(task, file)), file);
  }
  const scenarioInContainer = toml.environment.env.TOOLBENCH_SCENARIO!.replace('/opt/toolbench/', '');
  t.true(existsSync(join(task, 'environment', 'toolbench', scenarioInContainer, 'scenario.toml')));
  // The scripts call toolbench commands that exist, with options they accept.
  const scripts = ['environment/start-world.sh', 'tests/test.sh'].map((f) => readFileSync(join(task, f), 'utf8')).join('\n');
  t.regex(scripts, /world --scenario \/opt\/toolbench\/scenarios\/example\/github\/basic/);
  for (const option of ['--mcp', '--admin-token-file', '--reward-file', '--answer']) t.true(scripts.includes(option), option);
  const help = (await run(CLI[0]!, [...CLI.slice(1), 'grade', '--help'])).stdout + (await run(CLI[0]!, [...CLI.slice(1), 'world', '--help'])).stdout;
  for (const option of ['--mcp', '--admin-token-file', '--reward-file', '--answer']) t.true(help.includes(option), `${option} is a real option`);
  const again = await t.throwsAsync(run(CLI[0]!, [...CLI.slice(1), 'taskgen', '--out', out, EXAMPLE_SCENARIO])) as unknown as { code: number };
  t.is(again.code, 2, 'an existing task folder is not overwritten');
});
