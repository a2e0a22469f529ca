import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { stringify } from 'smol-toml';
import { loadCatalog, type LoadedCatalog } from '../catalog/load.js';
import { TOOLBENCH_ROOT } from '../catalog/paths.js';
import { ToolbenchError } from '../mocks/core/errors.js';
import { TOOLBENCH_VERSION } from '../mocks/version.js';
import { loadScenarioManifest, type ScenarioManifest } from './manifest.js';

/** Where toolbench lives inside a task's container, and where its logs go (Harbor's /logs). */
const IN_CONTAINER = '/opt/toolbench';
const ADMIN = 'http://127.0.0.1:8100';

/** Toolbench's own source folders copied into each task's build context (tests and runs are not). */
const SOURCE_DIRS = ['bin', 'catalog', 'certs', 'mocks', 'proxy', 'replay'];
const SOURCE_FILES = ['package.json', 'package-lock.json', 'tsconfig.json'];

export function taskName(manifest: ScenarioManifest): string {
  return manifest.id.replaceAll('/', '-');
}

/** The Harbor `task.toml` of a scenario: its MCP servers, the model API allowlist, the environment. */
export function taskToml(manifest: ScenarioManifest, catalog: LoadedCatalog): string {
  const endpoints = catalog.catalog.endpoints.filter((e) => manifest.services.includes(e.service));
  const scenarioInContainer = `${IN_CONTAINER}/scenarios/${manifest.id}`;
  return stringify({
    task: {
      name: `toolbench/${taskName(manifest)}`,
      description: manifest.description || manifest.id,
      keywords: ['toolbench', 'mcp', manifest.group, ...manifest.services],
    },
    metadata: { scenario: manifest.id, group: manifest.group, seed: manifest.seed, toolbench_version: TOOLBENCH_VERSION, catalog_hash: catalog.hash },
    agent: { timeout_sec: 1800, network_mode: 'allowlist', allowed_hosts: catalog.catalog.passthrough },
    verifier: { timeout_sec: 300, network_mode: 'no-network' },
    environment: {
      cpus: 2,
      memory_mb: 4096,
      env: {
        TOOLBENCH_SCENARIO: scenarioInContainer,
        TOOLBENCH_ANSWER_FILE: '/logs/agent/answer.txt',
        TOOLBENCH_ADMIN: ADMIN,
      },
      healthcheck: { command: `curl -sf ${ADMIN}/_bench/health`, interval_sec: 2, retries: 30 },
      mcp_servers: endpoints.map((e) => ({ name: e.id, transport: 'streamable-http', url: `http://127.0.0.1:${e.bridge_port}/mcp` })),
    },
  }) + '\n';
}

function dockerfile(manifest: ScenarioManifest): string {
  return `# The world for ${manifest.id}: toolbench with the scenario's world, proxy, pinned MCP servers
# and their Streamable HTTP bridges on the catalog's ports. Built offline from this context.
FROM node:20-bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends curl ca-certificates && rm -rf /var/lib/apt/lists/*
COPY toolbench ${IN_CONTAINER}
WORKDIR ${IN_CONTAINER}
RUN npm ci --no-audit --no-fund
COPY start-world.sh /usr/local/bin/start-world
RUN chmod +x /usr/local/bin/start-world
CMD ["start-world"]
`;
}

function startWorld(manifest: ScenarioManifest): string {
  return `#!/bin/sh
# Serves the scenario's world with its MCP endpoints; the journal goes to /logs/world.
set -e
mkdir -p /logs/world
exec node ${IN_CONTAINER}/bin/toolbench.js world --scenario ${IN_CONTAINER}/scenarios/${manifest.id} \\
  --mcp --journal /logs/world/journal-$(date +%s) --admin-token-file /logs/world/admin-token
`;
}

