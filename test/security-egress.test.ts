import test from 'ava';
import { join } from 'node:path';
import { tempDir } from './helpers/journal.js';
import { beyondLoopback, EGRESS_PRELOAD, guardedEnv, readEgressLog, type EgressEvent } from './helpers/egress-log.js';
import { testCaDir } from './helpers/proxy.js';
import { ROOT } from './helpers/proxy-processes.js';
import { runTsx, toolbench, type CliResult } from './helpers/replay-cli.js';
import { TOKENS } from './helpers/replay-github.js';
import { EXAMPLE_SCENARIO } from './helpers/world.js';

// No egress: during a full trial no process of toolbench opens a socket (or makes a DNS query)
// to anything but loopback, and every listener is on loopback. Each process runs with
// test/helpers/egress-preload.mjs, which records every connect, lookup, UDP send and listen
// (and refuses anything beyond loopback, so a failure here never sends a packet out).

function runWithGuard(args: string[], log: string, extraEnv: Record<string, string> = {}): Promise<CliResult> {
  return runTsx(args, { cwd: ROOT, env: guardedEnv(log, extraEnv) });
}

const describe = (events: EgressEvent[]) => events.map((e) => `${e.pid} ${e.kind} ${e.host ?? e.path}:${e.port ?? ''}${e.refused ? ' (refused)' : ''}`);

test('a trial with the real GitHub MCP server: the trial process and the MCP server open nothing beyond loopback; the guard is live in both', async (t) => {
  const log = join(tempDir('toolbench-egress-'), 'egress.jsonl');
  const run = await runWithGuard(['test/helpers/egress-trial.ts', EXAMPLE_SCENARIO, testCaDir(), EGRESS_PRELOAD], log);
  t.is(run.code, 0, run.stderr);
  const summary = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { toolCalls: number; toolCallsOk: number; outsideViaProxy: string | number; control: string; journal: number };
  t.true(summary.toolCalls >= 3);
  t.is(summary.toolCallsOk, summary.toolCalls, 'every tool call worked through the proxy');
  t.regex(String(summary.outsideViaProxy), /403/, 'a host outside the catalog is refused by the proxy');
  t.regex(summary.control, /^egress guard: refused a connection to 192\.0\.2\.1:443$/, 'the positive control: the guard sees and stops a direct connection');

  const events = readEgressLog(log);
  const loaded = events.filter((e) => e.kind === 'loaded');
  const trialPid = loaded.find((e) => e.argv?.some((a) => a.endsWith('egress-trial.ts')))?.pid;
  const serverPid = loaded.find((e) => e.argv?.some((a) => a.includes('server-github')))?.pid;
  t.truthy(trialPid, 'the guard ran in the trial process');
  t.truthy(serverPid, 'the guard ran in the MCP server process');
  t.true(events.some((e) => e.pid === serverPid && e.kind === 'connect'), 'the MCP server made its requests (to the proxy)');

  const outside = beyondLoopback(events).filter((e) => !(e.pid === trialPid && e.host === '192.0.2.1' && e.port === 443));
  t.deepEqual(describe(outside), [], 'nothing but the control went beyond loopback');
  const listens = events.filter((e) => e.kind === 'listen');
  t.true(listens.length >= 5, `${listens.length} listeners (admin, service port, proxy, TLS, bridge)`);
  t.log(`${events.filter((e) => e.kind === 'connect').length} connects, ${events.filter((e) => e.kind === 'lookup').length} lookups, ${listens.length} listeners in ${loaded.length} processes; all loopback`);
});

test('toolbench record (oracle agent): the whole trial command opens nothing beyond loopback and listens only on loopback; its export carries no credential', async (t) => {
  const dir = tempDir('toolbench-egress-record-');
  const log = join(dir, 'egress.jsonl');
  const run = await runWithGuard(['bin/main.ts', 'record', '--endpoints', 'scenario', '--agent', 'oracle', '--scenario', EXAMPLE_SCENARIO, '--out', join(dir, 'trial'),
    '--ca-dir', testCaDir(), '--quiet', '--json'], log);
  t.is(run.code, 0, run.stderr);
  t.like(JSON.parse(run.stdout.trim().split('\n').at(-1)!), { reward: 1, mcp_bypass: 0 });
  const events = readEgressLog(log);
  t.true(events.some((e) => e.kind === 'loaded' && e.argv?.includes('record')));
  t.deepEqual(describe(beyondLoopback(events)), []);
  t.true(events.filter((e) => e.kind === 'listen').length >= 5);

  // The trial's journal holds the MCP server's token (it is what the server sent); a HAR export
  // does not, unless asked with --no-redact.
  const journal = join(dir, 'trial', 'journal');
  const [redacted, kept] = await Promise.all([toolbench(['export', journal, '--har']), toolbench(['export', journal, '--har', '--no-redact'])]);
  t.is(redacted.code, 0, redacted.stderr);
  t.true(kept.stdout.includes(TOKENS.alice), 'the journal does hold the token (so the check below means something)');
  t.false(redacted.stdout.includes(TOKENS.alice), 'the default export redacts it');
  t.regex(redacted.stdout, /"value":"(Bearer|token) REDACTED"/);
});
