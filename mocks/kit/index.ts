/**
 * The service kit: what every mocked service is built from (docs/authoring-service.md).
 * A service is `defineService({...})` over operations; conventions (pagination, error
 * envelopes, auth, IDs, bodies) are small modules here, written and tested once.
 */
export { decodeBody, parseNestedForm, bodyForPredicates, type DecodedBody, type FormValue, type GraphQLBody } from './bodies.js';
export { defineService, queryObject, actionName, type KitServiceSpec, type Middleware, type Fallback, type Matched, type RefusalDetail } from './define.js';
export { ServiceError, type ErrorStyle, type KitRefusal } from './errors.js';
export { numericId, prefixedId, uuidId, slackStyleId } from './ids.js';
export { action, graphqlRoute, operation, rest, type Call, type Matcher, type Operation, type OperationInput } from './operation.js';
export { specFallback, type SpecFallback, type SpecFallbackOptions, type SpecOperation, type ListPage, type OpenApiDocument } from './spec-fallback.js';
export { pruneSpec, openapiToJsonSchema, loadSpec } from './openapi.js';
export { unifiedDiff } from './text-diff.js';
