import { emptyResponse, ServiceRequest } from '../core/http.js';
import { loadSpec } from '../kit/openapi.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import { specFallback, type OpenApiDocument } from '../kit/spec-fallback.js';
import type { AtlasCtx } from './context.js';
import { atlasError, objectId } from './model.js';
import { page, PageQuery } from './pages.js';

/**
 * Atlas's OpenAPI description, pruned to the paths the MCP server's API client calls
 * (spec/atlas-admin-v2.json; docs/provenance.md), each answer kept in the one versioned media
 * type the client's `application/vnd.atlas.2025-03-12+json` resolves to. It answers what no
 * handler takes (Atlas Stream Processing: workspaces, connections, processors, private links),
 * and tells every operation's resource version for the `Content-Type`.
 */
export const atlasSpec: OpenApiDocument = loadSpec(import.meta.url, './spec/atlas-admin-v2.json');

/** operationId → the resource version its success answer is in (`2024-08-05`). */
export const resourceVersions: ReadonlyMap<string, string> = new Map(Object.values(atlasSpec.paths).flatMap((item) =>
  Object.values(item as Record<string, { operationId?: string; responses?: Record<string, { content?: Record<string, unknown> }> }>)
    .flatMap((op) => {
      const success = Object.entries(op.responses ?? {}).find(([code]) => code.startsWith('2'))?.[1];
      const version = Object.keys(success?.content ?? {}).map((t) => /vnd\.atlas\.(\d{4}-\d{2}-\d{2})/.exec(t)?.[1]).find((v) => v !== undefined);
      return op.operationId && version ? [[op.operationId, version] as const] : [];
    })));

export const atlasFallback = specFallback<AtlasCtx>({
  spec: atlasSpec,
  notFound: (resource, id) => atlasError(404, 'RESOURCE_NOT_FOUND', `Cannot find resource ${resource} ${id}.`, [resource, id]),
  invalid: (param) => atlasError(400, 'MISSING_ATTRIBUTE', `The required attribute ${param} was not specified.`, [param]),
  malformed: () => atlasError(400, 'INVALID_JSON', 'Received JSON is malformed.'),
  id: (ctx) => objectId(ctx, 'spec', ctx.epochMs),
  paginate: (items, p) => page(p.path, items as Record<string, unknown>[], PageQuery.parse(Object.fromEntries(p.req.query))),
});

/**
 * Atlas's custom methods (`…/processor/{name}:start`, `…/vpcPeeringConnections/{id}:accept`) put
 * a verb after a parameter in one path segment; routed as `…/{name}/~start` so a matcher can
 * take them (the journal keeps the request as sent).
 */
export function customMethodRewrite(req: ServiceRequest): ServiceRequest {
  const m = /^(\/api\/atlas\/v2\/groups\/[^/]+\/streams\/.+?):(start|startWith|stop|accept|reject|downloadOperationalLogs)(\?.*)?$/.exec(req.target);
  return m ? new ServiceRequest(req.method, `${m[1]}/~${m[2]}${m[3] ?? ''}`, req.headers, req.body) : req;
}

const STREAMS = '/api/atlas/v2/groups/:groupId/streams';

/** VPC peering requests belong to the project's cloud account: answered as accepted or rejected, not kept. */
export const customMethodOperations: Operation<AtlasCtx>[] = [
  operation<AtlasCtx, `${typeof STREAMS}/vpcPeeringConnections/:id/~accept`>('acceptVpcPeeringConnection', rest('POST', `${STREAMS}/vpcPeeringConnections/:id/~accept`), () => emptyResponse(202)),
  operation<AtlasCtx, `${typeof STREAMS}/vpcPeeringConnections/:id/~reject`>('rejectVpcPeeringConnection', rest('POST', `${STREAMS}/vpcPeeringConnections/:id/~reject`), () => emptyResponse(202)),
  operation<AtlasCtx, `${typeof STREAMS}/vpcPeeringConnections/:id`>('deleteVpcPeeringConnection', rest('DELETE', `${STREAMS}/vpcPeeringConnections/:id`), () => emptyResponse(202)),
  operation<AtlasCtx, `${typeof STREAMS}/:tenantName/~downloadOperationalLogs`>('downloadOperationalLogs', rest('GET', `${STREAMS}/:tenantName/~downloadOperationalLogs`), () =>
    ({ status: 200, headers: [['Content-Type', 'application/vnd.atlas.2025-03-12+gzip']], body: new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0]) })),
];
