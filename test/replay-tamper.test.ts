import test from 'ava';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCatalog } from '../catalog/load.js';
import type { JournalEntry } from '../mocks/core/journal-format.js';
import { rebuildWorld } from '../replay/rebuild.js';
import type { ReplayReport } from '../replay/report.js';
import { openJournal } from '../replay/source.js';
import { verifyJournal } from '../replay/verify.js';
import { tempDir } from './helpers/journal.js';
import { copyJournal, readRawEntry, rewriteEntry, rewriteHeader, swapEntries } from './helpers/replay.js';
import { toolbench } from './helpers/replay-cli.js';
import { recordGithubTrial, type RecordedTrial } from './helpers/replay-github.js';

// Done when: tampering that must fail: one flipped response byte, one changed dataset value, two
// entries swapped, a changed seed. Each exits 1 (2 for the dataset refusal) and names the seq and field.
let trial: RecordedTrial;
let entries: JournalEntry[];

test.before(async () => {
  trial = await recordGithubTrial({ total: 300, clients: 4 });
  const journal = await openJournal(trial.journalDir);
  entries = [];
  for await (const entry of journal.entries()) entries.push(entry);
  await journal.close();
});

const text = (body: Uint8Array) => Buffer.from(body).toString('utf8');

async function replayJson(args: string[]): Promise<{ code: number | null; report: ReplayReport; stderr: string }> {
  const result = await toolbench(['replay', ...args, '--verify', '--json']);
  return { code: result.code, report: JSON.parse(result.stdout) as ReplayReport, stderr: result.stderr };
}

