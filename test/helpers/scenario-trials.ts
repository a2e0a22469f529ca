import { join } from 'node:path';
import type { TestFn } from 'ava';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startStack } from '../../catalog/stack.js';
import { openWorld } from '../../mocks/build.js';
import type { JournalEntry, McpRecord } from '../../mocks/core/journal-format.js';
import { openJournal } from '../../replay/source.js';
import { verifyJournal } from '../../replay/verify.js';
import { gradeRequiredCalls } from '../../scenarios/grade/index.js';
import { gradeWorld } from '../../scenarios/grade-world.js';
import type { ScenarioManifest } from '../../scenarios/manifest.js';
import { tempDir } from './journal.js';
import { testCaDir } from './proxy.js';

/** The oracle agent, in process: each solution call over MCP, one after another; the failures. */
export async function runOracle(manifest: ScenarioManifest, endpoints: Record<string, string>): Promise<string[]> {
  const clients = new Map<string, Client>();
  const failures: string[] = [];
  try {
    for (const [i, call] of manifest.oracle.calls.entries()) {
      let client = clients.get(call.endpoint);
      if (!client) {
        client = new Client({ name: 'toolbench-oracle-test', version: '1.0.0' });
        await client.connect(new StreamableHTTPClientTransport(new URL(endpoints[call.endpoint]!)));
        clients.set(call.endpoint, client);
      }
      const result = await client.callTool({ name: call.tool, arguments: call.arguments });
      if (result.isError) {
        failures.push(`oracle.calls[${i}] ${call.tool}: ${JSON.stringify(result.content)}`);
        break;
      }
    }
  } finally {
    for (const client of clients.values()) await client.close();
  }
  return failures;
}

/**
 * The two trials every scenario test runs: the nop agent scores 0 without calls or changes; the
 * oracle (its solution over MCP through the real servers) scores 1 with no unintended change, and
 * its journal replays byte for byte.
 */
export function trialTests(test: TestFn, dir: string, manifest: ScenarioManifest): void {
  test(`${manifest.id}: nop scores 0`, async (t) => {
    const opened = await openWorld({ scenarioDir: dir });
    try {
      const result = await gradeWorld(opened, opened.world.gradingState('initial'), {
        agent: 'nop', answer: null, output: '', exit: { code: 0, signal: null }, interrupted: false,
      });
      t.is(result.reward, 0);
      t.like(result, { api_calls: 0, r_b: 0, forbidden_calls_ok: true });
    } finally {
      await opened.world.journal.close();
    }
  });

  test(`${manifest.id}: oracle scores 1 with R_b 0, and its journal replays identically`, async (t) => {
    const journalDir = join(tempDir('toolbench-scenario-'), 'journal');
    const stack = await startStack({ scenarioDir: dir, journalDir, ports: 'ephemeral', caDir: testCaDir(), endpoints: true });
    let result;
    try {
      const initial = stack.world.gradingState('initial');
      t.deepEqual(await runOracle(manifest, stack.addresses().mcp), [], 'every oracle call succeeds');
      result = await gradeWorld(stack, initial, { agent: 'oracle', answer: manifest.oracle.answer, output: '', exit: { code: 0, signal: null }, interrupted: false });
    } finally {
      await stack.close();
    }
    t.is(result.reward, 1, result.checks.filter((c) => !c.ok).map((c) => `${c.kind}: ${c.description} (${c.detail})`).join('\n'));
    t.like(result, { r_c: 1, r_b: 0, mcp_bypass: 0 });
    t.deepEqual(result.unintended, []);
    const report = await verifyJournal(journalDir);
    t.is(report.verdict, 'identical', JSON.stringify(report.firstDivergence));
    t.is(report.entries, result.world_requests);

    // A bypassed write must not pass: had any one of the oracle's state-changing tool calls been
    // made straight through the API instead (its requests attributed `direct`, the MCP call never
    // made), the required calls would fail.
    const journal = await openJournal(journalDir);
    const entries: JournalEntry[] = [];
    const mcp: McpRecord[] = [];
    try {
      for await (const entry of journal.entries()) entries.push(entry);
      for await (const record of journal.mcpRecords()) mcp.push(record);
    } finally {
      await journal.close();
    }
    const http = entries.filter((e) => e.kind === 'http');
    const isWrite = (e: JournalEntry) => !['GET', 'HEAD', 'OPTIONS'].includes(e.method) && e.response.status < 300;
    const writingCalls = [...new Set(http.filter(isWrite).map((e) => e.attribution?.callId ?? null))];
    for (const callId of writingCalls) {
      const bypassed = http.map((e) => (e.attribution?.callId === callId
        ? { ...e, attribution: { kind: 'direct' as const, client: null, endpoint: null, tool: null, callId: null } } : e));
      const withoutCall = mcp.filter((r) => !(r.kind === 'call' && r.callId === callId));
      const checks = gradeRequiredCalls(manifest.expect.required_calls, bypassed, withoutCall);
      const writes = http.filter((e) => e.attribution?.callId === callId && isWrite(e)).map((e) => `#${e.seq} ${e.method} ${e.target}`);
      t.false(checks.every((c) => c.ok), `the writes of one tool call made directly (${writes.join(', ')}) still pass every required call`);
    }
  });
}
