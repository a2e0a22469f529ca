import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCatalog } from '../catalog/load.js';
import { discard, startStack } from '../catalog/stack.js';
import { WarmLane } from '../catalog/warm.js';
import { LevelJournal } from '../mocks/core/journal.js';
import { verifyJournal } from '../replay/verify.js';
import { TrialStartupSchema } from '../scenarios/record.js';
import { runTrials } from '../scenarios/run.js';
import { tempDir } from './helpers/journal.js';
import { testCaDir } from './helpers/proxy.js';

// Warm lanes (catalog/warm.ts): one `toolbench run` worker keeps its proxy and its warm-safe
// distractors' servers from trial to trial. Three trials on three endpoints, so each trial has a
// different mix: the scenario's own service starts fresh, a distractor started by an earlier
// trial is taken running, one seen for the first time is started and kept.

const GITHUB = join('scenarios', 'example', 'github', 'basic');
const STRIPE = join('scenarios', 'example', 'stripe', 'basic');
const SLACK = join('scenarios', 'example', 'slack', 'basic');

test('a warm lane: distractors are taken running from earlier trials, the scenario\'s own start fresh; every trial scores like a cold one and replays identically', async (t) => {
  t.timeout(600_000);
  const out = join(tempDir(), 'run');
  const manifest = await runTrials({
    scenarioDirs: [GITHUB, STRIPE, SLACK], outDir: out, agent: 'oracle', caDir: testCaDir(),
    endpoints: ['github', 'slack', 'stripe'], timeoutMs: 300_000,
  });
  t.deepEqual(manifest.trials.map((trial) => trial.error), [null, null, null]);
  t.deepEqual(manifest.trials.map((trial) => trial.reward), [1, 1, 1], 'the oracle solves each, distractors warm or not');
  t.deepEqual(manifest.trials.map((trial) => trial.r_b), [0, 0, 0]);
  // 1: github own, slack and stripe started (kept). 2: stripe own (fresh), slack warm, github
  // started (kept). 3: slack own (fresh), github and stripe warm.
  t.deepEqual(manifest.trials.map((trial) => trial.warm), [0, 1, 2]);
  t.deepEqual(manifest.warm, { lanes: 1, strays: [] });
  const warmOf = (dir: string) => TrialStartupSchema.parse(JSON.parse(readFileSync(join(out, dir, 'startup.json'), 'utf8')))
    .endpoints.filter((e) => e.warm).map((e) => e.endpoint);
  t.deepEqual(manifest.trials.map((trial) => warmOf(trial.dir!)), [[], ['slack'], ['github', 'stripe']]);
  for (const trial of manifest.trials) {
    t.is((await verifyJournal(join(out, trial.dir!, 'journal'))).verdict, 'identical', trial.dir!);
  }
  // The trial's own MCP log says each warm endpoint is ready, noting it was warm.
  const journal = await LevelJournal.open(join(out, manifest.trials[2]!.dir!, 'journal'));
  const ready: unknown[] = [];
  for await (const record of journal.mcpRecords()) if (record.kind === 'ready') ready.push([record.endpoint, record.result]);
  await journal.close();
  t.deepEqual(ready.filter((r) => (r as [string, { warm?: boolean }])[1].warm).sort(), [['github', { tools: 26, warm: true }], ['stripe', { tools: 22, warm: true }]]);
});

test('--no-warm (warm: false): every trial starts all of its own endpoints', async (t) => {
  t.timeout(300_000);
  const manifest = await runTrials({
    scenarioDirs: [STRIPE], repeat: 2, outDir: join(tempDir(), 'cold'), agent: 'nop', caDir: testCaDir(), endpoints: ['stripe', 'slack'], timeoutMs: 120_000, warm: false,
  });
  t.deepEqual(manifest.trials.map((trial) => [trial.reward, trial.warm]), [[0, 0], [0, 0]]);
  t.is(manifest.warm, null);
});

test('a warm server that crashes during a later trial is told to that trial, not to the one that started it', async (t) => {
  t.timeout(300_000);
  const lane = await WarmLane.open({ catalog: loadCatalog(), caDir: testCaDir(), openLog: async () => discard() });
  const crashes: string[][] = [[], []];
  try {
    const first = await startStack({ scenarioDir: STRIPE, ports: 'ephemeral', endpoints: ['stripe', 'slack'], lane, onCrash: (id) => crashes[0]!.push(id) });
    await first.close();
    const second = await startStack({ scenarioDir: STRIPE, ports: 'ephemeral', endpoints: ['stripe', 'slack'], lane, onCrash: (id, message) => crashes[1]!.push(`${id}: ${message}`) });
    const slack = second.endpoints.get('slack')!;
    t.true(slack.readiness.warm === true, 'slack is taken warm');
    process.kill(slack.running.pid!, 'SIGKILL');
    while (crashes[1]!.length === 0) await new Promise((done) => setTimeout(done, 50));
    await second.close();
  } finally {
    await lane.close();
  }
  t.deepEqual(crashes[0], []);
  t.is(crashes[1]!.length, 1);
  t.regex(crashes[1]![0]!, /^slack: the slack MCP server exited with .*SIGKILL/);
});
