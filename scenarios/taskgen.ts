import { randomBytes } from 'node:crypto';
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { stringify } from 'smol-toml';
import { loadCatalog, type LoadedCatalog } from '../catalog/load.js';
import { TOOLBENCH_ROOT } from '../catalog/paths.js';
import { selectEndpoints, type EndpointSelection } from '../catalog/endpoint-selection.js';
import { ToolbenchError } from '../mocks/core/errors.js';
import { TOOLBENCH_VERSION } from '../mocks/version.js';
import { loadScenarioManifest, type ScenarioManifest } from './manifest.js';
import { claudeMcpConfig, genericMcpConfig } from './mcp-config.js';

/**
 * A Harbor task per scenario, in two containers (environment/docker-compose.yaml): `world` holds
 * toolbench, the scenario (expectations, solution, credentials), its dataset and the admin token,
 * and serves the MCP endpoints, the proxy and the admin API; `main`, the agent's, holds only the
 * MCP configuration and mounts the CA certificate. The verifier gets the admin token with tests/,
 * after the agent has finished; the oracle gets the solution with solution/.
 */

/** The base image of both containers, pinned by digest (bump deliberately). */
export const BASE_IMAGE = 'node:20-bookworm-slim@sha256:2cf067cfed83d5ea958367df9f966191a942351a2df77d6f0193e162b5febfc0';
/** The world's service name: the agent reaches it as http://world:PORT. */
const WORLD = 'world';
const ADMIN_PORT = 8100;
const PROXY_PORT = 8080;
const IN_WORLD = '/opt/toolbench';
/** What the agent's image holds: its MCP configuration. */
const IN_AGENT = '/toolbench';
/** The CA certificates the world shares with the agent (a volume; never the key). */
const SHARED_CA = '/toolbench-ca';

/** Toolbench's own source folders copied into the world's build context (tests and runs are not). */
const SOURCE_DIRS = ['bin', 'catalog', 'certs', 'mocks', 'proxy', 'replay'];
const SOURCE_FILES = ['package.json', 'package-lock.json', 'tsconfig.json'];

export function taskName(manifest: ScenarioManifest): string {
  return manifest.id.replaceAll('/', '-');
}

function endpointUrls(manifest: ScenarioManifest, catalog: LoadedCatalog, endpoints: EndpointSelection): Record<string, string> {
  return Object.fromEntries(selectEndpoints(endpoints, manifest, catalog.catalog)
    .map((e) => [e.id, `http://${WORLD}:${e.bridge_port}/mcp`]));
}

/** `--endpoints` as the world's start script passes it on. */
function endpointsArgument(endpoints: EndpointSelection): string {
  return typeof endpoints === 'string' ? endpoints : endpoints.join(',');
}

/** The agent's environment: its MCP config and answer file, and the proxy and CA (so its own API calls are journaled as bypasses). */
function agentEnvironment(): Record<string, string> {
  const proxy = `http://${WORLD}:${PROXY_PORT}`;
  const bundle = `${SHARED_CA}/ca-bundle.pem`;
  return {
    TOOLBENCH_MCP_CONFIG: `${IN_AGENT}/mcp.json`,
    TOOLBENCH_ANSWER_FILE: '/logs/agent/answer.txt',
    HTTPS_PROXY: proxy, HTTP_PROXY: proxy, https_proxy: proxy, http_proxy: proxy,
    NO_PROXY: `${WORLD},localhost,127.0.0.1,::1`, no_proxy: `${WORLD},localhost,127.0.0.1,::1`,
    NODE_EXTRA_CA_CERTS: `${SHARED_CA}/ca.pem`, SSL_CERT_FILE: bundle, REQUESTS_CA_BUNDLE: bundle, CURL_CA_BUNDLE: bundle,
  };
}

