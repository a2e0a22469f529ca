import { jsonResponse } from '../core/http.js';
import { defineService, operation, rest, ServiceError, type Middleware } from '../kit/index.js';
import { blockOperations } from './blocks.js';
import { NotionDatasetSchema, type NotionDataset } from './dataset.js';
import { flatValue, plainText, titleOf, type Obj } from './model.js';
import { pageOperations } from './pages.js';
import { pageOf } from './query.js';
import { childrenOf, collectionsOf, loadDataset, lookup, notionContext, type NotionCollections, type NotionContext } from './store.js';

/**
 * Notion (api.notion.com/v1, API version 2025-09-03): pages and database rows, databases and
 * their data sources with queries, blocks, comments, users and search, answered from the store
 * by hand-written handlers for every operation of Notion's OpenAPI description (the one its MCP
 * server ships). docs/notion-mock.md has the dataset format and what is modelled.
 */

const VERSIONS = /^20\d\d-\d\d-\d\d$/;

/** A bearer token the dataset lists, then a Notion-Version header, as Notion checks them. */
const auth: Middleware<NotionContext> = (req, context, next) => {
  if (context.caller === null) throw new ServiceError(401, 'unauthorized', 'API token is invalid.');
  const version = req.header('notion-version');
  if (version === undefined) throw new ServiceError(400, 'missing_version', 'Notion-Version header failed validation: Notion-Version header should be defined, instead was `undefined`.');
  if (!VERSIONS.test(version)) throw new ServiceError(400, 'validation_error', `Notion-Version header failed validation: Notion-Version header should be a date like 2025-09-03, instead was \`"${version}"\`.`);
  return next();
};

const templates = operation<NotionContext, '/v1/data_sources/:data_source_id/templates', Record<string, string | string[]>>('dataSources.listTemplates',
  rest('GET', '/v1/data_sources/:data_source_id/templates'), (call, c) => {
    lookup(c.dataSources, call.params.data_source_id, 'data_source');
    // The mock keeps no templates: every source answers an empty list in Notion's shape.
    const page = pageOf([], call.query.start_cursor, call.query.page_size);
    return jsonResponse(200, { templates: page.results, has_more: page.has_more, next_cursor: page.next_cursor });
  });

/** Notion's answer for an injected fault. */
const FAULTS: Record<string, [number, string, string]> = {
  '429': [429, 'rate_limited', 'You have been rate limited. Please try again in a few minutes.'],
  '500': [500, 'internal_server_error', 'Unexpected error occurred.'],
  '502': [502, 'bad_gateway', 'Notion encountered an issue while attempting to complete this request. Please try again.'],
  '503': [503, 'service_unavailable', 'Notion is unavailable, please try again later.'],
  reset: [502, 'bad_gateway', 'Notion encountered an issue while attempting to complete this request. Please try again.'],
  timeout: [504, 'gateway_timeout', 'Notion timed out while attempting to complete this request. Please try again later.'],
};

const errorBody = (status: number, code: string, message: string) => ({ object: 'error', status, code, message });

export const notionService = defineService<NotionDataset, NotionContext>({
  id: 'notion',
  // Bump when any answer changes a byte: journals of this service then need a re-record.
  version: '1',
  dataset: NotionDatasetSchema,
  load: loadDataset,
  context: (req, ctx) => notionContext(req.header('authorization'), ctx),
  middleware: [auth],
  operations: [...pageOperations, ...blockOperations, templates],
  errors: (error) => jsonResponse(error.status, errorBody(error.status, error.code, error.message), [...error.headers]),
  refusal: (reason, detail) => {
    switch (reason) {
      case 'invalid_params': {
        const issue = detail.issues?.[0];
        return new ServiceError(400, 'validation_error', `body failed validation: ${[detail.where ?? 'body', ...(issue?.path ?? [])].join('.')} ${issue?.message ?? 'is invalid'}.`);
      }
      case 'malformed_body': return new ServiceError(400, 'invalid_json', 'Error parsing JSON body.');
      case 'unauthenticated': return new ServiceError(401, 'unauthorized', 'API token is invalid.');
      case 'payload_too_large': return new ServiceError(413, 'payload_too_large', 'Request body too large.');
      case 'internal_error': return new ServiceError(500, 'internal_server_error', 'Unexpected error occurred.');
      default: return new ServiceError(400, 'invalid_request_url', 'Invalid request URL.');
    }
  },
  fault: (order) => {
    const [status, code, message] = FAULTS[order.kind] ?? FAULTS['500']!;
    const retry: [string, string][] = status === 429 || status === 503 ? [['Retry-After', String(order.retryAfter)]] : [];
    return jsonResponse(status, errorBody(status, code, message), retry);
  },
  // Seeded IDs and logical times. Pages and blocks are graded through the views below (what a
  // person sees: a row's values, a page's title, place and text), not leaf by leaf.
  volatile: {
    pages: '*',
    blocks: '*',
    comments: ['id', 'discussion_id', 'created_time', 'last_edited_time'],
    data_sources: ['id', 'created_time', 'last_edited_time', 'last_edited_by'],
    databases: ['last_edited_time'],
  },
  /**
   * For graders: `rows`, every database row with its properties flat (title text, an option's
   * name, user IDs, a date's start) and its content; `page_text`, every other page's title, parent (an ID or
   * `workspace`), icon, and content as plain lines (to-dos as `[ ]`/`[x]`).
   */
  views: (store) => {
    const c = collectionsOf(store);
    const rows: Record<string, unknown> = {};
    const text: Record<string, unknown> = {};
    for (const page of c.pages.values()) {
      const parent = page.parent as Obj;
      if (parent.type === 'data_source_id') {
        rows[String(page.id)] = {
          id: page.id, data_source_id: parent.data_source_id, database_id: parent.database_id, title: titleOf(page), in_trash: page.in_trash,
          properties: Object.fromEntries(Object.entries(page.properties as Record<string, Obj>).map(([name, v]) => [name, flatValue(v)])),
          text: pageText(c, String(page.id)),
        };
        continue;
      }
      const icon = page.icon as Obj | null;
      text[String(page.id)] = {
        id: page.id, title: titleOf(page), in_trash: page.in_trash, parent: parent[parent.type as string] === true ? 'workspace' : parent[parent.type as string],
        icon: icon === null ? null : icon.emoji ?? (icon.external as Obj | undefined)?.url ?? null, text: pageText(c, String(page.id)),
      };
    }
    return { rows, page_text: text };
  },
});

/** A page's blocks as plain lines (to-dos marked `[ ]`/`[x]`), for graders. */
function pageText(c: Pick<NotionCollections, 'blocks'>, parentId: string, depth = 0): string {
  return childrenOf(c, parentId).map((block) => {
    const content = block[block.type as string] as Obj;
    const mark = block.type === 'to_do' ? (content.checked === true ? '[x] ' : '[ ] ') : '';
    const line = `${'  '.repeat(depth)}${mark}${plainText(content.rich_text)}`;
    return block.has_children === true ? `${line}\n${pageText(c, String(block.id), depth + 1)}` : line;
  }).join('\n');
}
