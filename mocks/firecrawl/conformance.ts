import type { SweepProfile } from '../kit/sweep-profile.js';

/**
 * How the conformance suite and `toolbench coverage` call all 29 tools of firecrawl-mcp in the
 * story corpus. Jobs, scrapes and searches made by earlier tools supply the ids of later ones.
 * Offline: `firecrawl_extract` and `firecrawl_research_search_github` are deprecated and always
 * answer with a pointer to their replacement; `firecrawl_parse` needs FIRECRAWL_API_URL (a
 * self-hosted API) and refuses before any request in the cloud configuration.
 */

const POST = 'https://quillstack.dev/blog/quillstack-4-0-released';
const PAPER = 'url:https://papers.quillstack.dev/2024/adaptive-connection-pools';
const SEEDED_MONITOR = '6f0c3a52-9d1e-4b7a-8c21-3e5f7a9b0c11';

const FIXED: Record<string, Record<string, unknown>> = {
  firecrawl_scrape: { url: POST, formats: ['markdown', 'links', 'summary'] },
  firecrawl_map: { url: 'https://quillstack.dev', search: 'release' },
  firecrawl_search: { query: 'quillstack default pool max_connections', limit: 5 },
  firecrawl_find_tools: {},
  firecrawl_crawl: { url: 'https://quillstack.dev/docs', limit: 5 },
  firecrawl_extract: { urls: [POST], prompt: 'default pool size' },
  firecrawl_agent: { prompt: 'What is the default Quillstack pool size in 4.0?', urls: [POST] },
  firecrawl_interact: { url: POST, prompt: 'What does the post say about the default pool?' },
  firecrawl_parse: { filePath: 'README.md' },
  firecrawl_monitor_create: { pages: ['https://quillstack.dev/docs/configuration'], goal: 'Tell me when the documented default pool size changes', scheduleText: 'every 6 hours' },
  firecrawl_monitor_list: { limit: 10 },
  firecrawl_monitor_get: { id: SEEDED_MONITOR },
  firecrawl_monitor_update: { id: SEEDED_MONITOR, body: { status: 'paused' } },
  firecrawl_monitor_run: { id: SEEDED_MONITOR },
  firecrawl_monitor_checks: { id: SEEDED_MONITOR, limit: 5 },
  firecrawl_research_search_papers: { query: 'connection pool sizing embedded databases', k: 5 },
  firecrawl_research_inspect_paper: { paperId: PAPER },
  firecrawl_research_related_papers: { seed_ids: [PAPER], intent: 'write-ahead logging', mode: 'citers' },
  firecrawl_research_read_paper: { paperId: PAPER, question: 'How many connections saturate?' },
  firecrawl_research_search_github: { query: 'quillstack pool exhaustion' },
  firecrawl_developer_search: { query: 'pool exhaustion after upgrading to 4.0', k: 5 },
  firecrawl_credit_usage: { view: 'historical', byApiKey: true },
};

/** The newest document of `collection` matching `where`, by the logical time the mock stored. */
function newest(state: Record<string, Record<string, unknown>>, collection: string, where: (doc: Record<string, unknown>) => boolean = () => true): string {
  const docs = Object.values(state[collection] ?? {}).filter((d): d is Record<string, unknown> => typeof d === 'object' && d !== null && where(d as Record<string, unknown>));
  return String(docs.at(-1)?.id ?? 'missing');
}

const LAST = ['firecrawl_monitor_delete'];
const FIRST = ['firecrawl_scrape', 'firecrawl_search', 'firecrawl_crawl', 'firecrawl_agent', 'firecrawl_monitor_create', 'firecrawl_monitor_run'];

export const sweep: SweepProfile = {
  scenario: 'mocks/firecrawl/conformance',
  order: (tool) => (FIRST.includes(tool) ? FIRST.indexOf(tool) : LAST.includes(tool) ? 100 : 50),
  offline: ['firecrawl_extract', 'firecrawl_research_search_github', 'firecrawl_parse'],
  argsFor: (tool, state) => {
    switch (tool.name) {
      case 'firecrawl_search_feedback': return { searchId: newest(state, 'searches'), rating: 'good' };
      case 'firecrawl_feedback': return { endpoint: 'scrape', jobId: newest(state, 'scrapes'), rating: 'good', note: 'Found the default pool size.' };
      case 'firecrawl_check_crawl_status': return { id: newest(state, 'jobs', (d) => d.kind === 'crawl') };
      case 'firecrawl_agent_status': return { id: newest(state, 'jobs', (d) => d.kind === 'agent') };
      case 'firecrawl_interact_stop': return { scrapeId: newest(state, 'scrapes') };
      case 'firecrawl_monitor_delete': return { id: newest(state, 'monitors', (d) => d.id !== SEEDED_MONITOR) };
      case 'firecrawl_monitor_check': return { id: SEEDED_MONITOR, checkId: newest(state, 'monitor_checks') };
      default: return FIXED[tool.name] ?? {};
    }
  },
};
