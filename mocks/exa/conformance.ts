import type { SweepProfile } from '../kit/sweep-profile.js';

/**
 * How the conformance suite and `toolbench coverage` call all 12 tools of exa-mcp-server in the
 * story corpus (mocks/exa/conformance): searches that find pages, companies, people and code, a
 * fetch of a page and a missing one, and the research task the check polls (created just before).
 */
const ARGS: Record<string, Record<string, unknown>> = {
  web_search_exa: { query: 'quillstack default pool max_connections', numResults: 5 },
  web_search_advanced_exa: { query: 'Meridian Rail strike', numResults: 5, category: 'news', startPublishedDate: '2025-03-01', enableHighlights: true, enableSummary: true, textMaxCharacters: 400 },
  get_code_context_exa: { query: 'quillstack open max_connections python', numResults: 3 },
  company_research_exa: { companyName: 'Quillstack Labs', numResults: 3 },
  web_fetch_exa: { urls: ['https://quillstack.dev/docs/storage', 'https://quillstack.dev/no-such-page'], maxCharacters: 500 },
  crawling_exa: { urls: ['https://quillstack.dev/blog/quillstack-4-0-released'] },
  people_search_exa: { query: 'Quillstack storage engineer', numResults: 3 },
  linkedin_search_exa: { query: 'Quillstack write-ahead log engineer', numResults: 3 },
  deep_researcher_start: { instructions: 'When is the Meridian Rail strike now planned?', model: 'exa-research-fast' },
  deep_search_exa: { objective: 'Quillstack default pool size', search_queries: ['quillstack max_connections'] },
  agent_run: { query: 'Which Ferrous Lantern patch removed ranked Glass Harbor?', effort: 'minimal' },
};

export const sweep: SweepProfile = {
  scenario: 'mocks/exa/conformance',
  order: ['deep_researcher_start', 'deep_researcher_check'],
  argsFor: (tool, state) => {
    if (tool.name === 'deep_researcher_check') return { researchId: Object.keys(state.research ?? {})[0] ?? 'r_missing' };
    return ARGS[tool.name] ?? {};
  },
};
