import type { Journal } from '../mocks/core/journal.js';
import type { McpRecord } from '../mocks/core/journal-format.js';

/** Where an endpoint's MCP records go: a trial's log, or a warm lane's switch to the bound trial's. */
export interface McpSink {
  record(fields: Omit<McpRecord, 'n'>): Promise<void>;
  /** The world's last sequence number. */
  worldSeq(): number;
}

/** Numbers MCP-level records and hands them to the world's journal (key prefix `mcp:`). */
export class McpLog implements McpSink {
  private n = 0;

  constructor(private readonly journal: Journal, /** The world's last sequence number. */ readonly worldSeq: () => number) {}

  record(fields: Omit<McpRecord, 'n'>): Promise<void> {
    this.n += 1;
    return this.journal.appendMcp({ n: this.n, ...fields });
  }
}
