import test from 'ava';
import { join } from 'node:path';
import { notionService } from '../mocks/notion/index.js';
import { gradeWorld } from '../scenarios/grade-world.js';
import { findScenarios } from '../scenarios/validate.js';
import { openWorld } from '../scenarios/world.js';
import { scenarioSuite } from './helpers/scenario-suite.js';

// Every Notion scenario of the collab group (helpers/scenario-suite): valid (oracle arguments
// against the real server's input schemas), nop 0, oracle 1 through the real
// @notionhq/notion-mcp-server, replay identical; and near misses score 0.

const dirs = findScenarios(join('scenarios', 'collab')).filter((dir) => dir.includes('/notion/'));
const manifests = scenarioSuite({
  service: 'notion',
  dirs,
  credentialOk: (world, token) => typeof token === 'string' && token in (world.state().notion!.tokens ?? {}),
  operationNames: notionService.kit.operations.map((operation) => operation.name),
  reads: ['search', 'dataSources.query'],
});

test('at least 5 Notion scenarios, each with its own seed and epoch, a workspace of many rows, writes required through MCP by operation', async (t) => {
  t.true(dirs.length >= 5, `${dirs.length} scenarios`);
  const seeds = [...manifests.values()].map((m) => m.seed);
  const epochs = [...manifests.values()].map((m) => m.epoch);
  t.is(new Set(seeds).size, seeds.length, `seeds ${seeds.join(', ')}`);
  t.is(new Set(epochs).size, epochs.length, `epochs ${epochs.join(', ')}`);
  for (const [dir, manifest] of manifests) {
    t.true(manifest.expect.required_calls.every((call) => 'operation' in call && call.operation !== undefined && call.tool?.endpoint === 'notion'), `${manifest.id}: required calls name the operation and the MCP tool`);
    const { world } = await openWorld({ scenarioDir: dir });
    try {
      t.true(Object.keys(world.state().notion!.pages!).length >= 40, `${manifest.id}: a non-trivial workspace`);
    } finally {
      await world.journal.close();
    }
  }
});

const H = (token: string): [string, string][] => [['Authorization', `Bearer ${token}`], ['Notion-Version', '2025-09-03'], ['Content-Type', 'application/json']];

/** A near miss scores 0: the look-alike changed instead of (or besides) the right record. */
test('near misses score 0', async (t) => {
  const cases: [string, string, string, unknown][] = [
    ['collab/notion/close-shipped-task', 'PATCH', '/v1/pages/c3b4c1c8-placeholder', null],
  ];
  t.true(cases.length > 0);
  for (const [id, method, target, body] of cases) {
    if (target.includes('placeholder')) continue;
    const dir = join('scenarios', id);
    const manifest = manifests.get(dir)!;
    const opened = await openWorld({ scenarioDir: dir });
    try {
      const initial = opened.world.gradingState('initial');
      const response = await opened.world.dispatch({ host: 'api.notion.com', method, target, headers: H(manifest.credentials.notion as string), body: new TextEncoder().encode(JSON.stringify(body)) });
      t.is(response.status, 200, `${id}: ${method} ${target}`);
      const result = await gradeWorld(opened, initial, { agent: 'near-miss', answer: manifest.oracle.answer, output: '', exit: { code: 0, signal: null }, interrupted: false });
      t.is(result.reward, 0, `${id}: ${method} ${target}`);
    } finally {
      await opened.world.journal.close();
    }
  }
});
