import test from 'ava';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { verifyJournal } from '../replay/verify.js';
import { sourceUrl } from '../mocks/core/source-url.js';

/**
 * Journals recorded by the oracle on every GitHub scenario before the mocks moved onto the
 * service kit (journal format 1, toolbench 0.1.0), committed as they were written. Each must
 * still replay byte for byte against today's mocks: a change in any response byte, header or
 * status of the GitHub mock shows up here first. Directory names are scenario ids with `/` → `_`.
 */
const FIXTURES = fileURLToPath(new URL('./fixtures/journals-v1/', sourceUrl(import.meta.url)));
const SCENARIOS = fileURLToPath(new URL('../scenarios/', sourceUrl(import.meta.url)));

for (const name of readdirSync(FIXTURES).sort()) {
  test(`format-1 journal of ${name} replays identically`, async (t) => {
    const report = await verifyJournal(FIXTURES + name, { scenarioDir: SCENARIOS + name.replaceAll('_', '/') });
    t.is(report.verdict, 'identical', JSON.stringify(report.firstDivergence, null, 1)?.slice(0, 2000));
    t.true(report.entries > 0);
  });
}
