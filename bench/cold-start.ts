/**
 * World cold start to ready, in a fresh process: every catalog service loaded from the
 * scenario, its plain port, the admin API and the TLS proxy listening (`startStack` without MCP
 * endpoints, journal in memory as `toolbench world` defaults to). The CA directory is warm (made
 * by bench/run.ts), as on every start but a machine's first. Times are ms since the process
 * started (Node's time origin): `bootMs` is Node and tsx until this script runs.
 *
 *   node --import tsx bench/cold-start.ts --scenario DIR --ca-dir DIR
 */
const bootMs = performance.now();
const { parseArgs } = await import('node:util');
const { values } = parseArgs({ options: { scenario: { type: 'string', default: 'scenarios/example/github/basic' }, 'ca-dir': { type: 'string' } } });
const { startStack } = await import('../catalog/stack.js');
const importedMs = performance.now();
const stack = await startStack({ scenarioDir: values.scenario!, ports: 'ephemeral', endpoints: false, caDir: values['ca-dir'] });
const readyMs = performance.now();
const services = stack.world.serviceIds.length;
await stack.close();
process.stdout.write(JSON.stringify({ totalMs: readyMs, bootMs, importMs: importedMs - bootMs, startMs: readyMs - importedMs, services }) + '\n');
