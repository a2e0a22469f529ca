import test from 'ava';
import { appendFileSync, closeSync, openSync, readdirSync, rmSync, statSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { Packr } from 'msgpackr';
import { isToolbenchError } from '../mocks/core/errors.js';
import { entryKey, KEY_END, KEY_FORMAT, KEY_HEADER, mcpKey } from '../mocks/core/journal-format.js';
import { verifyJournal } from '../replay/verify.js';
import { fcOptions, fuzzTimeout } from './helpers/fuzz.js';
import { copyJournal, putRaw } from './helpers/replay.js';
import { toolbench } from './helpers/replay-cli.js';
import { recordGithubTrial, type RecordedTrial } from './helpers/replay-github.js';

// Corrupted journals, generated: bytes scribbled over, cut from or appended to the LevelDB log,
// files deleted or overwritten, foreign values under entry and meta keys. Replay either refuses
// the journal with one line (a ToolbenchError; the CLI exits 2), or replays it identically: in
// full when the damage missed everything, or up to a lost tail, which it then reports as not
// closed cleanly. It never diverges, never throws anything else, and never loses entries silently.

let trial: RecordedTrial;
let entries = 0;

test.before(async () => {
  trial = await recordGithubTrial({ total: 80, clients: 2 });
  entries = (await verifyJournal(trial.journalDir)).entries;
});

const fileOf = (dir: string, pattern: RegExp) => readdirSync(dir).filter((name) => pattern.test(name)).map((name) => join(dir, name));
const fraction = fc.double({ min: 0, max: 1, noNaN: true });
const packr = new Packr({ useRecords: false });

type Damage =
  | { kind: 'scribble'; at: number; bytes: Uint8Array }
  | { kind: 'truncate'; at: number }
  | { kind: 'append'; bytes: Uint8Array }
  | { kind: 'delete'; file: 'CURRENT' | 'MANIFEST' | 'log' | 'LOCK' | 'LOG' }
  | { kind: 'overwrite'; file: 'CURRENT' | 'MANIFEST'; bytes: Uint8Array }
  | { kind: 'put'; key: 'entry' | 'mcp' | 'format' | 'header' | 'end'; at: number; value: 'garbage' | 'foreign' | 'empty'; bytes: Uint8Array };

const damageArb: fc.Arbitrary<Damage> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('scribble' as const), at: fraction, bytes: fc.uint8Array({ minLength: 1, maxLength: 5_000 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('truncate' as const), at: fraction }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('append' as const), bytes: fc.uint8Array({ minLength: 1, maxLength: 3_000 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), file: fc.constantFrom('CURRENT', 'MANIFEST', 'log', 'LOCK', 'LOG') as fc.Arbitrary<'CURRENT'> }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('overwrite' as const), file: fc.constantFrom('CURRENT', 'MANIFEST') as fc.Arbitrary<'CURRENT'>, bytes: fc.uint8Array({ maxLength: 200 }) }) },
  { weight: 2, arbitrary: fc.record({
    kind: fc.constant('put' as const), key: fc.constantFrom('entry', 'entry', 'mcp', 'format', 'header', 'end') as fc.Arbitrary<'entry'>, at: fraction,
    value: fc.constantFrom('garbage', 'foreign', 'empty') as fc.Arbitrary<'garbage'>, bytes: fc.uint8Array({ maxLength: 64 }),
  }) },
);

