import type { HeaderList } from '../../mocks/core/http.js';
import { MemoryJournal } from '../../mocks/core/journal.js';
import type { JournalEntry, JournalHeader } from '../../mocks/core/journal-format.js';
import type { ServiceDefinition } from '../../mocks/core/service.js';
import { World } from '../../mocks/core/world.js';

/**
 * One toy kit service in an in-process world (journal in memory, one logical second per
 * request), for the kit modules' tests: `send` runs a request through the world as a client's
 * would go, middleware, journal and all.
 */
export function kitWorld(definition: ServiceDefinition, data: unknown = {}, options: { tickMs?: number } = {}) {
  const tickMs = options.tickMs ?? 1000;
  const header: JournalHeader = {
    format: 2, toolbench: 'test', scenario: 'kit', datasetHash: '', seed: 1, catalogHash: '', epoch: '2025-01-01T00:00:00.000Z', tickMs, scenarioDir: '/nowhere',
  };
  const host = `api.${definition.id}.test`;
  const world = new World({ seed: 1, epochMs: 0, tickMs, journal: new MemoryJournal(header), services: [{ id: definition.id, hostnames: [host], definition, data }] });
  const send = (method: string, target: string, headers: HeaderList = [], body = '') => {
    const entry: JournalEntry = world.process({ host, method, target, headers, body: new TextEncoder().encode(body) });
    const text = new TextDecoder().decode(entry.response.body);
    return {
      entry,
      status: entry.response.status,
      /** The service's headers (without the world's `X-Toolbench-Seq`, `Content-Length` and `Date`). */
      headers: entry.response.headers.filter(([name]) => !/^(x-toolbench-.*|content-length|date)$/i.test(name)),
      header: (name: string) => entry.response.headers.find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1],
      text,
      json: text === '' ? undefined : JSON.parse(text),
    };
  };
  return { world, send };
}
