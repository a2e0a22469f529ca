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
import { CLI_ARGS } from './helpers/cli.js';

const run = promisify(execFile);
const CLI = [process.execPath, ...CLI_ARGS];

test('toolbench world --mcp serves the endpoints; an agent elsewhere solves the task; toolbench grade scores it from the live world', async (t) => {
  const dir = tempDir();
  const tokenFile = join(dir, 'admin-token');
  const world = spawn(CLI[0]!, [...CLI.slice(1), 'world', '--mcp', '--endpoints', 'scenario', '--ports', 'ephemeral', '--admin-port', '0', '--json', '--ca-dir', testCaDir(),
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

  // The token without a file: --admin-token, or TOOLBENCH_ADMIN_TOKEN (the ready line's `token`).
  const token = readFileSync(tokenFile, 'utf8').trim();
  const { TOOLBENCH_ADMIN_TOKEN: _, ...clean } = process.env;
  const byOption = await run(CLI[0]!, [...CLI.slice(1), 'grade', '--admin', ready.admin, '--admin-token', token, '--json'], { env: clean });
  t.is(JSON.parse(byOption.stdout).scenario, 'example/github/basic');
  const byEnv = await run(CLI[0]!, [...CLI.slice(1), 'grade', '--admin', ready.admin, '--json'], { env: { ...clean, TOOLBENCH_ADMIN_TOKEN: token } });
  t.is(JSON.parse(byEnv.stdout).scenario, 'example/github/basic');
  const wrong = await t.throwsAsync(run(CLI[0]!, [...CLI.slice(1), 'grade', '--admin', ready.admin, '--admin-token', 'nope'], { env: clean })) as unknown as { code: number; stderr: string };
  t.is(wrong.code, 2);
  t.regex(wrong.stderr, /refused to grade \(401\).*not this world's/);
});

test('taskgen: the world runs in its own container (compose); the agent\'s image holds no scenario, dataset or admin token; the generated oracle and verifier score 1', async (t) => {
  const out = join(tempDir(), 'tasks');
  const { stdout } = await run(CLI[0]!, [...CLI.slice(1), 'taskgen', '--endpoints', 'scenario', '--out', out, EXAMPLE_SCENARIO]);
  t.regex(stdout, /wrote .*example-github-basic/);
  const task = join(out, 'example-github-basic');
  const env = join(task, 'environment');
  const toml = parse(readFileSync(join(task, 'task.toml'), 'utf8')) as {
    task: { name: string }; environment: { env: Record<string, string>; mcp_servers: { name: string; transport: string; url: string }[] };
    agent: { allowed_hosts: string[] };
  };
  t.is(toml.task.name, 'toolbench/example-github-basic');
  t.deepEqual(toml.environment.mcp_servers, [{ name: 'github', transport: 'streamable-http', url: 'http://world:7101/mcp' }]);
  t.true(toml.agent.allowed_hosts.includes('api.anthropic.com'));
  t.deepEqual(Object.keys(toml.environment.env).filter((k) => /SCENARIO|ADMIN/.test(k)), [], 'no scenario path or admin address for the agent');

  // Compose: Harbor's main (the agent) beside the world, built from its own folder.
  const compose = JSON.parse(readFileSync(join(env, 'docker-compose.yaml'), 'utf8').replace(/^#.*\n/gm, '')) as {
    services: Record<string, { build?: { context: string }; volumes?: string[]; depends_on?: Record<string, { condition: string }>; environment?: Record<string, string> }>;
  };
  t.deepEqual(Object.keys(compose.services).sort(), ['main', 'world']);
  t.is(compose.services.world!.build!.context, 'world');
  t.is(compose.services.main!.build, undefined, 'Harbor builds main from environment/Dockerfile');
  t.deepEqual(compose.services.main!.depends_on, { world: { condition: 'service_healthy' } });
  t.deepEqual(compose.services.main!.volumes, ['toolbench-ca:/toolbench-ca:ro']);
  t.deepEqual(compose.services.main!.environment, toml.environment.env);

  // What the agent's image can contain: environment/ less world/ (Dockerfile.dockerignore), and of it only what the Dockerfile copies.
  t.is(readFileSync(join(env, 'Dockerfile.dockerignore'), 'utf8').trim(), 'world');
  const agentDockerfile = readFileSync(join(env, 'Dockerfile'), 'utf8');
  const copied = agentDockerfile.split('\n').filter((l) => l.startsWith('COPY ')).flatMap((l) => l.split(/\s+/).slice(1, -1));
  t.deepEqual(copied, ['mcp.json', 'mcp.generic.json']);
  t.notRegex(agentDockerfile, /apt-get|npm /, 'the agent image builds without network');
  const secrets = [readFileSync(join(env, 'world', 'admin-token'), 'utf8').trim(), 'ghp_aliceAAAA', 'expect.state', 'oracle.calls'];
  for (const name of ['Dockerfile', ...copied]) {
    const text = readFileSync(join(env, name), 'utf8');
    for (const secret of secrets) t.false(text.includes(secret), `${name} holds ${secret}`);
  }
  t.true(existsSync(join(env, 'world', 'toolbench', 'scenarios', 'example', 'github', 'basic', 'scenario.toml')), 'the scenario is in the world\'s context');
  t.is(readFileSync(join(task, 'tests', 'admin-token'), 'utf8'), readFileSync(join(env, 'world', 'admin-token'), 'utf8'), 'the verifier gets the token with tests/');

  // Both images pinned by digest; the world installs production dependencies only and says what needs network.
  const worldDockerfile = readFileSync(join(env, 'world', 'Dockerfile'), 'utf8');
  for (const file of [agentDockerfile, worldDockerfile]) t.regex(file, /^FROM node:20-bookworm-slim@sha256:[0-9a-f]{64}$/m);
  t.regex(worldDockerfile, /^RUN npm ci --omit=dev /m);
  t.regex(worldDockerfile, /network at build time for one step only: `npm ci`/);
  t.notRegex(worldDockerfile, /built offline/i);
  t.true(existsSync(join(env, 'world', 'toolbench', 'dist', 'bin', 'main.js')), 'toolbench goes in compiled (no dev dependencies)');
  const startWorld = readFileSync(join(env, 'world', 'start-world.sh'), 'utf8');
  t.regex(startWorld, /world --scenario \/opt\/toolbench\/scenarios\/example\/github\/basic/);
  const help = (await run(CLI[0]!, [...CLI.slice(1), 'world', '--help'])).stdout + (await run(CLI[0]!, [...CLI.slice(1), 'certs', 'init', '--help'])).stdout;
  for (const option of ['--mcp', '--host', '--ca-dir', '--admin-token-file', '--journal', '--log-dir', '--dir']) {
    t.true(startWorld.includes(option) || worldDockerfile.includes(option), option);
    t.true(help.includes(option), `${option} is a real option`);
  }

  // The generated oracle (solution/) and verifier (tests/) against a live world with the task's token: reward 1.
  const dir = tempDir();
  const world = spawn(CLI[0]!, [...CLI.slice(1), 'world', '--mcp', '--endpoints', 'scenario', '--ports', 'ephemeral', '--admin-port', '0', '--json', '--ca-dir', testCaDir(),
    '--scenario', join(env, 'world', 'toolbench', 'scenarios', 'example', 'github', 'basic'), '--admin-token-file', join(env, 'world', 'admin-token')],
  { stdio: ['ignore', 'pipe', 'inherit'] });
  t.teardown(() => { world.kill('SIGTERM'); });
  const ready = JSON.parse(await new Promise<string>((resolve, reject) => {
    createInterface({ input: world.stdout! }).once('line', resolve);
    world.once('exit', (code) => reject(new Error(`the world exited (${code}) before it was ready`)));
  })) as { admin: string; mcp: Record<string, string> };
  // The compose healthcheck: healthy only when the admin API and every bridge answer.
  const health = (compose.services.world as unknown as { healthcheck: { test: string[] } }).healthcheck.test;
  t.deepEqual(health.slice(0, 2), ['CMD', 'node']);
  t.deepEqual(health.slice(3), ['8100', '7101']);
  const healthcheck = join(env, 'world', 'healthcheck.mjs');
  const port = (url: string) => new URL(url).port;
  await t.notThrowsAsync(run(process.execPath, [healthcheck, port(ready.admin), port(ready.mcp.github!)]), 'healthy with the world and its bridge up');
  await t.throwsAsync(run(process.execPath, [healthcheck, port(ready.admin), port(ready.mcp.github!), '1']), undefined, 'unhealthy while a bridge is not listening');
  const mcpConfig = join(dir, 'mcp.json');
  writeFileSync(mcpConfig, readFileSync(join(env, 'mcp.json'), 'utf8').replace('http://world:7101/mcp', ready.mcp.github!));
  const answer = join(dir, 'answer.txt');
  await run('sh', [join(task, 'solution', 'solve.sh')], { env: { ...process.env, TOOLBENCH_MCP_CONFIG: mcpConfig, TOOLBENCH_ANSWER_FILE: answer } });
  const verifier = join(dir, 'verifier');
  const graded = await run('sh', [join(task, 'tests', 'test.sh')], { env: { ...process.env, TOOLBENCH_ADMIN: ready.admin, TOOLBENCH_ANSWER_FILE: answer, TOOLBENCH_VERIFIER_DIR: verifier } });
  t.regex(graded.stdout, /reward 1/);
  t.is(readFileSync(join(verifier, 'reward.txt'), 'utf8'), '1\n');
  t.like(JSON.parse(readFileSync(join(verifier, 'result.json'), 'utf8')), { reward: 1, mcp_calls: 2, mcp_bypass: 0 });

  const again = await t.throwsAsync(run(CLI[0]!, [...CLI.slice(1), 'taskgen', '--endpoints', 'scenario', '--out', out, EXAMPLE_SCENARIO])) as unknown as { code: number };
  t.is(again.code, 2, 'an existing task folder is not overwritten');
});
