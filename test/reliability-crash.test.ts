import test from 'ava';
import { join } from 'node:path';
import type { JournalEntry } from '../mocks/core/journal-format.js';
import { openJournal } from '../replay/source.js';
import { verifyJournal } from '../replay/verify.js';
import { tempDir } from './helpers/journal.js';
import { testCaDir } from './helpers/proxy.js';
import { startToolbench } from './helpers/proxy-processes.js';
import { TOKENS } from './helpers/replay-github.js';
import { githubStep, LONG, prng, routeTo, sameResponse, send, type Received, type Route, type WorldReady } from './helpers/reliability.js';
import { EXAMPLE_SCENARIO } from './helpers/world.js';

// Crash consistency: 8 clients write through the proxy (CONNECT and transparent TLS) and the
// plain port; the world is SIGKILLed at a seeded random point. Every response a client received
// must be in the journal, byte for byte, under the sequence number the world sent with it
// (X-Toolbench-Seq), and the killed journal must open, say it was not closed cleanly, and replay.
// TOOLBENCH_LONG_TESTS=1: 20 trials; else 3. TOOLBENCH_CRASH_SEED picks other trials.

const TRIALS = LONG ? 20 : 3;
const BASE_SEED = Number(process.env.TOOLBENCH_CRASH_SEED ?? 8_2025);
const ROUTES: Route[] = ['connect', 'connect', 'sni', 'connect', 'plain', 'connect', 'sni', 'plain'];
const USERS = [TOKENS.alice, TOKENS.bob, TOKENS.carol];

interface Trial {
  seed: number;
  killAfter: number;
  received: Received[];
  journalDir: string;
  stderr: string;
}

async function crashTrial(seed: number): Promise<Trial> {
  const random = prng(seed);
  const journalDir = join(tempDir('toolbench-crash-'), 'journal');
  const world = await startToolbench<WorldReady>(['world', '--scenario', EXAMPLE_SCENARIO, '--ports', 'ephemeral', '--admin-port', '0',
    '--journal', journalDir, '--ca-dir', testCaDir(), '--client', 'crash']);
  // Killed after this many responses, plus a random few milliseconds: mid-batch, mid-write or idle.
  const killAfter = 1 + Math.floor(random() * (LONG ? 400 : 150));
  const killDelayMs = Math.floor(random() * 4);
  const received: Received[] = [];
  let killed = false;
  let killSent: Promise<void> | undefined;
  const kill = () => {
    if (killed) return;
    killed = true;
    killSent = new Promise((resolve) => setTimeout(() => {
      world.child.kill('SIGKILL');
      resolve();
    }, killDelayMs));
  };
  const safety = setTimeout(kill, 20_000);
  const offsets = ROUTES.map(() => Math.floor(random() * 5));
  await Promise.all(ROUTES.map(async (route, client) => {
    const { origin, dispatcher } = routeTo(world.ready, route);
    try {
      for (let step = offsets[client]!; !killed; step++) {
        const { method, path, body } = githubStep(client, step);
        let response: Received;
        try {
          response = await send(origin, dispatcher, method, path, USERS[client % USERS.length]!, body);
        } catch {
          break; // the world died under this request
        }
        // Responses that arrive after the kill was decided were sent before it: they count too.
        received.push(response);
        if (received.length >= killAfter) kill();
      }
    } finally {
      await dispatcher.destroy().catch(() => undefined);
    }
  }));
  clearTimeout(safety);
  // The SIGKILL must land before stop(): stop ends the world gracefully (SIGTERM, journal closed
  // with its end marker), and the clients can finish inside the kill's few milliseconds of delay.
  await killSent;
  await world.stop();
  return { seed, killAfter, received, journalDir, stderr: world.stderr() };
}

async function checkTrial(t: import('ava').ExecutionContext, trial: Trial): Promise<void> {
  const label = `seed ${trial.seed}`;
  const seqs = trial.received.map((r) => r.seq);
  t.true(seqs.every((seq) => Number.isInteger(seq) && seq > 0), `${label}: every response carries X-Toolbench-Seq`);
  t.is(new Set(seqs).size, seqs.length, `${label}: sequence numbers are unique`);

  const journal = await openJournal(trial.journalDir);
  const entries = new Map<number, JournalEntry>();
  try {
    t.is(journal.end, null, `${label}: a killed world leaves no end marker`);
    t.regex(journal.warnings.join('\n'), /was not closed cleanly/);
    for await (const entry of journal.entries()) entries.set(entry.seq, entry);
  } finally {
    await journal.close();
  }
  const lost = trial.received.filter((r) => !entries.has(r.seq));
  t.deepEqual(lost.map((r) => `${r.seq} ${r.method} ${r.path}`), [], `${label}: responses received but not journaled`);
  const differing = trial.received.flatMap((r) => {
    const entry = entries.get(r.seq);
    const why = entry && sameResponse(entry.response, r);
    return why ? [`seq ${r.seq}: ${why}`] : [];
  });
  t.deepEqual(differing, [], `${label}: journaled bytes differ from what the client got`);
  t.true(entries.size >= trial.received.length);

  const report = await verifyJournal(trial.journalDir);
  t.is(report.verdict, 'identical', `${label}: the killed journal replays byte for byte`);
  t.true(report.checks.some((check) => check.name === 'journal' && check.status === 'note' && /not closed cleanly/.test(check.message)));
  t.log(`${label}: kill after ${trial.killAfter} responses; ${trial.received.length} received, ${entries.size} journaled, ${report.entries} replayed`);
}

test(`SIGKILL at a seeded random point: every response a client received is journaled, byte for byte (${TRIALS} trials)`, async (t) => {
  t.timeout(TRIALS * 15_000);
  // Two worlds at a time: kills land while the other trial's world is busy, as on a loaded machine.
  const seeds = Array.from({ length: TRIALS }, (_, i) => BASE_SEED + i);
  for (let i = 0; i < seeds.length; i += 2) {
    const trials = await Promise.all(seeds.slice(i, i + 2).map((seed) => crashTrial(seed)));
    for (const trial of trials) await checkTrial(t, trial);
  }
});
