import { Writable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { CallTracker } from '../mocks/core/attribution.js';
import type { McpRecord } from '../mocks/core/journal-format.js';
import { childEnvironment } from '../proxy/child-env.js';
import { ToolbenchError } from '../mocks/core/errors.js';
import { TOOLBENCH_VERSION } from '../mocks/version.js';
import { renderEnv, renderTemplate, TemplateError, type TemplateValue, type TemplateVars } from './env-template.js';
import type { McpSink } from './mcp-log.js';
import { findInstalledPackage, packageProblem } from './packages.js';
import { TOOLBENCH_ROOT } from './paths.js';
import type { EndpointEntry } from './schema.js';
import { StdioProcessTransport, type ProcessExit } from './stdio-transport.js';

/** How an endpoint's server reaches the world: filled in by whoever runs the proxy. */
export interface EndpointNetwork {
  /** The proxy URL with this endpoint's credential as userinfo. */
  proxyUrl: string;
  /** The CA certificate (PEM) the server must trust (`{{ca_path}}`; NODE_EXTRA_CA_CERTS). */
  caPath: string;
  /** Public roots plus the CA (SSL_CERT_FILE, for Go, Python and OpenSSL-based clients). */
  bundlePath: string;
  /** The Node interception preload. */
  preloadPath: string;
  /** The service's base URL as the server should call it (for `reach = "base-url"`). */
  serviceUrl: string;
}

export interface StartEndpointOptions {
  endpoint: EndpointEntry;
  /**
   * The scenario's credential for the endpoint's service: a string (`{{credential}}`, e.g. a
   * GitHub token) or a table (`{{credential.key_id}}`).
   */
  credential?: TemplateValue;
  network: EndpointNetwork;
  tracker: CallTracker;
  mcpLog: McpSink;
  /** The server's stderr goes here (a log file). */
  stderr: Writable;
  /** Told when the server exits while it was meant to be running. */
  onCrash?: (endpoint: string, exit: ProcessExit) => void;
  /**
   * How long the server may take from spawn to its tool list (0: no limit). Past it the server is
   * stopped and the start fails with the endpoint's name and the tail of its stderr.
   */
  readyTimeoutMs?: number;
}

/** The default readiness timeout: generous, since 30 servers may start at once on two cores. */
export const DEFAULT_READY_TIMEOUT_MS = 120_000;

/** Variables only toolbench itself adds; never taken from the parent environment. */
const INHERITED = ['PATH', 'HOME', 'LANG', 'TMPDIR'] as const;

/**
 * The child's whole environment: a short allowlist, the proxy and CA settings every endpoint
 * gets whatever its `reach` (proxy/child-env.ts), then the catalog's env (base URLs and the like).
 */
export function endpointEnvironment(options: Pick<StartEndpointOptions, 'endpoint' | 'credential' | 'network'>, parent = process.env): Record<string, string> {
  const { endpoint, network } = options;
  const installed = endpoint.package ? findInstalledPackage(endpoint.package) : null;
  const vars: TemplateVars = {
    credential: options.credential,
    proxy_url: network.proxyUrl,
    ca_path: network.caPath,
    service_url: network.serviceUrl,
    package_dir: installed?.dir,
    toolbench_root: TOOLBENCH_ROOT,
  };
  const env: Record<string, string> = { TZ: 'UTC' };
  for (const name of INHERITED) if (parent[name]) env[name] = parent[name]!;
  Object.assign(env, childEnvironment({ proxyUrl: network.proxyUrl, ca: { certPath: network.caPath, bundlePath: network.bundlePath }, preloadPath: network.preloadPath }));
  return { ...env, ...renderEnv(endpoint.env, vars, `endpoints.${endpoint.id}`) };
}

/**
 * One running endpoint: its server over stdio and the MCP client that talks to it. Tool calls go
 * one at a time (so each world request belongs to exactly one call), are tracked for attribution
 * and journaled with their result.
 */
export class RunningEndpoint {
  private queue: Promise<unknown> = Promise.resolve();
  private calls = 0;
  private stopping = false;
  exit: ProcessExit | null = null;

  private constructor(
    readonly id: string,
    private readonly client: Client,
    private readonly transport: StdioProcessTransport,
    readonly tools: Tool[],
    private readonly options: StartEndpointOptions,
  ) {}

  static async start(options: StartEndpointOptions): Promise<RunningEndpoint> {
    const { endpoint, tracker, mcpLog } = options;
    const problem = packageProblem(endpoint);
    if (problem) throw new ToolbenchError('TB_ERR_CATALOG', `endpoint ${endpoint.id}: ${problem}`);
    let env: Record<string, string>;
    let command: string;
    let args: string[];
    try {
      env = endpointEnvironment(options);
      const installed = endpoint.package ? findInstalledPackage(endpoint.package) : null;
      // Arguments may carry the credential too (Twilio's server takes it only as a positional `AC…/SK…:secret`).
      const vars = { node: process.execPath, bin: installed?.bin ?? undefined, package_dir: installed?.dir, toolbench_root: TOOLBENCH_ROOT, credential: options.credential };
      command = renderTemplate(endpoint.command, vars, `endpoints.${endpoint.id}.command`);
      args = endpoint.args.map((arg, i) => renderTemplate(arg, vars, `endpoints.${endpoint.id}.args[${i}]`));
    } catch (error) {
      if (error instanceof TemplateError) {
        // A credential that does not fit the endpoint's templates is the scenario's to fix.
        if (error.message.includes('{{credential')) {
          throw new ToolbenchError('TB_ERR_SCENARIO', `catalog ${error.message} (the scenario's credentials.${endpoint.service})`);
        }
        throw new ToolbenchError('TB_ERR_CATALOG', `catalog ${error.message}`);
      }
      throw error;
    }
    tracker.register(endpoint.id);
    let running: RunningEndpoint | null = null;
    let earlyExit: ProcessExit | null = null;
    const stderr = new StderrTail(options.stderr);
    const transport = new StdioProcessTransport({
      command, args, env, stderr,
      onExit: (exit) => {
        if (running) running.exited(exit);
        else earlyExit = exit;
      },
    });
    const client = new Client({ name: 'toolbench-bridge', version: TOOLBENCH_VERSION });
    const timeoutMs = options.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS;
    let timer: NodeJS.Timeout | undefined;
    try {
      const ready = (async () => {
        // The SDK's own request timeout (60 s) would otherwise cut a slow start short of ours.
        const request = { timeout: timeoutMs > 0 ? timeoutMs : 2 ** 31 - 1 };
        await client.connect(transport, request);
        const tools: Tool[] = [];
        let cursor: string | undefined;
        do {
          const page = await client.listTools(cursor ? { cursor } : undefined, request);
          tools.push(...page.tools);
          cursor = page.nextCursor;
        } while (cursor);
        return tools;
      })();
      ready.catch(() => undefined);
      const tools = timeoutMs > 0
        ? await Promise.race([ready, new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new ReadyTimeout(timeoutMs)), timeoutMs);
        })])
        : await ready;
      running = new RunningEndpoint(endpoint.id, client, transport, tools, options);
    } catch (error) {
      await transport.close();
      const exit = earlyExit as ProcessExit | null;
      const how = exit ? ` (its server exited with ${describeExit(exit)})` : '';
      const what = error instanceof ReadyTimeout ? `was not ready after ${timeoutMs / 1000} s (no tool list)` : `did not start: ${(error as Error).message}`;
      const tail = stderr.tail();
      throw new ToolbenchError('TB_ERR_CATALOG', `endpoint ${endpoint.id} ${what}${how}; `
        + (tail ? `the last lines of its stderr:\n${tail.replace(/^/gm, '  ')}` : 'it wrote nothing to stderr'), { cause: error });
    } finally {
      clearTimeout(timer);
    }
    tracker.markReady(endpoint.id);
    const seq = mcpLog.worldSeq();
    await mcpLog.record({ endpoint: endpoint.id, kind: 'ready', tool: null, callId: null, arguments: null, result: { tools: running.tools.length }, isError: false, error: null, worldSeqBefore: seq, worldSeqAfter: seq });
    return running;
  }

  /**
   * A warm server joins the next trial (catalog/warm.ts): its calls are numbered from 1 again and
   * the trial's MCP log says it is ready, as a freshly started server's would, noting it was warm.
   */
  async rejoin(): Promise<void> {
    const { tracker, mcpLog } = this.options;
    this.calls = 0;
    tracker.register(this.id);
    tracker.markReady(this.id);
    const seq = mcpLog.worldSeq();
    await mcpLog.record({ endpoint: this.id, kind: 'ready', tool: null, callId: null, arguments: null, result: { tools: this.tools.length, warm: true }, isError: false, error: null, worldSeqBefore: seq, worldSeqAfter: seq });
  }

  /** The server's own name and version, as it reported them at initialize. */
  get serverInfo(): { name: string; version: string } {
    return this.client.getServerVersion() ?? { name: this.id, version: '0.0.0' };
  }

  /** The server's process id while it runs. */
  get pid(): number | null {
    return this.transport.pid;
  }

  get alive(): boolean {
    return this.exit === null;
  }

  /**
   * Calls a tool on the server; one call at a time per endpoint. `via`: who forwarded it (the
   * router), noted in its MCP record.
   */
  callTool(name: string, args: Record<string, unknown> | undefined, via?: McpRecord['via']): Promise<CallToolResult> {
    const run = this.queue.then(() => this.callNow(name, args, via));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async callNow(name: string, args: Record<string, unknown> | undefined, via: McpRecord['via']): Promise<CallToolResult> {
    const { tracker, mcpLog } = this.options;
    if (!this.alive) throw this.downError();
    this.calls += 1;
    const callId = `${this.id}#${this.calls}`;
    const before = mcpLog.worldSeq();
    tracker.begin(this.id, { tool: name, callId });
    // Only when forwarded: a direct call's record keeps the shape it always had.
    const forwarded = via ? { via } : {};
    try {
      const result = await this.client.callTool({ name, arguments: args }) as CallToolResult;
      await mcpLog.record({ endpoint: this.id, kind: 'call', tool: name, callId, arguments: args ?? null, result, isError: result.isError === true, error: null, worldSeqBefore: before, worldSeqAfter: mcpLog.worldSeq(), ...forwarded });
      return result;
    } catch (error) {
      const failure = this.alive ? error : this.downError();
      await mcpLog.record({ endpoint: this.id, kind: 'call', tool: name, callId, arguments: args ?? null, result: null, isError: true, error: (failure as Error).message, worldSeqBefore: before, worldSeqAfter: mcpLog.worldSeq(), ...forwarded });
      throw failure;
    } finally {
      tracker.end(this.id);
    }
  }

  private downError(): McpError {
    return new McpError(ErrorCode.InternalError,
      `toolbench: the ${this.id} MCP server is not running (it exited with ${describeExit(this.exit!)}); this trial cannot continue on that endpoint`);
  }

  private exited(exit: ProcessExit): void {
    this.exit = exit;
    if (this.stopping) return;
    const seq = this.options.mcpLog.worldSeq();
    void this.options.mcpLog.record({ endpoint: this.id, kind: 'crash', tool: null, callId: null, arguments: null, result: null, isError: true, error: `server exited with ${describeExit(exit)}`, worldSeqBefore: seq, worldSeqAfter: seq });
    this.options.onCrash?.(this.id, exit);
  }

  async close(): Promise<void> {
    this.stopping = true;
    await this.client.close().catch(() => undefined);
    await this.transport.close();
  }
}

class ReadyTimeout extends Error {
  constructor(readonly ms: number) {
    super(`not ready after ${ms} ms`);
  }
}

/** Passes a server's stderr on to its log and keeps the last few KB for an error message. */
class StderrTail extends Writable {
  private kept = '';

  constructor(private readonly into: Writable, private readonly limit = 8192) {
    super();
  }

  override _write(chunk: Buffer, encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.kept = (this.kept + chunk.toString('utf8')).slice(-this.limit);
    this.into.write(chunk, encoding, done);
  }

  /** The last (at most twenty) lines written. */
  tail(): string {
    return this.kept.trimEnd().split('\n').slice(-20).join('\n');
  }
}

export function describeExit(exit: ProcessExit): string {
  return exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`;
}
