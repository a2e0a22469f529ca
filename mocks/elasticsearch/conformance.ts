import type { SweepProfile } from '../kit/sweep-profile.js';

/**
 * How the conformance suite and `toolbench coverage` call the four tools of Elastic's MCP server
 * in the conformance world (mocks/elasticsearch/conformance): indices, mappings and shards of the
 * log indices, and a search with a filter, a sort and an aggregation (the server always adds
 * highlighting on the index's text fields).
 */
const ARGS: Record<string, Record<string, unknown>> = {
  list_indices: { indexPattern: 'logs-*' },
  get_mappings: { index: 'kb-articles' },
  get_shards: { index: 'logs-app-2025.11.17' },
  search: {
    // The concrete index: the server reads highlightable fields from the mapping under the name it
    // was given, and a mapping answer is keyed by concrete index, so through an alias it highlights nothing.
    index: 'logs-app-2025.11.17',
    queryBody: {
      query: { bool: { must: [{ match: { message: 'order' } }], filter: [{ term: { 'service.name': 'payments' } }] } },
      sort: [{ '@timestamp': 'desc' }],
      size: 3,
      aggs: { levels: { terms: { field: 'log.level' } } },
    },
  },
};

export const sweep: SweepProfile = {
  scenario: 'mocks/elasticsearch/conformance',
  argsFor: (tool) => ARGS[tool.name] ?? {},
};
