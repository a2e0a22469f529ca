import test from 'ava';
import { join } from 'node:path';
import { chaosRules } from '../mocks/core/fault-plan.js';
import { LevelJournal } from '../mocks/core/journal.js';
import type { JournalEntry } from '../mocks/core/journal-format.js';
import { verifyJournal } from '../replay/verify.js';
import { TOKENS } from './helpers/github-requests.js';
import { tempDir } from './helpers/journal.js';
import { startToolbench } from './helpers/proxy-processes.js';
import { toolbench } from './helpers/replay-cli.js';

// `toolbench world --chaos LEVEL`: the preset is applied, recorded in the journal header, and the
// journal of a chaotic run replays identically (the CLI's exit code is checked in faults-replay).

import type { WorldReady } from '../bin/world-ready.js';

test('toolbench world --chaos medium: faults on the wire, the plan in the header, an identical replay', async (t) => {
  const journalDir = join(tempDir(), 'journal');
  const world = await startToolbench<WorldReady>(['world', '--ports', 'ephemeral', '--admin-port', '0', '--no-proxy', '--chaos', 'medium', '--journal', journalDir]);
  let statuses: (number | 'cut')[];
  try {
    const health = await (await fetch(`${world.ready.admin}/_bench/health`)).json() as { chaos?: string };
    t.is(health.chaos, 'medium');
    const paths = ['/repos/acme/widgets', '/repos/acme/widgets/issues', '/user', '/orgs/acme', '/repos/acme/widgets/branches'];
    statuses = [];
    for (let i = 0; i < 60; i++) {
      try {
        const response = await fetch(`${world.ready.services.github}${paths[i % paths.length]}`, { headers: { Authorization: `Bearer ${TOKENS.alice}` } });
        await response.arrayBuffer();
        statuses.push(response.status);
      } catch {
        statuses.push('cut');
      }
    }
  } finally {
    t.is(await world.stop(), 0, world.stderr());
  }
  t.true(statuses.filter((s) => s !== 200).length > 0, 'some requests failed');
  const journal = await LevelJournal.open(journalDir);
  t.deepEqual(journal.header.faults, { chaos: 'medium', rules: chaosRules('medium') });
  const entries: JournalEntry[] = [];
  for await (const entry of journal.entries()) entries.push(entry);
  await journal.close();
  t.is(entries.length, 60);
  t.deepEqual(entries.map((e) => (e.fault?.kind === 'reset' ? 'cut' : e.response.status)), statuses, 'what the client saw is what was journaled');
  t.true(entries.every((e) => e.fault !== null), 'the preset delays every request');

  t.like(await verifyJournal(journalDir, { via: 'http' }), { verdict: 'identical', entries: 60, divergent: 0 });

  const injected = entries.filter((e) => e.fault && e.fault.kind !== 'latency').length;
  t.true(injected > 0);
  const audit = await toolbench(['audit', journalDir, '--json']);
  t.is((JSON.parse(audit.stdout) as { totals: { faults: number } }).totals.faults, injected, 'audit counts the injected faults');
  const listing = await toolbench(['journal', journalDir]);
  t.is(listing.stdout.split('\n').filter((line) => / fault (429|500|502|503|reset|timeout)/.test(line)).length, injected, 'the listing marks each one');
});

test('toolbench world --chaos with an unknown level is a usage error', async (t) => {
  const result = await toolbench(['world', '--chaos', 'extreme', '--ports', 'ephemeral', '--admin-port', '0', '--no-proxy']);
  t.not(result.code, 0);
  t.regex(result.stderr, /chaos/);
  t.regex(result.stderr, /none, low, medium, high|"none", "low", "medium", "high"/);
});
