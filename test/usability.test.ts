import test from 'ava';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { WorldReadySchema } from '../bin/world-ready.js';
import { recordTrial } from '../scenarios/record.js';
import { tempDir } from './helpers/journal.js';
import { testCaDir } from './helpers/proxy.js';
import { EXAMPLE_SCENARIO } from './helpers/world.js';
import { CLI_ARGS } from './helpers/cli.js';

// Issue 13, item 6: what a new user hits first. Colours that obey NO_COLOR, help that names real
// scenarios, docs that link only inside the repository, and a page on writing an agent whose
// examples really score.

const run = promisify(execFile);
const ROOT = process.cwd();
const CLI = [process.execPath, ...CLI_ARGS];
const ESC = '\u001b[';
const docs = ['README.md', ...readdirSync('docs').filter((f) => f.endsWith('.md')).map((f) => join('docs', f))];

test('docs: every relative link and ../ path in README.md and docs/ names a file inside the repository', (t) => {
  for (const doc of docs) {
    const text = readFileSync(doc, 'utf8');
    const targets = [
      ...[...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((l) => !/^(https?:|mailto:|#)/.test(l)),
      ...[...text.matchAll(/`(\.\.?\/[^`\s]+)`/g)].map((m) => m[1]!),
    ];
    for (const target of targets) {
      const path = resolve(dirname(doc), target.split('#')[0]!);
      t.false(relative(ROOT, path).startsWith('..'), `${doc}: ${target} is outside the repository`);
      t.true(existsSync(path), `${doc}: ${target} does not exist`);
    }
  }
});

test('docs/agents.md: linked from the README; documents every key of the world\'s ready line (mcp too), grade, Harbor and the base64 label', (t) => {
  t.regex(readFileSync('README.md', 'utf8'), /\]\(docs\/agents\.md\)/);
  const page = readFileSync('docs/agents.md', 'utf8');
  for (const key of Object.keys(WorldReadySchema.shape)) t.regex(page, new RegExp(`^\\| \`${key}\``, 'm'), `ready line key ${key}`);
  for (const topic of ['toolbench grade', 'taskgen', 'TOOLBENCH_MCP_CONFIG', 'TOOLBENCH_ANSWER_FILE', 'examples/agent.mjs', 'examples/agent.py']) t.true(page.includes(topic), topic);
  t.regex(page, /get_file_contents[\s\S]{0,200}base64/);
});

test('record --help: every scenario its examples name exists', async (t) => {
  const { stdout } = await run(CLI[0]!, [...CLI.slice(1), 'record', '--help']);
  const examples = stdout.slice(stdout.indexOf('Examples:'));
  const named = examples.split(/\s+/).filter((word) => word.startsWith('scenarios/'));
  t.true(named.length > 0);
  for (const scenario of named) t.true(existsSync(join(scenario, 'scenario.toml')), scenario);
  t.regex(stdout, /130 when interrupted/);
});

test('the example agents of docs/agents.md (Node with the SDK, Python with the standard library) each score reward 1', async (t) => {
  for (const command of [['node', 'docs/examples/agent.mjs'], ['python3', 'docs/examples/agent.py']]) {
    const { result } = await recordTrial({ scenarioDir: EXAMPLE_SCENARIO, outDir: join(tempDir(), 'run'), agent: { command }, caDir: testCaDir(), timeoutMs: 60_000, endpoints: 'scenario' });
    t.like(result, { reward: 1, mcp_bypass: 0, mcp_calls: 1, agent_exit: { code: 0, signal: null } }, command.join(' '));
  }
});

test('NO_COLOR: record and demo print no colour even with FORCE_COLOR; replay draws no progress bar on a terminal', async (t) => {
  const dir = tempDir();
  const env = { ...process.env, FORCE_COLOR: '1', NO_COLOR: '1' };
  const out = join(dir, 'run');
  const recorded = await run(CLI[0]!, [...CLI.slice(1), 'record', '--agent', 'nop', '--endpoints', 'scenario', '--out', out, '--ca-dir', testCaDir()], { env });
  t.regex(recorded.stdout, /reward 0/);
  t.false(recorded.stdout.includes(ESC), 'record');
  const demo = await run(CLI[0]!, [...CLI.slice(1), 'demo', '--endpoints', 'scenario', '--ca-dir', testCaDir(), '--scenario', resolve(EXAMPLE_SCENARIO)], { env, cwd: dir });
  t.regex(demo.stdout, /reward 1/);
  t.false(demo.stdout.includes(ESC), 'demo');

  // On a pseudo-terminal (python3's pty): the bar is drawn without NO_COLOR, and not with it.
  const onTerminal = async (noColor: boolean) => (await run('python3', ['-c', PTY, ...CLI, 'replay', out], {
    env: { ...process.env, FORCE_COLOR: undefined, NO_COLOR: noColor ? '1' : undefined },
  })).stdout;
  t.regex(await onTerminal(false), /replay \[/, 'a terminal gets the bar');
  const plain = await onTerminal(true);
  t.notRegex(plain, /replay \[/);
  t.false(plain.includes(ESC));
  t.regex(plain, /identical/);
});

/** Runs argv[1:] on a pseudo-terminal and prints what it wrote there. */
const PTY = `
import os, pty, sys
pid, fd = pty.fork()
if pid == 0:
    os.execvp(sys.argv[1], sys.argv[1:])
out = b''
while True:
    try:
        data = os.read(fd, 65536)
    except OSError:
        break
    if not data:
        break
    out += data
os.waitpid(pid, 0)
sys.stdout.write(out.decode('utf-8', 'replace'))
`;
