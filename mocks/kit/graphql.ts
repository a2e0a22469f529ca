import {
  buildSchema, execute, GraphQLError, Kind, parse, validate,
  type DocumentNode, type ExecutionResult, type GraphQLFieldResolver, type GraphQLSchema, type GraphQLTypeResolver, type OperationDefinitionNode,
} from 'graphql';
import type { ServiceRequest, ServiceResponse } from '../core/http.js';
import type { DecodedBody, GraphQLBody } from './bodies.js';
import { graphqlRoute, type Call, type Operation } from './operation.js';

/**
 * GraphQL for a kit service: the service's SDL, resolvers over its store, executed synchronously
 * by graphql-js (parse → validate → execute, no promises), so a request is answered in one
 * synchronous step like any handler and the same document gives the same bytes. Operations are
 * named by root field: `Query.issues`, `Mutation.issueCreate`.
 */

const schemas = new Map<string, GraphQLSchema>();

/** The schema of an SDL, built once per process (building a large SDL takes ~100 ms). */
export function schemaFromSDL(sdl: string): GraphQLSchema {
  let schema = schemas.get(sdl);
  if (!schema) {
    schema = buildSchema(sdl);
    schemas.set(sdl, schema);
  }
  return schema;
}

// Clients send the same few documents again and again: parse and validate each once. The caches
// only save time; what they hold is a pure function of the text, so answers never depend on them.
const CACHE_LIMIT = 2000;
const parsed = new Map<string, DocumentNode | GraphQLError>();
const validated = new WeakMap<GraphQLSchema, Map<string, readonly GraphQLError[]>>();

function remember<K, V>(map: Map<K, V>, key: K, value: V): V {
  if (map.size >= CACHE_LIMIT) map.clear();
  map.set(key, value);
  return value;
}

/** The document of a query text, or the syntax error. */
export function parseDocument(query: string): DocumentNode | GraphQLError {
  const hit = parsed.get(query);
  if (hit) return hit;
  let result: DocumentNode | GraphQLError;
  try {
    result = parse(query);
  } catch (error) {
    if (!(error instanceof GraphQLError)) throw error;
    result = error;
  }
  return remember(parsed, query, result);
}

/** The operation a request runs: the one named `operationName`, or the only one. */
export function selectOperation(document: DocumentNode, operationName: string | null): OperationDefinitionNode | null {
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (operationName) return operations.find((o) => o.name?.value === operationName) ?? null;
  return operations.length === 1 ? operations[0]! : null;
}

/**
 * `Query.issues`, `Mutation.issueCreate`: the operation's type and its first root field (not
 * `__typename`; root fields pulled in by a fragment spread count). Null when the document does
 * not parse or names no operation; an introspection-only query is `Query.__schema`/`Query.__type`.
 */
export function rootFieldName(body: GraphQLBody): string | null {
  const document = parseDocument(body.query);
  if (document instanceof GraphQLError) return null;
  const operation = selectOperation(document, body.operationName);
  if (!operation) return null;
  const type = operation.operation === 'query' ? 'Query' : operation.operation === 'mutation' ? 'Mutation' : 'Subscription';
  const fragments = new Map(document.definitions.flatMap((d) => d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : []));
  const seen = new Set<string>();
  const first = (selections: OperationDefinitionNode['selectionSet']['selections']): string | null => {
    for (const selection of selections) {
      if (selection.kind === Kind.FIELD) {
        if (selection.name.value !== '__typename') return selection.name.value;
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const inner = first(selection.selectionSet.selections);
        if (inner) return inner;
      } else if (!seen.has(selection.name.value)) {
        seen.add(selection.name.value);
        const fragment = fragments.get(selection.name.value);
        const inner = fragment ? first(fragment.selectionSet.selections) : null;
        if (inner) return inner;
      }
    }
    return null;
  };
  const field = first(operation.selectionSet.selections);
  return field ? `${type}.${field}` : null;
}

/** Every name {@link rootFieldName} can give a request to `schema`, introspection's included. */
export function rootFieldNames(schema: GraphQLSchema): string[] {
  const names = ['Query.__schema', 'Query.__type'];
  for (const [prefix, type] of [['Query', schema.getQueryType()], ['Mutation', schema.getMutationType()], ['Subscription', schema.getSubscriptionType()]] as const) {
    for (const field of Object.keys(type?.getFields() ?? {})) names.push(`${prefix}.${field}`);
  }
  return names;
}

export interface ExecuteOptions<C> {
  rootValue?: unknown;
  contextValue: C;
  fieldResolver?: GraphQLFieldResolver<any, C>;
  typeResolver?: GraphQLTypeResolver<any, C>;
}

/**
 * What happened to a request: `syntax` (the query does not parse), `invalid` (it fails the
 * schema's validation: an unknown field, a wrong argument), `no-operation` (operationName names
 * none), or `executed` (the result may still carry resolver errors). Services map each to their
 * HTTP status and error envelope.
 */
export type GraphQLOutcome =
  | { kind: 'syntax' | 'invalid' | 'no-operation'; errors: readonly GraphQLError[] }
  | { kind: 'executed'; result: ExecutionResult };

export function executeGraphQL<C>(schema: GraphQLSchema, body: GraphQLBody, options: ExecuteOptions<C>): GraphQLOutcome {
  const document = parseDocument(body.query);
  if (document instanceof GraphQLError) return { kind: 'syntax', errors: [document] };
  let bySchema = validated.get(schema);
  if (!bySchema) validated.set(schema, bySchema = new Map());
  const errors = bySchema.get(body.query) ?? remember(bySchema, body.query, validate(schema, document));
  if (errors.length > 0) return { kind: 'invalid', errors };
  if (!selectOperation(document, body.operationName)) {
    const message = body.operationName ? `Unknown operation named "${body.operationName}".` : 'Must provide operation name if query contains multiple operations.';
    return { kind: 'no-operation', errors: [new GraphQLError(message)] };
  }
  const result = execute({
    schema,
    document,
    rootValue: options.rootValue,
    contextValue: options.contextValue,
    variableValues: body.variables,
    operationName: body.operationName,
    ...(options.fieldResolver ? { fieldResolver: options.fieldResolver } : {}),
    ...(options.typeResolver ? { typeResolver: options.typeResolver } : {}),
  });
  // A resolver that returned a promise would make the answer depend on the event loop.
  if (result instanceof Promise) throw new Error('GraphQL execution must be synchronous: a resolver returned a promise');
  return { kind: 'executed', result };
}

/**
 * The one operation of a GraphQL endpoint (`POST /graphql`): each request is named by its root
 * field; `handle` executes it (usually with `executeGraphQL`) and renders the result.
 */
export function graphqlOperation<C>(
  path: string,
  handle: (call: Call<Record<string, string>, Record<string, string | string[]>, GraphQLBody>, context: C) => ServiceResponse,
  options: { method?: string; schema?: () => GraphQLSchema } = {},
): Operation<C> {
  const { schema } = options;
  return {
    name: 'graphql',
    matcher: graphqlRoute(path, options.method ?? 'POST'),
    // Without a schema (GitLab's answers every field null) the names are open.
    ...(schema ? { names: () => rootFieldNames(schema()) } : {}),
    nameOf: (_req: ServiceRequest, decoded: () => DecodedBody) => {
      let body: DecodedBody;
      try {
        body = decoded();
      } catch {
        return null;
      }
      return body.kind === 'graphql' ? rootFieldName(body.value) : null;
    },
    handle,
  };
}
