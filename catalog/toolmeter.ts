import { get_encoding, type TiktokenEncoding } from 'tiktoken';
import type { ToolSnapshot } from './snapshots.js';

export const ENCODINGS = ['o200k_base', 'cl100k_base'] as const satisfies readonly TiktokenEncoding[];

export interface ToolMeasure {
  endpoint: string;
  tools: number;
  /** UTF-8 bytes of the tool list as an agent receives it (JSON of `tools`). */
  bytes: number;
  tokens: Record<(typeof ENCODINGS)[number], number>;
}

export interface ToolmeterReport {
  endpoints: ToolMeasure[];
  total: ToolMeasure;
}

/** Tools, bytes and tokens per endpoint and in total: what the tool list costs an agent's context. */
export function measureTools(snapshots: readonly ToolSnapshot[]): ToolmeterReport {
  const encoders = ENCODINGS.map((name) => [name, get_encoding(name)] as const);
  try {
    const endpoints = snapshots.map((snapshot): ToolMeasure => {
      const text = JSON.stringify(snapshot.tools);
      const tokens = Object.fromEntries(encoders.map(([name, encoder]) => [name, encoder.encode(text).length])) as ToolMeasure['tokens'];
      return { endpoint: snapshot.endpoint, tools: snapshot.tools.length, bytes: Buffer.byteLength(text), tokens };
    });
    const sum = (pick: (m: ToolMeasure) => number) => endpoints.reduce((total, m) => total + pick(m), 0);
    const total: ToolMeasure = {
      endpoint: 'total',
      tools: sum((m) => m.tools),
      bytes: sum((m) => m.bytes),
      tokens: Object.fromEntries(ENCODINGS.map((name) => [name, sum((m) => m.tokens[name])])) as ToolMeasure['tokens'],
    };
    return { endpoints, total };
  } finally {
    for (const [, encoder] of encoders) encoder.free();
  }
}
