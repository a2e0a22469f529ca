import test from 'ava';
import { Ajv } from 'ajv';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { readSnapshots } from '../../catalog/snapshots.js';
import { startStack } from '../../catalog/stack.js';
import { openWorld } from '../../scenarios/world.js';
import type { JournalEntry, McpRecord } from '../../mocks/core/journal-format.js';
import type { World } from '../../mocks/core/world.js';
import { openJournal } from '../../replay/source.js';
import { verifyJournal } from '../../replay/verify.js';
import { gradeRequiredCalls } from '../../scenarios/grade/index.js';
import { gradeWorld } from '../../scenarios/grade-world.js';
import { alternatives } from '../../scenarios/expectations.js';
import { loadScenarioManifest, type ScenarioManifest } from '../../scenarios/manifest.js';
import { validateScenario } from '../../scenarios/validate.js';
import { tempDir } from './journal.js';
import { testCaDir } from './proxy.js';
import { LONG } from './reliability.js';

/**
 * Oracle trials (a full stack, the real MCP server, a replay) run for the first scenario of each
 * suite, by folder name, and only the first such suite of a test file, in the normal run; for
 * every scenario with TOOLBENCH_LONG_TESTS=1 (CI): with 150 scenarios even two per suite took
 * `npm test` past 15 minutes on two cores. Validity, nop and in-process near-miss checks run for
 * all in both.
 */
export const ORACLE_SAMPLE = LONG ? Infinity : 1;

/** Oracle trials registered by this test file (ava runs each file in a process of its own). */
let oracleTrials = 0;

export interface ScenarioSuite {
  /** The service (and MCP endpoint) the scenarios are about; its credential is checked. */
  service: string;
  /** Every service the scenarios name (default: just `service`), for scenarios that cross services. */
  services?: string[];
  dirs: string[];
  /** Whether the scenario's credential belongs to a user of its dataset. */
  credentialOk(world: World, credential: unknown): boolean;
  /** When given: every request the oracle's trial makes to the service is named by a handler, with one of these names. */
  operationNames?: readonly string[];
  /** The endpoints whose tools the oracle calls (default: one per service, named after it). */
  endpoints?: string[];
  /**
   * Which requests changed state (default: a successful non-GET but GraphQL queries). RPC APIs
   * that read by POST (Slack, as slack-go calls it) name their reads by operation.
   */
  isWrite?: (entry: JournalEntry) => boolean;
  /**
   * Requests the servers make to the world as they stop, after the trial was graded (default 0):
   * mongodb-mcp-server revokes its OAuth token on shutdown. They are journaled and replayed too.
   */
  shutdownRequests?: number;
}

/**
 * The checks every scenario of a service gets: it validates (manifest, dataset, instruction,
 * oracle arguments against the real server's input schemas); the nop agent scores 0; the oracle
 * (its solution replayed over MCP through the real server) scores 1 with no unintended change,
 * and the oracle's journal replays byte for byte. One world per trial, driven in process.
 */
