import type { TestFn } from 'ava';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startStack, type Stack } from '../../catalog/stack.js';
import type { Journal } from '../../mocks/core/journal.js';
import type { JournalEntry, McpRecord } from '../../mocks/core/journal-format.js';
import { testCaDir } from './proxy.js';

export interface McpStack {
  /** The running stack (world, proxy, the scenario's endpoints). */
  stack(): Stack;
  /** An MCP client connected to `endpoint`'s bridge. */
  client(): Client;
  /** Every journal entry so far. */
  entries(): Promise<JournalEntry[]>;
}

/**
 * One stack per test file: `scenario`'s world with its endpoints started, and an MCP client on
 * `endpoint`, set up before the tests and closed after them.
 */
export function useMcpStack(test: TestFn, scenario: string, endpoint: string): McpStack {
  let stack: Stack | undefined;
  let client: Client | undefined;
  test.before(async () => {
    stack = await startStack({ scenarioDir: scenario, ports: 'ephemeral', caDir: testCaDir(), endpoints: true });
    client = new Client({ name: 'test-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(stack.addresses().mcp[endpoint]!)));
  });
  test.after.always(async () => {
    await client?.close();
    await stack?.close();
  });
  return {
    stack: () => stack!,
    client: () => client!,
    entries: () => journalEntries(stack!.world.journal),
  };
}

/** Every entry of a journal so far (flushed first). */
export async function journalEntries(journal: Journal): Promise<JournalEntry[]> {
  await journal.flush();
  const out: JournalEntry[] = [];
  for await (const entry of journal.entries()) out.push(entry);
  return out;
}

/** Every MCP record of a journal so far (flushed first). */
export async function journalMcpRecords(journal: Journal): Promise<McpRecord[]> {
  await journal.flush();
  const out: McpRecord[] = [];
  for await (const record of journal.mcpRecords()) out.push(record);
  return out;
}
