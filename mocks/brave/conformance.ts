import type { SweepProfile } from '../kit/sweep-profile.js';

/**
 * How the conformance suite and `toolbench coverage` call all 8 tools of Brave's MCP server in the
 * story corpus (mocks/brave/conformance): queries that find pages, videos, images and places, and
 * a summarizer key as web search hands it out (the mock reads the query back from the key).
 */
const key = JSON.stringify({ query: 'quillstack default pool size', country: 'us', language: 'en', safesearch: 'moderate', results_hash: '0' });

const ARGS: Record<string, Record<string, unknown>> = {
  brave_web_search: { query: 'quillstack default pool max_connections', count: 5, extra_snippets: true },
  brave_local_search: { query: 'bakery Bellmont' },
  brave_video_search: { query: 'Quillstack 4.0 keynote' },
  brave_image_search: { query: 'Bellmont library' },
  brave_news_search: { query: 'Meridian Rail strike' },
  brave_summarizer: { key, inline_references: true },
  brave_llm_context: { query: 'Meridian Rail strike date' },
  brave_place_search: { query: 'bakery', location: 'bellmont me united states' },
};

export const sweep: SweepProfile = {
  scenario: 'mocks/brave/conformance',
  argsFor: (tool) => ARGS[tool.name] ?? {},
};
