import { get_encoding, type Tiktoken, type TiktokenEncoding } from 'tiktoken';
import { ROUTER_ID } from './router/names.js';
import { ROUTER_TOOLS } from './router/tools.js';
import type { ToolSnapshot } from './snapshots.js';

export const ENCODINGS = ['o200k_base', 'cl100k_base'] as const satisfies readonly TiktokenEncoding[];
type Encoding = (typeof ENCODINGS)[number];

export interface ToolMeasure {
  endpoint: string;
  tools: number;
  /** UTF-8 bytes of the tool list as an agent receives it (JSON of `tools`). */
  bytes: number;
  tokens: Record<Encoding, number>;
}

export interface ToolmeterReport {
  endpoints: ToolMeasure[];
  total: ToolMeasure;
  /**
   * What each tool arm (`record --tools`) puts in the agent's context before its first call:
   * `all`, every endpoint's tools (the total); `router`, the router's two tool definitions.
   */
  arms: { all: ToolMeasure; router: ToolMeasure };
}

/** Tools, bytes and tokens per endpoint, in total and per arm: what the tool list costs an agent's context. */
export function measureTools(snapshots: readonly ToolSnapshot[]): ToolmeterReport {
  const encoders = ENCODINGS.map((name) => [name, get_encoding(name)] as const);
  try {
    const endpoints = snapshots.map((snapshot) => measure(snapshot.endpoint, snapshot.tools, encoders));
    const sum = (pick: (m: ToolMeasure) => number) => endpoints.reduce((total, m) => total + pick(m), 0);
    const total: ToolMeasure = {
      endpoint: 'total',
      tools: sum((m) => m.tools),
      bytes: sum((m) => m.bytes),
      tokens: Object.fromEntries(ENCODINGS.map((name) => [name, sum((m) => m.tokens[name])])) as ToolMeasure['tokens'],
    };
    return { endpoints, total, arms: { all: { ...total, endpoint: 'all' }, router: measure(ROUTER_ID, ROUTER_TOOLS, encoders) } };
  } finally {
    for (const [, encoder] of encoders) encoder.free();
  }
}

function measure(endpoint: string, tools: readonly unknown[], encoders: readonly (readonly [Encoding, Tiktoken])[]): ToolMeasure {
  const text = JSON.stringify(tools);
  const tokens = Object.fromEntries(encoders.map(([name, encoder]) => [name, encoder.encode(text).length])) as ToolMeasure['tokens'];
  return { endpoint, tools: tools.length, bytes: Buffer.byteLength(text), tokens };
}