export function scenarioSuite({ service, services = [service], dirs, credentialOk, operationNames, endpoints = services, isWrite = isRestWrite, shutdownRequests = 0 }: ScenarioSuite): Map<string, ScenarioManifest> {
  const manifests = new Map(dirs.map((dir) => [dir, loadScenarioManifest(dir)]));
  const ajv = new Ajv({ strict: false, allErrors: true, logger: false });
  // zod-to-json-schema escapes `_` in patterns (exa-mcp-server's `^agent\_run\_`), which a unicode
  // RegExp refuses; such a schema alone is compiled without the `u` flag, as its server's zod does.
  const legacyAjv = new Ajv({ strict: false, allErrors: true, logger: false, unicodeRegExp: false });
  const compile = (schema: Record<string, unknown>) => {
    try {
      return ajv.compile(schema);
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
      return legacyAjv.compile(schema);
    }
  };
  // By `endpoint/tool`.
  const snapshots = readSnapshots().filter((s) => endpoints.includes(s.endpoint));
  const argumentValidators = new Map(snapshots.flatMap((snapshot) => snapshot.tools.map((tool) =>
    // A draft 2020-12 `$schema` (Go servers and zod 4 declare it) is dropped: this Ajv checks the draft-07 subset the tools use.
    [`${snapshot.endpoint}/${tool.name}`, compile({ ...withoutDialect(tool.inputSchema), additionalProperties: false })] as const)));
  // Tools that declare themselves read-only (HubSpot's search is a POST): their calls are no writes to bypass.
  const readOnlyTools = new Set(snapshots.flatMap((snapshot) => snapshot.tools
    .filter((tool) => (tool.annotations as { readOnlyHint?: boolean } | undefined)?.readOnlyHint === true)
    .map((tool) => `${snapshot.endpoint}/${tool.name}`)));

  for (const dir of dirs) {
    const manifest = manifests.get(dir)!;

    test(`${manifest.id}: valid scenario (manifest, dataset, instruction, credential, oracle arguments)`, async (t) => {
      t.deepEqual(await validateScenario(dir), []);
      t.is(manifest.id, relative('scenarios', dir).split('/').join('/'), 'the id is the folder');
      t.is(manifest.group as string, manifest.id.split('/')[0] ?? '');
      t.deepEqual(manifest.services, services);
      t.true(readFileSync(join(dir, 'instruction.md'), 'utf8').trim().length > 40, 'an instruction a human would give');
      t.true(manifest.oracle.calls.length > 0, 'an oracle solution');
      t.true(manifest.expect.forbidden_calls.length > 0, 'forbidden calls');
      t.true(manifest.expect.required_calls.length > 0, 'required calls');
      const { world } = await openWorld({ scenarioDir: dir });
      try {
        t.true(credentialOk(world, manifest.credentials[service]), 'the credential belongs to a dataset user');
      } finally {
        await world.journal.close();
      }
      for (const [i, call] of manifest.oracle.calls.entries()) {
        const validate = argumentValidators.get(`${call.endpoint}/${call.tool}`);
        t.truthy(validate, `oracle.calls[${i}]: ${call.endpoint} has a tool ${call.tool}`);
        t.true(validate!(call.arguments), `oracle.calls[${i}] (${call.tool}): ${ajv.errorsText(validate!.errors)}`);
      }
    });

    test(`${manifest.id}: nop scores 0`, async (t) => {
      const opened = await openWorld({ scenarioDir: dir });
      try {
        const result = await gradeWorld(opened, {
          agent: 'nop', answer: null, output: '', exit: { code: 0, signal: null }, interrupted: false,
        });
        t.is(result.reward, 0);
        t.like(result, { api_calls: 0, r_b: 0, forbidden_calls_ok: true });
      } finally {
        await opened.world.journal.close();
      }
    });

    const sampled = [...dirs].sort().indexOf(dir) < ORACLE_SAMPLE && oracleTrials++ < ORACLE_SAMPLE;
    (sampled ? test : test.skip)(`${manifest.id}: oracle scores 1 with R_b 0, and its journal replays identically`, async (t) => {
      const journalDir = join(tempDir('toolbench-scenario-'), 'journal');
      const stack = await startStack({ scenarioDir: dir, journalDir, ports: 'ephemeral', caDir: testCaDir(), endpoints: true });
      let result;
      try {
        const failures = await runOracle(manifest, stack.addresses().mcp);
        t.deepEqual(failures, [], 'every oracle call succeeds');
        result = await gradeWorld(stack, { agent: 'oracle', answer: manifest.oracle.answer, output: '', exit: { code: 0, signal: null }, interrupted: false });
      } finally {
        await stack.close();
      }
      t.is(result.reward, 1, result.checks.filter((c) => !c.ok).map((c) => `${c.kind}: ${c.description} (${c.detail})`).join('\n'));
      t.deepEqual(result.unintended, []);
      t.like(result, { r_c: 1, r_b: 0, mcp_bypass: 0 });
      const report = await verifyJournal(journalDir);
      t.is(report.verdict, 'identical', JSON.stringify(report.firstDivergence));

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
      // Everything the trial made was graded, but for what arrived after: the requests a server
      // makes as it stops, and telemetry a server sends after its call returned (Exa reports each
      // call to api.agnost.ai in the background; under load that lands after grading).
      t.is(entries.length, report.entries);
      const lateNoise = entries.slice(result.world_requests).filter((e) => e.kind === 'noise').length;
      t.is(report.entries - lateNoise, result.world_requests + shutdownRequests);
      const http = entries.filter((e) => e.kind === 'http');
      if (operationNames) {
        const known = new Set(operationNames);
        const unnamed = http.filter((e) => e.service === service && !(e.operation?.via === 'handler' && known.has(e.operation.name)));
        t.deepEqual(unnamed.map((e) => `#${e.seq} ${e.method} ${e.target}: ${JSON.stringify(e.operation)}`), [], `every ${service} request named by a handler`);
        t.true(http.some((e) => e.service === service));
      }
      const readOnly = (e: JournalEntry) => readOnlyTools.has(`${e.attribution?.endpoint ?? ''}/${e.attribution?.tool ?? ''}`);
      for (const callId of [...new Set(http.filter((e) => isWrite(e) && !readOnly(e)).map((e) => e.attribution?.callId ?? null))]) {
        const bypassed = http.map((e) => (e.attribution?.callId === callId
          ? { ...e, attribution: { kind: 'direct' as const, client: null, endpoint: null, tool: null, callId: null } } : e));
        const withoutCall = mcp.filter((r) => !(r.kind === 'call' && r.callId === callId));
        const checks = gradeRequiredCalls(manifest.expect.required_calls, bypassed, withoutCall);
        const writes = http.filter((e) => e.attribution?.callId === callId && isWrite(e)).map((e) => `#${e.seq} ${e.method} ${e.target} ${e.operation?.name ?? ''}`);
        t.false(checks.every((c) => c.ok), `the writes of one tool call made directly (${writes.join(', ')}) still pass every required call`);
      }
    });
  }
  return manifests;
}

