import test from 'ava';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openJournal } from '../replay/source.js';
import { verifyJournal } from '../replay/verify.js';
import { TrialResultSchema } from '../scenarios/grade/result.js';
import { ClaudeMcpConfigSchema, GenericMcpConfigSchema } from '../scenarios/mcp-config.js';
import { recordTrial } from '../scenarios/record.js';
import { tempDir } from './helpers/journal.js';
import { testCaDir } from './helpers/proxy.js';
import { EXAMPLE_SCENARIO } from './helpers/world.js';
import { fixtureArgs } from './helpers/cli.js';

const wrongAgent = (mode: string) => ({ command: ['/usr/bin/env', `WRONG_AGENT_MODE=${mode}`, process.execPath, ...fixtureArgs('wrong-agent')] });
const record = (agent: Parameters<typeof recordTrial>[0]['agent'], extra: Partial<Parameters<typeof recordTrial>[0]> = {}) =>
  recordTrial({ scenarioDir: EXAMPLE_SCENARIO, outDir: join(tempDir(), 'run'), agent, caDir: testCaDir(), timeoutMs: 60_000, endpoints: 'scenario', ...extra });

test('oracle: reward 1, every check passes, the out folder holds journal, result and MCP configs; the journal replays identically', async (t) => {
  const { result, outDir, journalDir } = await record('oracle');
  t.like(result, { reward: 1, outcome_code: 0, state_ok: true, required_calls_ok: true, forbidden_calls_ok: true, answer_ok: true, r_c: 1, r_b: 0, mcp_bypass: 0, mcp_calls: 2, interrupted: false });
  t.true(result.checks.every((c) => c.ok));
  t.deepEqual(TrialResultSchema.parse(JSON.parse(readFileSync(join(outDir, 'result.json'), 'utf8'))), result);
  const claude = ClaudeMcpConfigSchema.parse(JSON.parse(readFileSync(join(outDir, 'mcp.json'), 'utf8')));
  t.regex(claude.mcpServers.github!.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  t.is(GenericMcpConfigSchema.parse(JSON.parse(readFileSync(join(outDir, 'mcp.generic.json'), 'utf8'))).endpoints[0]!.transport, 'streamable-http');
  t.true(existsSync(join(outDir, 'logs', 'github.stderr.log')));
  const report = await verifyJournal(journalDir);
  t.is(report.verdict, 'identical');
});

test('nop: reward 0, the state and required calls fail', async (t) => {
  const { result } = await record('nop');
  t.like(result, { reward: 0, outcome_code: 1, state_ok: false, required_calls_ok: false, forbidden_calls_ok: true, answer_ok: false, r_c: 0, mcp_calls: 0, api_calls: 0 });
});

test('a wrong agent: reward 0, the forbidden call check fails, its bypass is counted and its extra issue makes R_b > 0', async (t) => {
  const { result } = await record(wrongAgent('extra'));
  t.like(result, { reward: 0, state_ok: true, required_calls_ok: true, forbidden_calls_ok: false, answer_ok: true, r_c: 1, mcp_bypass: 1 });
  t.true(result.r_b > 0);
  t.true(result.unintended.some((u) => /issues\/acme\/widgets#43: new document/.test(u)), result.unintended.join('\n'));
  const forbidden = result.checks.find((c) => c.kind === 'forbidden_call' && !c.ok)!;
  t.regex(forbidden.detail, /GET \/repos\/acme\/infra/);
});

test('an agent that says its context overflowed without calling a tool: outcome 2', async (t) => {
  const { result } = await record(wrongAgent('overflow'));
  t.like(result, { reward: 0, outcome_code: 2, mcp_calls: 0 });
});

test('an interrupted trial (Ctrl-C): the agent is stopped, the result says interrupted, the journal is readable', async (t) => {
  const abort = new AbortController();
  const started = record(wrongAgent('hang'), { signal: abort.signal });
  setTimeout(() => abort.abort(), 1500);
  const { result, journalDir } = await started;
  t.like(result, { interrupted: true, reward: 0 });
  const journal = await openJournal(journalDir);
  t.is(journal.header.scenario, 'example/github/basic');
  await journal.close();
});

test('an out folder that is not empty is refused, nothing is overwritten', async (t) => {
  const { outDir } = await record('nop');
  const error = await t.throwsAsync(recordTrial({ scenarioDir: EXAMPLE_SCENARIO, outDir, agent: 'nop', caDir: testCaDir(), endpoints: 'scenario' }));
  t.regex(error!.message, /exists and is not empty/);
});
