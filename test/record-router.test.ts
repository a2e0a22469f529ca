import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { McpRecord } from '../mocks/core/journal-format.js';
import { openJournal } from '../replay/source.js';
import { verifyJournal } from '../replay/verify.js';
import { ClaudeMcpConfigSchema, GenericMcpConfigSchema } from '../scenarios/mcp-config.js';
import { recordTrial } from '../scenarios/record.js';
import { tempDir } from './helpers/journal.js';
import { testCaDir } from './helpers/proxy.js';
import { EXAMPLE_SCENARIO } from './helpers/world.js';

// The router arm end to end: `record --tools router`, the built-in oracle and nop as child
// processes, on scenarios of different services (GitHub; Notion; Zendesk with Stripe).
const record = (scenarioDir: string, agent: 'oracle' | 'nop') =>
  recordTrial({ scenarioDir, outDir: join(tempDir('toolbench-router-arm-'), 'run'), agent, caDir: testCaDir(), timeoutMs: 120_000, tools: 'router', endpoints: 'scenario' });

async function mcpRecords(journalDir: string): Promise<McpRecord[]> {
  const journal = await openJournal(journalDir);
  try {
    const out: McpRecord[] = [];
    for await (const record of journal.mcpRecords()) out.push(record);
    return out;
  } finally {
    await journal.close();
  }
}

for (const scenario of [EXAMPLE_SCENARIO, 'scenarios/collab/notion/close-shipped-task', 'scenarios/business/cross/zendesk-refund-disputed-charge']) {
  test(`${scenario}: the oracle scores 1 through the router alone, every call forwarded, and the journal replays identically`, async (t) => {
    const { result, outDir, journalDir } = await record(scenario, 'oracle');
    t.is(result.reward, 1, result.checks.filter((c) => !c.ok).map((c) => `${c.kind}: ${c.description} (${c.detail})`).join('\n'));
    t.like(result, { mcp_bypass: 0, r_b: 0 });
    const claude = ClaudeMcpConfigSchema.parse(JSON.parse(readFileSync(join(outDir, 'mcp.json'), 'utf8')));
    t.deepEqual(Object.keys(claude.mcpServers), ['router'], 'the agent is given the router only');
    t.deepEqual(GenericMcpConfigSchema.parse(JSON.parse(readFileSync(join(outDir, 'mcp.generic.json'), 'utf8'))).endpoints.map((e) => e.name), ['router']);
    const calls = (await mcpRecords(journalDir)).filter((r) => r.kind === 'call');
    t.true(calls.length > 0);
    t.deepEqual(calls.filter((r) => r.via !== 'router').map((r) => `${r.endpoint}.${r.tool}`), [], 'every endpoint call came through the router');
    t.false(calls.some((r) => r.endpoint === 'router'), 'the oracle needs no search and is refused nothing');
    const report = await verifyJournal(journalDir);
    t.is(report.verdict, 'identical', JSON.stringify(report.firstDivergence));
  });
}

test('the nop agent scores 0 in the router arm', async (t) => {
  const { result } = await record('scenarios/business/cross/zendesk-refund-disputed-charge', 'nop');
  t.like(result, { reward: 0, mcp_calls: 0, api_calls: 0 });
});
