import test from 'ava';
import { auditJournal } from '../replay/audit.js';
import { fromJournal } from '../replay/source.js';
import { useMcpStack } from './helpers/mcp-stack.js';

// exa-mcp-server@3.4.1 over MCP against the Exa mock: what its tools print from the mock's
// answers, and its per-call telemetry to api.agnost.ai, which the catalog's agnost-telemetry
// [[noise]] answers and the journal keeps as noise, never as an API call.

const mcp = useMcpStack(test, 'mocks/exa/conformance', 'exa');

const text = (r: Record<string, unknown>) => (r.content as { type: string; text?: string }[]).map((c) => c.text ?? '').join('\n');

test.serial('web_search_exa prints titles, dates and highlights; web_fetch_exa prints the page and a missing URL\'s tag', async (t) => {
  const search = await mcp.client().callTool({ name: 'web_search_exa', arguments: { query: 'Meridian Rail strike postponed', numResults: 2 } });
  t.falsy(search.isError);
  t.regex(text(search), /^Title: Meridian Rail strike postponed to 19 March after late talks\nURL: https:\/\/www\.coastpost\.example\/news\/meridian-rail-strike-postponed\nPublished: 2025-03-09T00:00:00\.000Z\nAuthor: Hana Lee\nHighlights:\n/);
  const fetched = await mcp.client().callTool({ name: 'web_fetch_exa', arguments: { urls: ['https://quillstack.dev/docs/storage', 'https://quillstack.dev/nowhere'], maxCharacters: 60 } });
  t.regex(text(fetched), /^# Storage engine \| Quillstack Docs\nURL: https:\/\/quillstack\.dev\/docs\/storage\n/);
  t.regex(text(fetched), /Error fetching https:\/\/quillstack\.dev\/nowhere: CRAWL_NOT_FOUND$/);
});

test.serial('a research task started over MCP is found by deep_researcher_check, and an unknown one is the server\'s own not-found', async (t) => {
  const started = JSON.parse(text(await mcp.client().callTool({ name: 'deep_researcher_start', arguments: { instructions: 'Quillstack default pool size', model: 'exa-research-fast' } })));
  t.regex(started.researchId, /^[0-9a-z]{26}$/);
  const checked = JSON.parse(text(await mcp.client().callTool({ name: 'deep_researcher_check', arguments: { researchId: started.researchId } })));
  t.is(checked.status, 'completed');
  t.regex(checked.report, /^# Research report/);
  const missing = await mcp.client().callTool({ name: 'deep_researcher_check', arguments: { researchId: 'unknown0000000000000000000' } });
  t.true(missing.isError);
  t.is(JSON.parse(text(missing)).error, 'Research not found');
});

test.serial('telemetry to api.agnost.ai is answered and journaled as noise, never counted as an API call', async (t) => {
  const entries = await mcp.entries();
  const telemetry = entries.filter((e) => e.host === 'api.agnost.ai');
  t.true(telemetry.length > 0, 'the server reports its calls');
  t.true(telemetry.every((e) => e.kind === 'noise' && e.response.status === 200));
  const exa = entries.filter((e) => e.host === 'api.exa.ai');
  const audit = await auditJournal(fromJournal(mcp.stack().world.journal, '(memory)'));
  t.is(audit.totals.noise, telemetry.length);
  t.is(audit.totals.api_calls, exa.length);
});
