import type { SweepProfile } from '../kit/sweep-profile.js';

/** How the conformance suite and `toolbench coverage` call all 5 tools of tavily-mcp in the story corpus. */
const ARGS: Record<string, Record<string, unknown>> = {
  tavily_search: { query: 'quillstack default pool max_connections', max_results: 5 },
  tavily_extract: { urls: ['https://quillstack.dev/blog/quillstack-4-0-released', 'https://quillstack.dev/no-such-page'] },
  tavily_crawl: { url: 'https://quillstack.dev/docs', max_depth: 1, limit: 10 },
  tavily_map: { url: 'https://quillstack.dev/docs', max_depth: 2 },
  tavily_research: { input: 'Meridian Rail strike date', model: 'mini' },
};

export const sweep: SweepProfile = {
  scenario: 'mocks/tavily/conformance',
  argsFor: (tool) => ARGS[tool.name] ?? {},
};
