import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

/** How many tools one search returns at most, and without `limit`. */
export const MAX_LIMIT = 50;
export const DEFAULT_LIMIT = 10;

export const SearchArgumentsSchema = z.object({
  query: z.string().refine((text) => text.trim().length > 0, 'give some words, e.g. "create issue"'),
  limit: z.number().int().min(1).max(MAX_LIMIT).default(DEFAULT_LIMIT),
}).strict();

export const CallArgumentsSchema = z.object({
  name: z.string().min(1),
  arguments: z.record(z.unknown()).default({}),
}).strict();

/**
 * The router's whole tool list: all an agent of the router arm sees up front (and all that
 * `toolmeter` counts for that arm). Fixed text, the same in every trial, whatever endpoints run.
 */
export const ROUTER_TOOLS: Tool[] = [
  {
    name: 'search_tools',
    description: 'Search the tools of every MCP server in this environment by what they do. Returns the best matches, '
      + 'each with its full definition: its qualified name (<server>__<tool>, e.g. github__create_issue), the server that owns it, '
      + 'its description and its inputSchema. Run a tool found here with call_tool.',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'Words for the task, e.g. "create an issue" or "refund a charge"; tool names, descriptions and parameter names are searched' },
        limit: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT, description: `How many tools to return (default ${DEFAULT_LIMIT})` },
      },
      required: ['query'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: 'call_tool',
    description: 'Run a tool that search_tools found, by its qualified name, with arguments that follow its inputSchema. '
      + 'Returns that tool\'s own result.',
    inputSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'The qualified name search_tools gave, <server>__<tool>, e.g. github__create_issue' },
        arguments: { type: 'object', description: 'The tool\'s arguments, as its inputSchema asks', additionalProperties: true },
      },
      required: ['name'],
      additionalProperties: false,
    },
  },
];