/** The Harbor `task.toml` of a scenario: its MCP servers (in the world's container), the model API allowlist, the agent's environment. */
export function taskToml(manifest: ScenarioManifest, catalog: LoadedCatalog, endpoints: EndpointSelection = 'all'): string {
  return stringify({
    task: {
      name: `toolbench/${taskName(manifest)}`,
      description: manifest.description || manifest.id,
      keywords: ['toolbench', 'mcp', manifest.group, ...manifest.services],
    },
    metadata: { scenario: manifest.id, group: manifest.group, seed: manifest.seed, toolbench_version: TOOLBENCH_VERSION, catalog_hash: catalog.hash },
    agent: { timeout_sec: 1800, network_mode: 'allowlist', allowed_hosts: [...catalog.catalog.passthrough, WORLD] },
    verifier: { timeout_sec: 300, network_mode: 'allowlist', allowed_hosts: [WORLD] },
    environment: {
      cpus: 2,
      // Every catalog server at once holds about 3.4 GB resident (npm run bench, endpoints section).
      memory_mb: selectEndpoints(endpoints, manifest, catalog.catalog).length > 8 ? 8192 : 4096,
      env: agentEnvironment(),
      mcp_servers: Object.entries(endpointUrls(manifest, catalog, endpoints)).map(([name, url]) => ({ name, transport: 'streamable-http', url })),
    },
  }) + '\n';
}

/** `environment/docker-compose.yaml` (JSON, which is YAML): Harbor's `main` beside the world. */
export function composeFile(manifest: ScenarioManifest, catalog: LoadedCatalog, endpoints: EndpointSelection = 'all'): string {
  const ports = [ADMIN_PORT, PROXY_PORT, ...selectEndpoints(endpoints, manifest, catalog.catalog).map((e) => e.bridge_port)];
  const compose = {
    services: {
      main: {
        depends_on: { [WORLD]: { condition: 'service_healthy' } },
        environment: agentEnvironment(),
        volumes: [`toolbench-ca:${SHARED_CA}:ro`],
      },
      [WORLD]: {
        build: { context: 'world' },
        expose: ports.map(String),
        volumes: [`toolbench-ca:${SHARED_CA}`, 'world-logs:/logs/world'],
        // Healthy once the admin API answers and every MCP bridge listens: a bridge opens only
        // after its server listed its tools, so the agent never starts before its endpoints.
        healthcheck: {
          test: ['CMD', 'node', HEALTHCHECK_PATH, String(ADMIN_PORT), ...selectEndpoints(endpoints, manifest, catalog.catalog).map((e) => String(e.bridge_port))],
          // Every endpoint may take minutes on two cores (docs/trials.md, "Cost").
          interval: '2s', retries: 300,
        },
      },
    },
    volumes: { 'toolbench-ca': {}, 'world-logs': {} },
  };
  return `# ${manifest.id}: the agent (main) and the world in separate containers; written by toolbench taskgen.\n`
    + '# JSON is YAML: the file parses with any YAML reader.\n'
    + JSON.stringify(compose, null, 2) + '\n';
}

function agentDockerfile(manifest: ScenarioManifest): string {
  return `# The agent's container for ${manifest.id}. It holds the MCP configuration and nothing of the
# scenario: the world (scenario, dataset, credentials, admin token) runs in the world service.
# Builds without network (Harbor installs the agent itself).
FROM ${BASE_IMAGE}
COPY mcp.json mcp.generic.json ${IN_AGENT}/
RUN mkdir -p /logs/agent ${SHARED_CA}
WORKDIR /root
`;
}