async function inflict(dir: string, damage: Damage): Promise<void> {
  const log = fileOf(dir, /\.log$/)[0];
  // Earlier damage may have removed the file this one aims at: then there is nothing to do.
  if (!log && ['scribble', 'truncate', 'append'].includes(damage.kind)) return;
  if (damage.kind === 'overwrite' && fileOf(dir, damage.file === 'CURRENT' ? /^CURRENT$/ : /^MANIFEST-/).length === 0) return;
  switch (damage.kind) {
    case 'scribble': {
      const size = statSync(log!).size;
      const fd = openSync(log!, 'r+');
      writeSync(fd, damage.bytes, 0, damage.bytes.length, Math.floor(damage.at * Math.max(0, size - 1)));
      closeSync(fd);
      return;
    }
    case 'truncate': return truncateSync(log!, Math.floor(damage.at * statSync(log!).size));
    case 'append': return appendFileSync(log!, damage.bytes);
    case 'delete': {
      const pattern = { CURRENT: /^CURRENT$/, MANIFEST: /^MANIFEST-/, log: /\.log$/, LOCK: /^LOCK$/, LOG: /^LOG$/ }[damage.file];
      for (const file of fileOf(dir, pattern)) rmSync(file);
      return;
    }
    case 'overwrite': return writeFileSync(fileOf(dir, damage.file === 'CURRENT' ? /^CURRENT$/ : /^MANIFEST-/)[0]!, damage.bytes);
    case 'put': {
      const key = { entry: entryKey(1 + Math.floor(damage.at * entries)), mcp: mcpKey(1), format: KEY_FORMAT, header: KEY_HEADER, end: KEY_END }[damage.key];
      const value = damage.value === 'garbage' ? Buffer.concat([Buffer.from([0xc1]), damage.bytes])
        : damage.value === 'empty' ? new Uint8Array(0)
          : packr.pack({ seq: 1, hello: Buffer.from(damage.bytes).toString('hex'), lastSeq: -1 });
      // Earlier damage may leave LevelDB unable to open it for this write: then it is damaged enough.
      return putRaw(dir, key, value).catch(() => undefined);
    }
  }
}

test('generated damage: refused in one line, or replayed identically (a lost tail reported as not closed cleanly); never divergent', async (t) => {
  t.timeout(fuzzTimeout);
  const outcomes = new Map<string, number>();
  const refused: string[] = [];
  const count = (what: string) => outcomes.set(what, (outcomes.get(what) ?? 0) + 1);
  await fc.assert(fc.asyncProperty(fc.array(damageArb, { minLength: 1, maxLength: 3 }), async (damages) => {
    const dir = copyJournal(trial.journalDir);
    try {
      for (const damage of damages) await inflict(dir, damage);
      let report;
      try {
        report = await verifyJournal(dir);
      } catch (error) {
        if (!isToolbenchError(error)) throw new Error(`not a ToolbenchError: ${(error as Error)?.stack ?? error}`);
        if (error.message.includes('\n')) throw new Error(`more than one line: ${error.message}`);
        if (!error.message.includes(dir)) throw new Error(`the message does not name the journal: ${error.message}`);
        count(error.code);
        if (refused.length < 3) refused.push(dir);
        return;
      }
      if (report.verdict !== 'identical') throw new Error(`replayed ${report.verdict}: first at seq ${report.firstDivergence?.seq}`);
      const note = report.checks.some((check) => check.name === 'journal' && /not closed cleanly/.test(check.message));
      if (report.entries === entries && !note) return void count('identical, untouched');
      if (report.entries < entries && note) return void count('identical, shorter, not closed cleanly');
      if (report.entries === entries && note) return void count('identical, end marker lost');
      throw new Error(`${report.entries} of ${entries} entries replayed and ${note ? 'a' : 'no'} not-closed-cleanly note`);
    } finally {
      if (!refused.includes(dir)) rmSync(dir, { recursive: true, force: true });
    }
  }), fcOptions(80));
  t.log([...outcomes].map(([k, n]) => `${k} ×${n}`).join(', '));
  t.true([...outcomes.keys()].some((k) => k.startsWith('TB_ERR_')));

  // The CLI says the same: exit 2, one line on stderr, no stack.
  const results = await Promise.all(refused.map((dir) => toolbench(['replay', dir, '--verify'])));
  for (const result of results) {
    t.is(result.code, 2, result.stderr);
    t.is(result.stderr.trim().split('\n').length, 1, result.stderr);
    t.notRegex(result.stderr, /\n\s+at /);
  }
});
