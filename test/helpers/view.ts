import { existsSync } from 'node:fs';
import type { BrowserContext } from 'playwright-core';
import { chromium } from 'playwright-core';
import type { JournalEntry, McpRecord } from '../../mocks/core/journal-format.js';
import { LevelJournal } from '../../mocks/core/journal.js';
import { testHeader, tempDir } from './journal.js';

/** Debian's Chromium, as .ci/run installs it. */
export const CHROMIUM = '/usr/bin/chromium';

/** Why the browser tests cannot run here, or null: outside CI a missing Chromium skips them; in CI it fails them. */
export function browserMissing(): string | null {
  if (existsSync(CHROMIUM)) return null;
  if (process.env.CI === 'true') return null;
  return `${CHROMIUM} is missing (apt-get install chromium; .ci/run installs it)`;
}

/**
 * Headless Chromium with a fresh profile. The flags keep it off the network (closed here):
 * no background requests, component updates, sync or QUIC.
 */
export async function launchChromium(): Promise<BrowserContext> {
  return chromium.launchPersistentContext(tempDir('toolbench-chromium-'), {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1400, height: 820 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
}

const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

/**
 * A journal of `total` entries shaped like a long trial: 20 startup requests, then tool calls of
 * three requests each, a bypass every 50th request and a fault every 97th.
 */
export async function writeLargeJournal(dir: string, total: number): Promise<{ calls: number }> {
  const journal = await LevelJournal.create(dir, testHeader({ scenario: 'example/github/large', tickMs: 1000 }));
  let calls = 0;
  let seq = 0;
  const entry = (fields: Partial<JournalEntry> & Pick<JournalEntry, 'method' | 'target' | 'attribution'>): JournalEntry => {
    seq += 1;
    const faulted = seq % 97 === 0;
    return {
      seq, time: new Date(Date.UTC(2025, 0, 1) + seq * 1000).toISOString(), kind: 'http', service: 'github', host: 'api.github.com',
      request: { headers: [['host', 'api.github.com'], ['accept', 'application/json']], body: new Uint8Array(), oversize: false },
      response: { status: faulted ? 503 : 200, headers: [['Content-Type', 'application/json; charset=utf-8']], body: json({ seq, items: [1, 2, 3] }) },
      fault: faulted ? { kind: '503', latencyMs: 120 } : null,
      operation: { name: fields.method === 'GET' && fields.target.includes('/issues/') ? 'issues.get' : 'repos.get', via: 'handler' },
      ...fields,
    };
  };
  const pending: Promise<void>[] = [];
  while (seq < 20) pending.push(journal.append(entry({ method: 'GET', target: '/meta', attribution: { kind: 'startup', client: 'github', endpoint: 'github', tool: null, callId: null } })));
  while (seq < total) {
    if ((seq + 1) % 50 === 0) {
      pending.push(journal.append(entry({ method: 'GET', target: '/repos/acme/infra', attribution: { kind: 'direct', client: null, endpoint: null, tool: null, callId: null } })));
      continue;
    }
    calls += 1;
    const callId = `github#${calls}`;
    const before = seq;
    for (let i = 0; i < 3 && seq < total && (seq + 1) % 50 !== 0; i++) {
      pending.push(journal.append(entry({ method: 'GET', target: `/repos/acme/widgets/issues/${calls}`, attribution: { kind: 'mcp', client: 'github', endpoint: 'github', tool: 'get_issue', callId } })));
    }
    const record: McpRecord = {
      n: calls, endpoint: 'github', kind: 'call', tool: 'get_issue', callId, arguments: { owner: 'acme', repo: 'widgets', issue_number: calls },
      result: { content: [{ type: 'text', text: '{}' }] }, isError: false, error: null, worldSeqBefore: before, worldSeqAfter: seq,
    };
    pending.push(journal.appendMcp(record));
  }
  await Promise.all(pending);
  await journal.close();
  return { calls };
}
