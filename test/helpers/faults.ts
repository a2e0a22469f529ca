import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { openWorld, type OpenWorldOptions } from '../../scenarios/world.js';
import type { JournalEntry } from '../../mocks/core/journal-format.js';
import type { World } from '../../mocks/core/world.js';
import { TOKENS, type Send, sender } from './github-requests.js';
import { copyExampleScenario } from './replay-github.js';

/** A private copy of the example scenario with `toml` (`[[faults]]` tables) appended to its scenario.toml. */
export function faultyScenario(toml: string): string {
  const dir = copyExampleScenario();
  appendFileSync(join(dir, 'scenario.toml'), `\n${toml}\n`);
  return dir;
}

/** A world (journal in memory) of the example scenario with these `[[faults]]`, and an in-process sender. */
export async function faultyWorld(toml: string, options: Partial<OpenWorldOptions> = {}): Promise<{ world: World; send: Send; scenarioDir: string }> {
  const scenarioDir = faultyScenario(toml);
  const { world } = await openWorld({ scenarioDir, ...options });
  return { world, send: sender(world, TOKENS.alice), scenarioDir };
}

/** Every entry of a world's journal, after the last group commit. */
export async function journalOf(world: World): Promise<JournalEntry[]> {
  await world.journal.flush();
  const out: JournalEntry[] = [];
  for await (const entry of world.journal.entries()) out.push(entry);
  return out;
}

/** A request's outcome as a fault test compares it: where it fell and what it met. */
export function outcome(entry: JournalEntry) {
  return { seq: entry.seq, endpoint: `${entry.method} ${entry.target}`, status: entry.response.status, fault: entry.fault };
}

export const decode = (body: Uint8Array) => new TextDecoder().decode(body);
