import { Kind, type OperationDefinitionNode } from 'graphql';
import { jsonResponse } from '../core/http.js';
import { graphqlOperation, parseDocument, selectOperation } from '../kit/graphql.js';
import type { Operation } from '../kit/operation.js';
import type { GlCtx } from './context.js';

/**
 * GitLab's GraphQL API (`POST /api/graphql`), which the server's work-item, emoji-reaction,
 * incident-timeline, vulnerability and CI-catalog tools use. This mock keeps no GraphQL schema:
 * every root field answers `null`, as GitLab does for a namespace or object the caller cannot see,
 * and every mutation with GitLab's "resource does not exist" error for its field. Requests are
 * still named by root field (`Query.namespace`, `Mutation.workItemCreate`) in the journal.
 */

const NOT_FOUND = "The resource that you are attempting to access does not exist or you don't have permission to perform this action";

export const graphqlOperations: Operation<GlCtx>[] = [
  graphqlOperation<GlCtx>('/api/graphql', (call) => {
    if (call.decoded.kind !== 'graphql') return jsonResponse(200, { errors: [{ message: 'No query string was present' }] });
    const document = parseDocument(call.body.query);
    if (!('definitions' in document)) return jsonResponse(200, { errors: [{ message: document.message, locations: document.locations ?? [] }] });
    const op: OperationDefinitionNode | null = selectOperation(document, call.body.operationName);
    if (!op) return jsonResponse(200, { errors: [{ message: 'An operation name is required' }] });
    const fields = op.selectionSet.selections.flatMap((s) => (s.kind === Kind.FIELD && s.name.value !== '__typename' ? [{ key: s.alias?.value ?? s.name.value, loc: s.loc }] : []));
    const data = Object.fromEntries(fields.map((f) => [f.key, null]));
    if (op.operation === 'mutation') {
      return jsonResponse(200, { data, errors: fields.map((f) => ({ message: NOT_FOUND, locations: [{ line: f.loc?.startToken.line ?? 1, column: f.loc?.startToken.column ?? 1 }], path: [f.key] })) });
    }
    return jsonResponse(200, { data });
  }),
];