function worldDockerfile(manifest: ScenarioManifest): string {
  return `# The world for ${manifest.id}: toolbench, the scenario and its dataset, the pinned MCP servers
# and their Streamable HTTP bridges on the catalog's ports, the proxy and the admin API.
# Needs network at build time for one step only: \`npm ci\` fetches the production dependencies
# from the npm registry (package-lock.json pins every version); toolbench is copied compiled.
FROM ${BASE_IMAGE}
COPY toolbench ${IN_WORLD}
WORKDIR ${IN_WORLD}
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund
RUN node bin/toolbench.js certs init --dir /var/toolbench/ca --json
COPY admin-token /var/toolbench/admin-token
COPY start-world.sh /usr/local/bin/start-world
COPY healthcheck.mjs ${HEALTHCHECK_PATH}
RUN chmod 0600 /var/toolbench/admin-token && chmod +x /usr/local/bin/start-world
EXPOSE ${ADMIN_PORT} ${PROXY_PORT}
CMD ["start-world"]
`;
}

function startWorld(manifest: ScenarioManifest, endpoints: EndpointSelection): string {
  return `#!/bin/sh
# Shares the CA certificates (not the key) with the agent's container, then serves the scenario's
# world with its MCP endpoints on every interface of this container; the journal goes to /logs/world.
set -e
mkdir -p /logs/world ${SHARED_CA}
cp /var/toolbench/ca/ca.pem /var/toolbench/ca/ca-bundle.pem ${SHARED_CA}/
exec node ${IN_WORLD}/bin/toolbench.js world --scenario ${IN_WORLD}/scenarios/${manifest.id} \\
  --mcp --endpoints ${endpointsArgument(endpoints)} --host 0.0.0.0 --ca-dir /var/toolbench/ca --admin-token-file /var/toolbench/admin-token \\
  --journal /logs/world/journal-$(date +%s) --log-dir /logs/world
`;
}

const HEALTHCHECK_PATH = '/usr/local/lib/toolbench-healthcheck.mjs';

/** `node healthcheck.mjs ADMIN_PORT BRIDGE_PORT…`: exit 0 when the admin API is healthy and every bridge answers. */
const HEALTHCHECK_MJS = `// Written by toolbench taskgen: the world container's healthcheck (docs/agents.md, "Harbor").
const [admin, ...bridges] = process.argv.slice(2);
const health = await fetch(\`http://127.0.0.1:\${admin}/_bench/health\`).then((r) => r.ok, () => false);
// A bridge that is not listening yet refuses the connection; any HTTP answer means it is up.
const up = await Promise.all(bridges.map((port) => fetch(\`http://127.0.0.1:\${port}/mcp\`).then(() => true, () => false)));
process.exit(health && up.every(Boolean) ? 0 : 1);
`;

function testSh(): string {
  return `#!/bin/sh
# Grades the trial in the world's container (state, journal, answer): writes result.json and
# reward.txt to /logs/verifier. The admin token arrives with this folder, after the agent ran.
set -e
exec node "$(dirname "$0")/grade.mjs"
`;
}

/** The verifier: POST /_bench/grade with the answer and the admin token; no dependency but Node. */
function gradeMjs(): string {
  return `// Written by toolbench taskgen: asks the world to grade the trial (docs/agents.md, "Harbor").
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const here = new URL('.', import.meta.url).pathname;
const admin = process.env.TOOLBENCH_ADMIN ?? 'http://${WORLD}:${ADMIN_PORT}';
const answerFile = process.env.TOOLBENCH_ANSWER_FILE ?? '/logs/agent/answer.txt';
const out = process.env.TOOLBENCH_VERIFIER_DIR ?? '/logs/verifier';
const token = readFileSync(join(here, 'admin-token'), 'utf8').trim();
const answer = existsSync(answerFile) ? readFileSync(answerFile) : Buffer.alloc(0);
const response = await fetch(admin + '/_bench/grade', {
  method: 'POST', body: answer,
  headers: { authorization: 'Bearer ' + token, 'content-type': 'text/plain; charset=utf-8', 'x-toolbench-agent': process.env.TOOLBENCH_AGENT_NAME ?? 'harbor' },
});
const text = await response.text();
if (!response.ok) {
  process.stderr.write('grade: the world refused (' + response.status + '): ' + text + '\\n');
  process.exit(1);
}
const result = JSON.parse(text);
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'result.json'), text);
writeFileSync(join(out, 'reward.txt'), result.reward + '\\n');
process.stdout.write(result.scenario + ': reward ' + result.reward + '\\n');
`;
}