/**
 * The checks over a service's whole set of scenarios (`manifests`, from scenarioSuite): at least
 * five, each with its own seed and epoch, required calls that name the operation and the
 * service's MCP tool, and a non-trivial world (at least `min` documents in `collection`).
 */
/** A collection a scenario's world must hold at least `min` documents of, to be worth testing. */
interface NonTrivial { collection: string; min: number; what: string }

export function scenarioSetSuite(label: string, service: string, manifests: Map<string, ScenarioManifest>, nonTrivial: NonTrivial | NonTrivial[]): void {
  const sizes = Array.isArray(nonTrivial) ? nonTrivial : [nonTrivial];
  test(`at least 5 ${label} scenarios, each with its own seed and epoch, non-trivial state, writes required through MCP by operation`, async (t) => {
    t.true(manifests.size >= 5, `${manifests.size} scenarios`);
    const seeds = [...manifests.values()].map((m) => m.seed);
    const epochs = [...manifests.values()].map((m) => m.epoch);
    t.is(new Set(seeds).size, seeds.length, `seeds ${seeds.join(', ')}`);
    t.is(new Set(epochs).size, epochs.length, `epochs ${epochs.join(', ')}`);
    for (const [dir, manifest] of manifests) {
      // Every alternative of an any_of too (a page trashed by in_trash or by archived).
      t.true(manifest.expect.required_calls.flatMap(alternatives).every((call) => call.operation !== undefined && call.tool?.endpoint === service), `${manifest.id}: required calls name the operation and the MCP tool`);
      const { world } = await openWorld({ scenarioDir: dir });
      try {
        for (const size of sizes) t.true(Object.keys(world.state([service])[service]![size.collection] ?? {}).length >= size.min, `${manifest.id}: ${size.what}`);
      } finally {
        await world.journal.close();
      }
    }
  });
}

/**
 * A tool's input schema without its `$schema` dialect: servers built on zod 4 declare draft
 * 2020-12, which this draft-07 Ajv does not load; the keywords tool arguments use are the same.
 */
function withoutDialect(schema: unknown): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = schema as Record<string, unknown>;
  return rest;
}

/** A request that changed state: a successful non-GET, except GraphQL queries (which are POSTs too). */
export function isRestWrite(e: JournalEntry): boolean {
  if (e.operation?.name.startsWith('Query.')) return false;
  return !['GET', 'HEAD', 'OPTIONS'].includes(e.method) && e.response.status < 300;
}

/** The oracle agent, in process: each solution call over MCP, one after another; the failures. */
async function runOracle(manifest: ScenarioManifest, endpoints: Record<string, string>): Promise<string[]> {
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
 * Grades a trial that made no MCP call: a fresh world of `dir`; `act` (a near miss made straight
 * through the API, in process) when given; then `answer` (default: the oracle's) as the final
 * answer. The scenario tests' near-miss checks share it.
 */
export async function gradeNearMiss(dir: string, options: { answer?: string | null; act?: (world: World, manifest: ScenarioManifest) => Promise<void> } = {}) {
  const manifest = loadScenarioManifest(dir);
  const opened = await openWorld({ scenarioDir: dir });
  try {
    await options.act?.(opened.world, manifest);
    const answer = options.answer === undefined ? manifest.oracle.answer ?? null : options.answer;
    return await gradeWorld(opened, { agent: 'near-miss', answer, output: '', exit: { code: 0, signal: null }, interrupted: false });
  } finally {
    await opened.world.journal.close();
  }
}
