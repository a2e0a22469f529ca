import type { Journal } from '../mocks/core/journal.js';
import type { McpRecord } from '../mocks/core/journal-format.js';

/** Numbers MCP-level records and hands them to the world's journal (key prefix `mcp:`). */
export class McpLog {
  private n = 0;

  constructor(private readonly journal: Journal, /** The world's last sequence number. */ readonly worldSeq: () => number) {}

  record(fields: Omit<McpRecord, 'n'>): Promise<void> {
    this.n += 1;
    return this.journal.appendMcp({ n: this.n, ...fields });
  }
}