function solveSh(): string {
  return `#!/bin/sh
# The oracle: replays the scenario's solution (oracle.json) over MCP and writes its answer.
set -e
mkdir -p /logs/agent
exec node "$(dirname "$0")/oracle.mjs"
`;
}

/** The oracle as the agent's container can run it: a Streamable HTTP MCP client on fetch, no dependency. */
function oracleMjs(): string {
  return `// Written by toolbench taskgen: the scenario's solution over MCP (Streamable HTTP, JSON-RPC).
import { readFileSync, writeFileSync } from 'node:fs';

const here = new URL('.', import.meta.url).pathname;
const solution = JSON.parse(readFileSync(here + 'oracle.json', 'utf8'));
const config = JSON.parse(readFileSync(process.env.TOOLBENCH_MCP_CONFIG ?? '${IN_AGENT}/mcp.json', 'utf8'));
const sessions = new Map();
let nextId = 1;

async function rpc(url, session, message) {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  if (session) headers['mcp-session-id'] = session;
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(message) });
  if (!response.ok && response.status !== 202) throw new Error(message.method + ': HTTP ' + response.status + ' ' + await response.text());
  const text = await response.text();
  const id = response.headers.get('mcp-session-id') ?? session;
  if (message.id === undefined) return { id };
  // A JSON body, or an event stream whose data lines carry the reply.
  const replies = (response.headers.get('content-type') ?? '').includes('text/event-stream')
    ? text.split('\\n').filter((l) => l.startsWith('data:')).map((l) => JSON.parse(l.slice(5)))
    : [JSON.parse(text)];
  const reply = replies.find((r) => r.id === message.id);
  if (!reply) throw new Error(message.method + ': no reply');
  if (reply.error) throw new Error(message.method + ': ' + reply.error.message);
  return { id, result: reply.result };
}

async function session(endpoint) {
  if (sessions.has(endpoint)) return sessions.get(endpoint);
  const url = config.mcpServers[endpoint]?.url;
  if (!url) throw new Error('the MCP config has no endpoint ' + endpoint);
  const init = await rpc(url, undefined, { jsonrpc: '2.0', id: nextId++, method: 'initialize',
    params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'toolbench-oracle', version: '1.0.0' } } });
  await rpc(url, init.id, { jsonrpc: '2.0', method: 'notifications/initialized' });
  const s = { url, id: init.id };
  sessions.set(endpoint, s);
  return s;
}

for (const call of solution.calls) {
  const s = await session(call.endpoint);
  const { result } = await rpc(s.url, s.id, { jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name: call.tool, arguments: call.arguments } });
  if (result.isError) {
    process.stderr.write('oracle: ' + call.endpoint + '.' + call.tool + ' failed: ' + JSON.stringify(result.content) + '\\n');
    process.exit(1);
  }
  process.stdout.write('oracle: ' + call.endpoint + '.' + call.tool + ' ok\\n');
}
writeFileSync(process.env.TOOLBENCH_ANSWER_FILE ?? '/logs/agent/answer.txt', solution.answer);
`;
}

