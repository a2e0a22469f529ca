import test, { type SerialFn } from 'ava';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startStack } from '../../catalog/stack.js';
import { gradeWorld } from '../../scenarios/grade-world.js';
import type { ScenarioManifest } from '../../scenarios/manifest.js';
import type { ServiceStates } from '../../scenarios/grade/state.js';
import { testCaDir } from './proxy.js';
import { LONG } from './reliability.js';

export type OracleCall = ScenarioManifest['oracle']['calls'][number];

/**
 * A near-miss agent over MCP: the oracle's calls with `change` applied to each (return null to
 * drop a call, an array to make several), replayed through the scenario's real MCP servers in a
 * fresh world (each must succeed); then the grade, with `answer` (default: the oracle's) and the
 * final state, so a test can show the wrong write really happened.
 */
export async function nearMissOverMcp(dir: string, manifest: ScenarioManifest, change: (call: OracleCall) => OracleCall | OracleCall[] | null, answer?: string) {
  const calls = manifest.oracle.calls.flatMap((call) => change(call) ?? []);
  const stack = await startStack({ scenarioDir: dir, ports: 'ephemeral', caDir: testCaDir(), endpoints: true });
  const clients = new Map<string, Client>();
  try {
    for (const call of calls) {
      let client = clients.get(call.endpoint);
      if (!client) {
        client = new Client({ name: 'near-miss-agent', version: '1.0.0' });
        await client.connect(new StreamableHTTPClientTransport(new URL(stack.addresses().mcp[call.endpoint]!)));
        clients.set(call.endpoint, client);
      }
      const result = await client.callTool({ name: call.tool, arguments: call.arguments });
      if (result.isError) throw new Error(`${call.tool}: ${JSON.stringify(result.content)}`);
    }
    const result = await gradeWorld(stack, { agent: 'near-miss', answer: answer ?? manifest.oracle.answer ?? null, output: '', exit: { code: 0, signal: null }, interrupted: false });
    await stack.world.importServices();
    const state: ServiceStates = stack.world.state();
    return { result, state, failed: [...new Set(result.checks.filter((c) => !c.ok).map((c) => c.description.split(": ")[0]!))] };
  } finally {
    for (const client of clients.values()) await client.close();
    await stack.close();
  }
}

/**
 * Near misses over MCP start the scenario's real servers each (tens of seconds on two busy
 * cores): the normal run keeps the first one each test file registers, and
 * TOOLBENCH_LONG_TESTS=1 (CI) runs every one. Each cross file still gets its oracle trials and
 * one near miss through its real servers in the normal run.
 */
export const NEAR_MISS_SAMPLE = LONG ? Infinity : 1;

/** Near misses registered by this test file (ava runs each file in a process of its own). */
let registered = 0;

/**
 * ava's `test` (or `on`, e.g. test.serial) for a near miss over MCP, or its `skip` once the file's
 * NEAR_MISS_SAMPLE are registered: `nearMissTest()(title, async (t) => ...)`.
 */
export function nearMissTest(on: SerialFn = test): SerialFn['skip'] {
  return registered++ < NEAR_MISS_SAMPLE ? on : on.skip;
}