test('one flipped byte of one response body: exit 1, that seq, the body\'s JSON path', async (t) => {
  const target = entries.find((e) => e.seq >= 100 && /"title":"[A-Za-z]/.test(text(e.response.body)))!;
  const offset = text(target.response.body).search(/"title":"[A-Za-z]/) + '"title":"'.length;
  const copy = copyJournal(trial.journalDir);
  await rewriteEntry(copy, target.seq, (entry) => { entry.response.body[offset]! ^= 0x20; });
  t.not(text((await readRawEntry(copy, target.seq)).response.body), text(target.response.body));

  const { code, report } = await replayJson([copy]);
  t.is(code, 1);
  t.like(report, { verdict: 'divergent', divergent: 1, divergentSeqs: [target.seq] });
  t.is(report.firstDivergence?.seq, target.seq);
  t.deepEqual(report.firstDivergence?.fields, ['body']);
  const body = report.firstDivergence?.body;
  t.is(body?.kind, 'json');
  t.regex(body?.kind === 'json' ? body.paths[0]!.path : '', /\.title$/);

  const informational = await toolbench(['replay', copy, '--json']);
  t.is(informational.code, 0, 'without --verify a divergence is reported, not an error');
  t.is((JSON.parse(informational.stdout) as ReplayReport).verdict, 'divergent');

  const human = await toolbench(['replay', copy, '--verify']);
  t.is(human.code, 1);
  t.regex(human.stdout, new RegExp(`^divergent: 1 of ${entries.length} entries differ; first at seq ${target.seq}\\n`));
  t.regex(human.stdout, new RegExp(`seq ${target.seq} {2}${target.method} api\\.github\\.com${target.target.replace(/[?.*+()[\]]/g, '\\$&')}`));
  t.regex(human.stdout, /body {5}\$\S*\.title: "/);
});

test('one changed dataset value: refused (exit 2); with --allow-mismatch, exit 1 at the first response that showed it', async (t) => {
  const scenario = join(tempDir(), 'scenario');
  cpSync(trial.scenarioDir, scenario, { recursive: true });
  const file = join(scenario, 'dataset', 'github.json');
  const dataset = JSON.parse(readFileSync(file, 'utf8')) as { orgs: { description: string }[] };
  const original = dataset.orgs[0]!.description;
  dataset.orgs[0]!.description = 'We make gadgets.';
  writeFileSync(file, JSON.stringify(dataset, null, 2));

  const refused = await toolbench(['replay', trial.journalDir, '--verify', '--scenario', scenario]);
  t.is(refused.code, 2);
  t.regex(refused.stderr, /^toolbench: cannot replay: the scenario's dataset changed since recording: .*dataset hashes to [0-9a-f]{12}, the journal was recorded with [0-9a-f]{12} \(.*--allow-mismatch.*\)\n$/);

  const shown = entries.find((e) => text(e.response.body).includes(JSON.stringify(original)))!;
  const { code, report } = await replayJson([trial.journalDir, '--scenario', scenario, '--allow-mismatch']);
  t.is(code, 1);
  t.is(report.firstDivergence?.seq, shown.seq);
  t.true(report.firstDivergence?.fields.includes('body'));
  const body = report.firstDivergence?.body;
  t.true(body?.kind === 'json' && body.paths.some((p) => p.path.endsWith('description') && p.recorded === JSON.stringify(original) && p.replayed === '"We make gadgets."'));
  t.is(report.checks.find((c) => c.name === 'dataset')?.status, 'allowed');
});

test('two entries swapped: exit 1 at the earlier of the two, in its headers', async (t) => {
  const [a, b] = [120, 127];
  t.not(entries[a - 1]!.target + entries[a - 1]!.method, entries[b - 1]!.target + entries[b - 1]!.method);
  const copy = copyJournal(trial.journalDir);
  await swapEntries(copy, a, b);
  const { code, report } = await replayJson([copy]);
  t.is(code, 1);
  t.is(report.firstDivergence?.seq, a);
  t.true(report.firstDivergence?.fields.includes('headers'));
  t.true(report.firstDivergence?.headers?.some((h) => h.name === 'X-Toolbench-Seq' && h.op === 'changed' && h.recorded === String(b) && h.replayed === String(a)));
  t.true(report.divergentSeqs.includes(b));
});

test('a changed seed: exit 1 at seq 1, in the seeded X-GitHub-Request-Id header', async (t) => {
  const copy = copyJournal(trial.journalDir);
  await rewriteHeader(copy, (header) => { header.seed = 43; });
  const { code, report } = await replayJson([copy]);
  t.is(code, 1);
  t.is(report.seed, 43);
  t.is(report.firstDivergence?.seq, 1);
  t.true(report.firstDivergence?.headers?.some((h) => h.op === 'changed' && h.name === 'X-GitHub-Request-Id'));
  t.regex(report.checks.find((c) => c.name === 'seed')?.message ?? '', /seed 43 is not the scenario's 42/);
});

test('a moved scenario, a changed mock version: exit 2 with the reason, as JSON too', async (t) => {
  const moved = copyJournal(trial.journalDir);
  await rewriteHeader(moved, (header) => { header.scenarioDir = '/nonexistent/basic'; });
  const gone = await replayJson([moved]);
  t.is(gone.code, 2);
  t.like(gone.report, { verdict: 'unusable', error: { code: 'TB_ERR_SCENARIO' } } as never);
  t.regex(gone.stderr, /scenario example\/github\/basic is not at \/nonexistent\/basic .*pass --scenario DIR/);
  t.is((await verifyJournal(moved, { scenarioDir: trial.scenarioDir })).verdict, 'identical');

  // Each mock has its own version: a journal is refused only for a service it touched.
  const newer = copyJournal(trial.journalDir);
  await rewriteHeader(newer, (header) => { header.mocks = { ...header.mocks, github: '0-old' }; });
  const refused = await toolbench(['replay', newer, '--verify']);
  t.is(refused.code, 2);
  t.regex(refused.stderr, /mocks the journal used changed version since recording: github mock 0-old → \d+/);

  const untouched = copyJournal(trial.journalDir);
  await rewriteHeader(untouched, (header) => { header.toolbench = '9.0.0'; header.mocks = { ...header.mocks, slack: '0-old' }; });
  const report = await verifyJournal(untouched);
  t.is(report.verdict, 'identical');
  t.like(report.checks.find((c) => c.name === 'mocks'), { status: 'ok' });
});

test('a catalog change refuses only when a recorded host now goes to another service', async (t) => {
  const journal = await openJournal(trial.journalDir);
  t.teardown(() => journal.close());
  const catalog = loadCatalog();
  const harmless = { ...catalog, hash: 'f'.repeat(64) };
  const rebuilt = await rebuildWorld(journal, { catalog: harmless });
  t.like(rebuilt.checks.find((c) => c.name === 'catalog'), { status: 'note' });

  const moved = {
    ...harmless,
    catalog: { ...catalog.catalog, services: catalog.catalog.services.map((s) => ({ ...s, hostnames: s.id === 'github' ? ['api.github.example'] : s.hostnames })) },
  };
  const error = await t.throwsAsync(rebuildWorld(journal, { catalog: moved }), { code: 'TB_ERR_CATALOG' } as never);
  t.regex(error!.message, /api\.github\.com \(seq 1\) was served by github, now outside the catalog/);

  // verifyJournal reads the entries once: the checks that need them see them during the replay
  // (replay/rebuild.ts, rebuildForReplay) and give the same checks, the same refusal, after it.
  const upfront = (await rebuildWorld(journal, { catalog: harmless })).checks;
  const verified = await verifyJournal(trial.journalDir, { catalog: harmless });
  t.is(verified.verdict, 'identical');
  t.deepEqual(verified.checks, upfront);
  const late = await t.throwsAsync(verifyJournal(trial.journalDir, { catalog: moved }), { code: 'TB_ERR_CATALOG' } as never);
  t.is(late!.message, error!.message);
  const allowed = await verifyJournal(trial.journalDir, { catalog: moved, allowMismatch: true });
  t.like(allowed.checks.find((c) => c.name === 'catalog'), { status: 'allowed' });
  t.is(allowed.entries, verified.entries);
});