function copyToolbench(into: string, scenarioDir: string, manifest: ScenarioManifest): void {
  const dist = join(TOOLBENCH_ROOT, 'dist');
  if (!existsSync(join(dist, 'bin', 'main.js'))) throw new ToolbenchError('TB_ERR_USAGE', `${dist} is missing: run \`npm run build\` first (the world's image runs toolbench compiled)`);
  const skip = (path: string) => /(^|\/)(node_modules|snapshots-tmp)(\/|$)/.test(path);
  for (const dir of SOURCE_DIRS) {
    cpSync(join(TOOLBENCH_ROOT, dir), join(into, dir), { recursive: true, filter: (src) => !skip(relative(TOOLBENCH_ROOT, src)) });
    cpSync(join(dist, dir), join(into, 'dist', dir), { recursive: true });
  }
  for (const file of SOURCE_FILES) cpSync(join(TOOLBENCH_ROOT, file), join(into, file));
  // The scenario code (loader, grader, agents) without the other scenarios' data.
  for (const root of [join(TOOLBENCH_ROOT, 'scenarios'), join(dist, 'scenarios')]) {
    const target = root === join(dist, 'scenarios') ? join(into, 'dist', 'scenarios') : join(into, 'scenarios');
    for (const name of readdirSync(root)) {
      const path = join(root, name);
      if (/\.(ts|js)$/.test(name) || (statSync(path).isDirectory() && ['grade', 'agents'].includes(name))) cpSync(path, join(target, name), { recursive: true });
    }
  }
  cpSync(scenarioDir, join(into, 'scenarios', manifest.id), { recursive: true });
}

function write(path: string, text: string, mode?: number): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  if (mode !== undefined) chmodSync(path, mode);
}

/**
 * One Harbor task folder per scenario under `outDir`; returns the task folders. `endpoints`:
 * which MCP endpoints the world serves and the agent's configuration lists (default every one).
 */
export function generateTasks(scenarioDirs: readonly string[], outDir: string, catalog: LoadedCatalog = loadCatalog(), endpoints: EndpointSelection = 'all'): string[] {
  if (scenarioDirs.length === 0) throw new ToolbenchError('TB_ERR_USAGE', 'no scenarios to turn into tasks');
  return scenarioDirs.map((dir) => {
    const manifest = loadScenarioManifest(dir);
    const task = join(resolve(outDir), taskName(manifest));
    if (existsSync(task)) throw new ToolbenchError('TB_ERR_USAGE', `task folder ${task} exists; taskgen writes into a new folder`);
    const urls = endpointUrls(manifest, catalog, endpoints);
    // One token per task, known to the world and the verifier only.
    const adminToken = randomBytes(24).toString('hex');
    write(join(task, 'task.toml'), taskToml(manifest, catalog, endpoints));
    cpSync(join(dir, 'instruction.md'), join(task, 'instruction.md'));
    const env = join(task, 'environment');
    write(join(env, 'docker-compose.yaml'), composeFile(manifest, catalog, endpoints));
    write(join(env, 'Dockerfile'), agentDockerfile(manifest));
    // The agent's build context is environment/: keep the world's folder out of it.
    write(join(env, 'Dockerfile.dockerignore'), 'world\n');
    write(join(env, 'mcp.json'), JSON.stringify(claudeMcpConfig(urls), null, 2) + '\n');
    write(join(env, 'mcp.generic.json'), JSON.stringify(genericMcpConfig(urls), null, 2) + '\n');
    write(join(env, 'world', 'Dockerfile'), worldDockerfile(manifest));
    write(join(env, 'world', 'start-world.sh'), startWorld(manifest, endpoints), 0o755);
    write(join(env, 'world', 'healthcheck.mjs'), HEALTHCHECK_MJS);
    write(join(env, 'world', 'admin-token'), adminToken + '\n', 0o600);
    copyToolbench(join(env, 'world', 'toolbench'), dir, manifest);
    write(join(task, 'tests', 'test.sh'), testSh(), 0o755);
    write(join(task, 'tests', 'grade.mjs'), gradeMjs());
    write(join(task, 'tests', 'admin-token'), adminToken + '\n', 0o600);
    write(join(task, 'solution', 'solve.sh'), solveSh(), 0o755);
    write(join(task, 'solution', 'oracle.mjs'), oracleMjs());
    write(join(task, 'solution', 'oracle.json'), JSON.stringify({ calls: manifest.oracle.calls, answer: manifest.oracle.answer }, null, 2) + '\n');
    return task;
  });
}
