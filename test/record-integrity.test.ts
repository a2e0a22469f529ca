import test from 'ava';
import { execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { runAgent } from '../scenarios/agent-process.js';
import { TrialResultSchema } from '../scenarios/grade/result.js';
import { loadScenarioManifest } from '../scenarios/manifest.js';
import { recordTrial } from '../scenarios/record.js';
import { tempDir } from './helpers/journal.js';
import { testCaDir } from './helpers/proxy.js';
import { EXAMPLE_SCENARIO } from './helpers/world.js';
import { CLI_ARGS, fixtureArgs } from './helpers/cli.js';

// Issue 13: what an agent can reach, timeouts and Ctrl-C that hold for shell-wrapped agents,
// start-up errors a user can act on.

const run = promisify(execFile);
const CLI = [process.execPath, ...CLI_ARGS];
const wrongAgent = (mode: string, extra: string[] = []) => ({
  command: ['/usr/bin/env', `WRONG_AGENT_MODE=${mode}`, ...extra, process.execPath, ...fixtureArgs('wrong-agent')],
});
const record = (agent: Parameters<typeof recordTrial>[0]['agent'], extra: Partial<Parameters<typeof recordTrial>[0]> = {}) =>
  recordTrial({ scenarioDir: EXAMPLE_SCENARIO, outDir: join(tempDir(), 'run'), agent, caDir: testCaDir(), timeoutMs: 60_000, endpoints: 'scenario', ...extra });
const cli = (args: string[]) => run(CLI[0]!, [...CLI.slice(1), ...args], { timeout: 60_000 });
const failure = (error: unknown) => error as { code: number; stderr: string; stdout: string };

test('the agent gets no path into the scenario folder, no credential and none of the caller\'s TOOLBENCH_ variables; it runs in the caller\'s folder', async (t) => {
  const spy = join(tempDir(), 'spy.json');
  process.env.TOOLBENCH_ADMIN_TOKEN = 'caller-admin-token-must-not-leak';
  let outcome;
  try {
    // A relative script path, as a user types it: it must resolve from our folder, not OUT.
    outcome = await record(wrongAgent('spy', [`WRONG_AGENT_SPY=${spy}`]));
  } finally {
    delete process.env.TOOLBENCH_ADMIN_TOKEN;
  }
  const seen = JSON.parse(readFileSync(spy, 'utf8')) as { cwd: string; env: Record<string, string> };
  t.is(seen.cwd, process.cwd());
  t.is(seen.env.TOOLBENCH_OUT, outcome.outDir);
  const scenario = resolve(EXAMPLE_SCENARIO);
  const credential = loadScenarioManifest(EXAMPLE_SCENARIO).credentials.github as string; // a string credential (a token)
  for (const [name, value] of Object.entries(seen.env)) {
    t.false(value.includes(scenario) || value.includes(relative(process.cwd(), scenario)), `${name} names the scenario folder: ${value}`);
    t.false(value.includes(credential), `${name} holds the scenario's credential`);
    // Every folder the environment names: none holds a scenario.toml (the expectations and solution).
    for (const path of value.split(':').filter((p) => p.startsWith('/') && existsSync(p))) {
      const dir = existsSync(join(path, 'scenario.toml')) ? path : dirname(path);
      t.false(readdirSync(dir).includes('scenario.toml'), `${name} leads to ${dir}, a scenario folder`);
    }
  }
  t.is(seen.env.TOOLBENCH_ADMIN_TOKEN, undefined);
  t.is(seen.env.TOOLBENCH_SCENARIO, undefined, 'only the built-in oracle gets the scenario');
  t.is(dirname(seen.env.TOOLBENCH_INSTRUCTION_FILE!), outcome.outDir, 'its own copy of the instruction');
  t.is(readFileSync(seen.env.TOOLBENCH_INSTRUCTION_FILE!, 'utf8'), readFileSync(join(EXAMPLE_SCENARIO, 'instruction.md'), 'utf8'));
});

test('a hybrid agent that writes through the API with a leaked token scores 0: its write does not count as a required call', async (t) => {
  const credential = loadScenarioManifest(EXAMPLE_SCENARIO).credentials.github as string; // a string credential (a token)
  const { result } = await record(wrongAgent('hybrid', [`WRONG_AGENT_TOKEN=${credential}`]));
  t.like(result, { state_ok: true, required_calls_ok: false, reward: 0, mcp_calls: 0 });
  t.true(result.mcp_bypass >= 1);
});

test('--strict (and a scenario\'s strict = true) fails a trial that bypassed MCP even once', async (t) => {
  const lenient = await record(wrongAgent('read-bypass'));
  t.like(lenient.result, { reward: 1, mcp_bypass: 1, strict: false });
  const strict = await record(wrongAgent('read-bypass'), { strict: true });
  t.like(strict.result, { reward: 0, mcp_bypass: 1, strict: true, state_ok: true, required_calls_ok: true });
  const check = strict.result.checks.find((c) => c.kind === 'bypass');
  t.like(check, { ok: false });
  t.regex(check!.detail, /GET \/repos\/acme\/widgets/);
  const oracle = await record('oracle', { strict: true });
  t.like(oracle.result, { reward: 1, strict: true });
  const scenario = join(tempDir(), 'scenario');
  cpSync(EXAMPLE_SCENARIO, scenario, { recursive: true });
  writeFileSync(join(scenario, 'scenario.toml'), readFileSync(join(scenario, 'scenario.toml'), 'utf8').replace('tick_ms = 1000', 'tick_ms = 1000\nstrict = true'));
  const byKey = await record(wrongAgent('read-bypass'), { scenarioDir: scenario });
  t.like(byKey.result, { reward: 0, mcp_bypass: 1, strict: true });
});

test('--timeout stops a shell-wrapped agent and its children within seconds; result.json says timed_out', async (t) => {
  const dir = tempDir();
  const out = join(dir, 'run');
  const marker = join(dir, 'agent-started');
  // Timed from the agent's own start, not the command's: the world and its servers start first,
  // and how long that takes on a loaded machine is not what this test is about.
  let started = 0;
  const watch = setInterval(() => { if (!started && existsSync(marker)) started = Date.now(); }, 50);
  await cli(['record', '--endpoints', 'scenario', '--quiet', '--timeout', '2', '--out', out, '--ca-dir', testCaDir(), '--', 'sh', '-c', `touch ${marker}; sleep 917; true`])
    .finally(() => clearInterval(watch));
  t.true(started > 0 && Date.now() - started < 20_000, `${Date.now() - started} ms after the agent started`);
  const result = TrialResultSchema.parse(JSON.parse(readFileSync(join(out, 'result.json'), 'utf8')));
  t.like(result, { timed_out: true, interrupted: false, reward: 0 });
  const { stdout } = await run('ps', ['-eo', 'args']);
  t.false(stdout.split('\n').some((line) => line.startsWith('sleep 917')), 'the shell\'s child is gone too');
});

test('Ctrl-C stops a shell-wrapped agent: exit 130, result.json says interrupted (not timed_out)', async (t) => {
  const dir = tempDir();
  const out = join(dir, 'run');
  const marker = join(dir, 'agent-started');
  const child = spawn(CLI[0]!, [...CLI.slice(1), 'record', '--endpoints', 'scenario', '--quiet', '--out', out, '--ca-dir', testCaDir(), '--', 'sh', '-c', `touch ${marker}; sleep 918; true`],
    { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  while (!existsSync(marker)) await new Promise((r) => setTimeout(r, 100));
  const started = Date.now();
  child.kill('SIGINT');
  t.is(await exited, 130);
  t.true(Date.now() - started < 20_000, `${Date.now() - started} ms`);
  t.like(JSON.parse(readFileSync(join(out, 'result.json'), 'utf8')), { interrupted: true, timed_out: false, reward: 0 });
  const { stdout } = await run('ps', ['-eo', 'args']);
  t.false(stdout.split('\n').some((line) => line.startsWith('sleep 918')));
});

test('a zero or negative --timeout is refused (exit 2)', async (t) => {
  for (const value of ['0', '-5']) {
    const error = failure(await t.throwsAsync(cli(['record', '--endpoints', 'scenario', '--timeout', value, '--out', join(tempDir(), 'run'), '--', 'true'])));
    t.is(error.code, 2);
    t.regex(error.stderr, /--timeout -?\d+: give a positive number of seconds/);
  }
});

test('a missing agent command: exit 2 in one line, nothing left behind, and the same --out then works', async (t) => {
  const out = join(tempDir(), 'run');
  const error = failure(await t.throwsAsync(cli(['record', '--endpoints', 'scenario', '--quiet', '--out', out, '--ca-dir', testCaDir(), '--', 'no-such-agent-xyz', '--flag'])));
  t.is(error.code, 2);
  t.is(error.stderr.trim().split('\n').length, 1, error.stderr);
  t.regex(error.stderr, /agent command no-such-agent-xyz: not found on PATH/);
  t.false(existsSync(out));
  const { stdout } = await cli(['record', '--endpoints', 'scenario', '--quiet', '--json', '--agent', 'nop', '--out', out, '--ca-dir', testCaDir()]);
  t.is(JSON.parse(stdout).agent, 'nop');
});

test('an agent that fails: the last lines of its stderr are printed, even with --quiet', async (t) => {
  const { stderr } = await cli(['record', '--endpoints', 'scenario', '--quiet', '--out', join(tempDir(), 'run'), '--ca-dir', testCaDir(), '--',
    'sh', '-c', 'echo "Error: could not reach the model" >&2; exit 3']);
  t.regex(stderr, /the agent exited with code 3/);
  t.regex(stderr, /Error: could not reach the model/);
});

test('an agent that exits while a process outside its group still holds its output: not waited on past a short drain', async (t) => {
  const started = Date.now();
  const run = await runAgent({
    command: ['sh', '-c', 'setsid sleep 919 & echo "stray $!"; exit 0'], env: { PATH: process.env.PATH ?? '' }, cwd: tempDir(),
    logPath: join(tempDir(), 'agent.log'), echo: false, timeoutMs: 60_000,
  });
  const stray = Number(/stray (\d+)/.exec(run.output)?.[1]);
  t.teardown(() => { try { process.kill(stray, 'SIGKILL'); } catch { /* gone */ } });
  t.true(stray > 0, run.output);
  // Waiting on the stray would last until the 60 s timeout; the drain is a second or two (more on a loaded machine).
  t.true(Date.now() - started < 30_000, `${Date.now() - started} ms`);
  t.like(run, { code: 0, timedOut: false, aborted: false });
});
