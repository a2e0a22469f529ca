import test from 'ava';
import { join } from 'node:path';
import { openWorld } from '../scenarios/world.js';
import { gradeWorld } from '../scenarios/grade-world.js';
import { findScenarios } from '../scenarios/validate.js';
import { googleService } from '../mocks/google/index.js';
import { scenarioSuite } from './helpers/scenario-suite.js';

// Every Google Workspace scenario (collab, and the business group's sheet of orders) through
// helpers/scenario-suite: valid (oracle arguments against the real server's input schemas),
// nop 0, oracle 1 with R_b 0 through the real @piotr-agier/google-drive-mcp, replay identical,
// bypassed writes fail; and near misses score 0.

const dirs = [...findScenarios(join('scenarios', 'collab')), ...findScenarios(join('scenarios', 'business'))].filter((dir) => dir.includes('/google/'));
const tokensOf = (state: Record<string, Record<string, unknown>>) => Object.keys(state.tokens ?? {});
const manifests = scenarioSuite({
  service: 'google',
  dirs,
  credentialOk: (world, token) => typeof token === 'string' && tokensOf(world.state(['google']).google!).includes(token),
  operationNames: googleService.kit.operations.map((operation) => operation.name),
});

test('at least 5 Google scenarios, each with its own seed and epoch, a non-trivial Drive, writes required through MCP by operation', async (t) => {
  t.true(dirs.length >= 5, `${dirs.length} scenarios`);
  t.true(dirs.some((dir) => dir.includes('/business/google/')), 'the business group has the sheet of orders');
  const seeds = [...manifests.values()].map((m) => m.seed);
  const epochs = [...manifests.values()].map((m) => m.epoch);
  t.is(new Set(seeds).size, seeds.length, `seeds ${seeds.join(', ')}`);
  t.is(new Set(epochs).size, epochs.length, `epochs ${epochs.join(', ')}`);
  for (const [dir, manifest] of manifests) {
    t.true(manifest.expect.required_calls.every((call) => ('operation' in call && call.operation !== undefined && call.tool?.endpoint === 'google')
      || ('any_of' in call && (call.any_of as { tool?: { endpoint?: string } }[]).every((alt) => alt.tool?.endpoint === 'google'))), `${manifest.id}: required calls name the operation and the MCP endpoint`);
    const { world } = await openWorld({ scenarioDir: dir });
    try {
      t.true(Object.keys(world.state(['google']).google!.files!).length >= 25, `${manifest.id}: a non-trivial Drive`);
    } finally {
      await world.journal.close();
    }
  }
});

/** Near misses score 0: the look-alike shared, the archive edited, the 2024 order shipped. */
test('near misses score 0: a write to the look-alike is forbidden and leaves the expected state missing', async (t) => {
  // `{FILE}` in the target is the look-alike's ID, found by its name.
  const cases: { id: string; file: string; host: string; method: string; target: string; body: unknown }[] = [
    { id: 'collab/google/share-budget-sheet', file: 'FY25 Marketing Budget (old copy)', host: 'www.googleapis.com', method: 'POST', target: '/drive/v3/files/{FILE}/permissions', body: { type: 'user', role: 'commenter', emailAddress: 'finance@brightwave.example' } },
    { id: 'collab/google/onboarding-vpn-host', file: 'Engineering onboarding guide (2023 archive)', host: 'docs.googleapis.com', method: 'POST', target: '/v1/documents/{FILE}:batchUpdate', body: { requests: [{ replaceAllText: { containsText: { text: 'vpn.old-northwind.example', matchCase: true }, replaceText: 'vpn.northwind.example' } }] } },
    { id: 'business/google/orders-sheet', file: 'Orders 2024', host: 'sheets.googleapis.com', method: 'PUT', target: '/v4/spreadsheets/{FILE}/values/March!G15?valueInputOption=RAW', body: { values: [['shipped']] } },
  ];
  for (const c of cases) {
    const dir = join('scenarios', c.id);
    const manifest = manifests.get(dir)!;
    const opened = await openWorld({ scenarioDir: dir });
    try {
      const files = opened.world.state(['google']).google!.files as Record<string, { name: string }>;
      const target = c.target.replace('{FILE}', Object.entries(files).find(([, f]) => f.name === c.file)![0]);
      const response = await opened.world.dispatch({ host: c.host, method: c.method, target, body: new TextEncoder().encode(JSON.stringify(c.body)),
        headers: [['Authorization', `Bearer ${manifest.credentials.google as string}`], ['Content-Type', 'application/json']] });
      t.is(response.status, 200, `${c.id}: ${target}`);
      const result = await gradeWorld(opened, { agent: 'near-miss', answer: manifest.oracle.answer, output: '', exit: { code: 0, signal: null }, interrupted: false });
      t.is(result.reward, 0, c.id);
      t.false(result.forbidden_calls_ok, c.id);
      t.false(result.state_ok && result.required_calls_ok, `${c.id}: the task itself is not done`);
    } finally {
      await opened.world.journal.close();
    }
  }
});