function testSh(): string {
  return `#!/bin/sh
# Grades the trial from the live world (state, journal, answer): writes reward.txt only.
set -e
mkdir -p /logs/verifier
node ${IN_CONTAINER}/bin/toolbench.js grade --admin "\${TOOLBENCH_ADMIN:-${ADMIN}}" --admin-token-file /logs/world/admin-token \\
  --answer "\${TOOLBENCH_ANSWER_FILE:-/logs/agent/answer.txt}" --out /logs/verifier/result.json --reward-file /logs/verifier/reward.txt
`;
}

function solveSh(manifest: ScenarioManifest, catalog: LoadedCatalog): string {
  const servers = Object.fromEntries(catalog.catalog.endpoints.filter((e) => manifest.services.includes(e.service))
    .map((e) => [e.id, { type: 'http', url: `http://127.0.0.1:${e.bridge_port}/mcp` }]));
  return `#!/bin/sh
# The oracle: replays the scenario's solution over MCP and writes its answer.
set -e
mkdir -p /logs/agent
cat > /tmp/toolbench-mcp.json <<'JSON'
${JSON.stringify({ mcpServers: servers }, null, 2)}
JSON
TOOLBENCH_MCP_CONFIG=/tmp/toolbench-mcp.json TOOLBENCH_SCENARIO=${IN_CONTAINER}/scenarios/${manifest.id} \\
TOOLBENCH_ANSWER_FILE="\${TOOLBENCH_ANSWER_FILE:-/logs/agent/answer.txt}" node ${IN_CONTAINER}/dist/scenarios/agents/oracle.js
`;
}

function copyToolbench(into: string, scenarioDir: string, manifest: ScenarioManifest): void {
  const skip = (path: string) => /(^|\/)(node_modules|dist|snapshots-tmp)(\/|$)/.test(path);
  for (const dir of SOURCE_DIRS) cpSync(join(TOOLBENCH_ROOT, dir), join(into, dir), { recursive: true, filter: (src) => !skip(relative(TOOLBENCH_ROOT, src)) });
  for (const file of SOURCE_FILES) cpSync(join(TOOLBENCH_ROOT, file), join(into, file));
  // The scenario code (loader, grader, agents) without the other scenarios' data.
  const scenarios = join(TOOLBENCH_ROOT, 'scenarios');
  for (const name of readdirSync(scenarios)) {
    const path = join(scenarios, name);
    if (name.endsWith('.ts') || (statSync(path).isDirectory() && ['grade', 'agents'].includes(name))) cpSync(path, join(into, 'scenarios', name), { recursive: true });
  }
  cpSync(scenarioDir, join(into, 'scenarios', manifest.id), { recursive: true });
}

function write(path: string, text: string, executable = false): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  if (executable) chmodSync(path, 0o755);
}

/** One Harbor task folder per scenario under `outDir`; returns the task folders. */
export function generateTasks(scenarioDirs: readonly string[], outDir: string, catalog: LoadedCatalog = loadCatalog()): string[] {
  if (scenarioDirs.length === 0) throw new ToolbenchError('TB_ERR_USAGE', 'no scenarios to turn into tasks');
  return scenarioDirs.map((dir) => {
    const manifest = loadScenarioManifest(dir);
    const task = join(resolve(outDir), taskName(manifest));
    if (existsSync(task)) throw new ToolbenchError('TB_ERR_USAGE', `task folder ${task} exists; taskgen writes into a new folder`);
    write(join(task, 'task.toml'), taskToml(manifest, catalog));
    cpSync(join(dir, 'instruction.md'), join(task, 'instruction.md'));
    write(join(task, 'environment', 'Dockerfile'), dockerfile(manifest));
    write(join(task, 'environment', 'start-world.sh'), startWorld(manifest), true);
    copyToolbench(join(task, 'environment', 'toolbench'), dir, manifest);
    write(join(task, 'tests', 'test.sh'), testSh(), true);
    write(join(task, 'solution', 'solve.sh'), solveSh(manifest, catalog), true);
    return task;
  });
}
