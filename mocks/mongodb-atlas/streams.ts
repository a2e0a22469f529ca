import { z } from 'zod';
import { emptyResponse, jsonResponse } from '../core/http.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import type { AtlasCtx } from './context.js';
import { API, atlasError, groupNotFound, objectId, selfLinks, type Json } from './model.js';
import { page, PageQuery } from './pages.js';

/**
 * Atlas Stream Processing: workspaces (the API's "tenants"), their connections and processors,
 * all addressed by name as the Admin API does (`/streams/{tenantName}/processor/{processorName}`),
 * with processors moving between CREATED, STARTED and STOPPED. Private links and account
 * details are the spec fallback's. Custom methods (`…:start`) arrive rewritten as `…/~start`.
 */

const S = '/api/atlas/v2/groups/:groupId/streams';
const workspaces = (c: AtlasCtx) => c.ctx.store.collection<Json & { name: string; groupId: string }>('stream_workspaces');
const connections = (c: AtlasCtx) => c.ctx.store.collection<Json & { name: string }>('stream_connections');
const processors = (c: AtlasCtx) => c.ctx.store.collection<Json & { name: string; state: string }>('stream_processors');
const key = (...parts: string[]) => parts.join('/');

function workspaceOf(c: AtlasCtx, groupId: string, name: string): Json & { name: string; groupId: string } {
  if (!c.db.projects.has(groupId)) throw groupNotFound(groupId);
  const ws = workspaces(c).get(key(groupId, name));
  if (!ws) throw atlasError(404, 'STREAM_TENANT_NOT_FOUND_FOR_NAME', `No stream workspace with name ${name} exists in group ${groupId}.`, [name, groupId]);
  return ws;
}

function processorOf(c: AtlasCtx, groupId: string, tenant: string, name: string): Json & { name: string; state: string } {
  workspaceOf(c, groupId, tenant);
  const p = processors(c).get(key(groupId, tenant, name));
  if (!p) throw atlasError(404, 'STREAM_PROCESSOR_NOT_FOUND', `Stream processor ${name} not found in workspace ${tenant}.`, [name, tenant]);
  return p;
}

const Region = z.object({ cloudProvider: z.string().min(1), region: z.string().min(1) }).passthrough();
const WorkspaceBody = z.object({
  name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/),
  dataProcessRegion: Region,
  streamConfig: z.object({ tier: z.string().optional(), maxTierSize: z.string().optional() }).passthrough().optional(),
}).passthrough();
type WorkspaceBody = z.infer<typeof WorkspaceBody>;
const WorkspacePatch = z.object({ cloudProvider: z.string().optional(), region: z.string().optional(), streamConfig: z.record(z.unknown()).optional() }).passthrough();
type WorkspacePatch = z.infer<typeof WorkspacePatch>;
const NamedBody = z.object({ name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/) }).passthrough();
type NamedBody = z.infer<typeof NamedBody>;
const AnyBody = z.record(z.unknown());
type AnyBody = z.infer<typeof AnyBody>;

function renderWorkspace(c: AtlasCtx, ws: Json & { name: string; groupId: string }): Json {
  const conns = connections(c).entries().filter(([k]) => k.startsWith(`${key(ws.groupId, ws.name)}/`)).map(([, v]) => v);
  return { ...ws, connections: conns, links: selfLinks(`${API}/groups/${ws.groupId}/streams/${ws.name}`) };
}

function createWorkspace(c: AtlasCtx, groupId: string, body: WorkspaceBody, sample: boolean): Json & { name: string; groupId: string } {
  if (!c.db.projects.has(groupId)) throw groupNotFound(groupId);
  if (workspaces(c).has(key(groupId, body.name))) throw atlasError(409, 'STREAM_TENANT_NAME_ALREADY_EXISTS', `A stream workspace named ${body.name} already exists.`, [body.name]);
  const id = objectId(c.ctx, 'stream-workspace', c.ctx.nowMs);
  const ws = workspaces(c).put(key(groupId, body.name), {
    _id: id, groupId, name: body.name, dataProcessRegion: body.dataProcessRegion,
    streamConfig: { tier: body.streamConfig?.tier ?? 'SP30', ...(body.streamConfig?.maxTierSize ? { maxTierSize: body.streamConfig.maxTierSize } : {}) },
    hostnames: [`atlas-stream-${id}-${String(body.dataProcessRegion.region).toLowerCase().replace(/_/g, '-')}.a.query.mongodb.net`],
  });
  if (sample) connections(c).put(key(groupId, body.name, 'sample_stream_solar'), { name: 'sample_stream_solar', type: 'Sample', state: 'READY' });
  return ws;
}

/** The spec fallback keeps private-link connections (POST …/privateLinkConnections); its collection, as the kit names it. */
const PRIVATE_LINKS = 'spec:/api/atlas/v2/groups/{groupId}/streams/privateLinkConnections';

export const streamOperations: Operation<AtlasCtx>[] = [
  // Literal segments the `{tenantName}` routes would otherwise take.
  operation<AtlasCtx, `${typeof S}/accountDetails`>('getAccountDetails', rest('GET', `${S}/accountDetails`), (call, c) => {
    const { groupId } = call.params;
    if (!c.db.projects.has(groupId)) throw groupNotFound(groupId);
    const provider = call.req.query.get('cloudProvider') ?? 'aws';
    return jsonResponse(200, { awsAccountId: '974404375205', cidrBlock: '192.168.248.0/21', cloudProvider: provider, vpcId: `vpc-${c.ctx.ids.opaque('stream-vpc', groupId, 17)}` });
  }),
  operation<AtlasCtx, `${typeof S}/privateLinkConnections`, PageQuery>('listPrivateLinkConnections', rest('GET', `${S}/privateLinkConnections`), (call, c) => {
    const { groupId } = call.params;
    if (!c.db.projects.has(groupId)) throw groupNotFound(groupId);
    const prefix = `${API}/groups/${groupId}/streams/privateLinkConnections/`;
    const list = c.ctx.store.collection<Json>(PRIVATE_LINKS).entries().filter(([k]) => k.startsWith(prefix)).map(([, v]) => v);
    return jsonResponse(200, page(`${API}/groups/${groupId}/streams/privateLinkConnections`, list, call.query));
  }, { input: { query: PageQuery } }),
  operation<AtlasCtx, typeof S, PageQuery>('listStreamWorkspaces', rest('GET', S), (call, c) => {
    const { groupId } = call.params;
    if (!c.db.projects.has(groupId)) throw groupNotFound(groupId);
    const list = workspaces(c).values().filter((w) => w.groupId === groupId).map((w) => renderWorkspace(c, w));
    return jsonResponse(200, page(`${API}/groups/${groupId}/streams`, list, call.query));
  }, { input: { query: PageQuery } }),
  operation<AtlasCtx, typeof S, Record<string, string>, WorkspaceBody>('createStreamWorkspace', rest('POST', S), (call, c) =>
    jsonResponse(200, renderWorkspace(c, createWorkspace(c, call.params.groupId, call.body, false))), { input: { body: WorkspaceBody } }),
  operation<AtlasCtx, '/api/atlas/v2/groups/:groupId/streams:withSampleConnections', Record<string, string>, WorkspaceBody>('withStreamSampleConnections',
    rest('POST', '/api/atlas/v2/groups/:groupId/streams:withSampleConnections'), (call, c) =>
      jsonResponse(200, renderWorkspace(c, createWorkspace(c, call.params.groupId, call.body, true))), { input: { body: WorkspaceBody } }),
  operation<AtlasCtx, `${typeof S}/:tenantName`>('getStreamWorkspace', rest('GET', `${S}/:tenantName`), (call, c) =>
    jsonResponse(200, renderWorkspace(c, workspaceOf(c, call.params.groupId, call.params.tenantName)))),
  operation<AtlasCtx, `${typeof S}/:tenantName`, Record<string, string>, WorkspacePatch>('updateStreamWorkspace', rest('PATCH', `${S}/:tenantName`), (call, c) => {
    const ws = workspaceOf(c, call.params.groupId, call.params.tenantName);
    const region = ws.dataProcessRegion as Json;
    const updated = workspaces(c).put(key(ws.groupId, ws.name), {
      ...ws,
      dataProcessRegion: { ...region, ...(call.body.cloudProvider ? { cloudProvider: call.body.cloudProvider } : {}), ...(call.body.region ? { region: call.body.region } : {}) },
      streamConfig: { ...(ws.streamConfig as Json), ...(call.body.streamConfig ?? {}) },
    });
    return jsonResponse(200, renderWorkspace(c, updated));
  }, { input: { body: WorkspacePatch } }),
  operation<AtlasCtx, `${typeof S}/:tenantName`>('deleteStreamWorkspace', rest('DELETE', `${S}/:tenantName`), (call, c) => {
    const ws = workspaceOf(c, call.params.groupId, call.params.tenantName);
    const prefix = `${key(ws.groupId, ws.name)}/`;
    for (const [k] of connections(c).entries()) if (k.startsWith(prefix)) connections(c).delete(k);
    for (const [k] of processors(c).entries()) if (k.startsWith(prefix)) processors(c).delete(k);
    workspaces(c).delete(key(ws.groupId, ws.name));
    return emptyResponse(202);
  }),

  operation<AtlasCtx, `${typeof S}/:tenantName/connections`, PageQuery>('listStreamConnections', rest('GET', `${S}/:tenantName/connections`), (call, c) => {
    const ws = workspaceOf(c, call.params.groupId, call.params.tenantName);
    const list = connections(c).entries().filter(([k]) => k.startsWith(`${key(ws.groupId, ws.name)}/`)).map(([, v]) => v);
    return jsonResponse(200, page(`${API}/groups/${ws.groupId}/streams/${ws.name}/connections`, list, call.query));
  }, { input: { query: PageQuery } }),
  operation<AtlasCtx, `${typeof S}/:tenantName/connections`, Record<string, string>, NamedBody>('createStreamConnection', rest('POST', `${S}/:tenantName/connections`), (call, c) => {
    const ws = workspaceOf(c, call.params.groupId, call.params.tenantName);
    const k = key(ws.groupId, ws.name, call.body.name);
    if (connections(c).has(k)) throw atlasError(409, 'STREAMS_CONNECTION_NAME_ALREADY_EXISTS', `A connection named ${call.body.name} already exists.`, [call.body.name]);
    if (typeof call.body.type !== 'string') throw atlasError(400, 'MISSING_ATTRIBUTE', 'The required attribute type was not specified.', ['type']);
    return jsonResponse(200, connections(c).put(k, { ...call.body, state: 'READY' }));
  }, { input: { body: NamedBody } }),
  operation<AtlasCtx, `${typeof S}/:tenantName/connections/:connectionName`>('getStreamConnection', rest('GET', `${S}/:tenantName/connections/:connectionName`), (call, c) => {
    const ws = workspaceOf(c, call.params.groupId, call.params.tenantName);
    const conn = connections(c).get(key(ws.groupId, ws.name, call.params.connectionName));
    if (!conn) throw atlasError(404, 'STREAMS_CONNECTION_NOT_FOUND', `Connection ${call.params.connectionName} not found.`, [call.params.connectionName]);
    return jsonResponse(200, conn);
  }),
  operation<AtlasCtx, `${typeof S}/:tenantName/connections/:connectionName`, Record<string, string>, AnyBody>('updateStreamConnection', rest('PATCH', `${S}/:tenantName/connections/:connectionName`), (call, c) => {
    const ws = workspaceOf(c, call.params.groupId, call.params.tenantName);
    const k = key(ws.groupId, ws.name, call.params.connectionName);
    const conn = connections(c).get(k);
    if (!conn) throw atlasError(404, 'STREAMS_CONNECTION_NOT_FOUND', `Connection ${call.params.connectionName} not found.`, [call.params.connectionName]);
    return jsonResponse(200, connections(c).put(k, { ...conn, ...call.body, name: conn.name }));
  }, { input: { body: AnyBody } }),
  operation<AtlasCtx, `${typeof S}/:tenantName/connections/:connectionName`>('deleteStreamConnection', rest('DELETE', `${S}/:tenantName/connections/:connectionName`), (call, c) => {
    const ws = workspaceOf(c, call.params.groupId, call.params.tenantName);
    if (!connections(c).delete(key(ws.groupId, ws.name, call.params.connectionName))) throw atlasError(404, 'STREAMS_CONNECTION_NOT_FOUND', `Connection ${call.params.connectionName} not found.`, [call.params.connectionName]);
    return emptyResponse(202);
  }),

  operation<AtlasCtx, `${typeof S}/:tenantName/processors`, PageQuery>('getStreamProcessors', rest('GET', `${S}/:tenantName/processors`), (call, c) => {
    const ws = workspaceOf(c, call.params.groupId, call.params.tenantName);
    const list = processors(c).entries().filter(([k]) => k.startsWith(`${key(ws.groupId, ws.name)}/`)).map(([, v]) => v);
    return jsonResponse(200, page(`${API}/groups/${ws.groupId}/streams/${ws.name}/processors`, list, call.query));
  }, { input: { query: PageQuery } }),
  operation<AtlasCtx, `${typeof S}/:tenantName/processor`, Record<string, string>, NamedBody>('createStreamProcessor', rest('POST', `${S}/:tenantName/processor`), (call, c) => {
    const ws = workspaceOf(c, call.params.groupId, call.params.tenantName);
    const k = key(ws.groupId, ws.name, call.body.name);
    if (processors(c).has(k)) throw atlasError(409, 'STREAM_PROCESSOR_NAME_ALREADY_EXISTS', `A stream processor named ${call.body.name} already exists.`, [call.body.name]);
    if (!Array.isArray(call.body.pipeline)) throw atlasError(400, 'MISSING_ATTRIBUTE', 'The required attribute pipeline was not specified.', ['pipeline']);
    return jsonResponse(200, processors(c).put(k, { _id: objectId(c.ctx, 'stream-processor', c.ctx.nowMs), ...call.body, state: 'CREATED', stats: {} }));
  }, { input: { body: NamedBody } }),
  operation<AtlasCtx, `${typeof S}/:tenantName/processor/:processorName`>('getStreamProcessor', rest('GET', `${S}/:tenantName/processor/:processorName`), (call, c) =>
    jsonResponse(200, processorOf(c, call.params.groupId, call.params.tenantName, call.params.processorName))),
  operation<AtlasCtx, `${typeof S}/:tenantName/processor/:processorName`, Record<string, string>, AnyBody>('updateStreamProcessor', rest('PATCH', `${S}/:tenantName/processor/:processorName`), (call, c) => {
    const { groupId, tenantName, processorName } = call.params;
    const p = processorOf(c, groupId, tenantName, processorName);
    if (p.state === 'STARTED') throw atlasError(400, 'STREAM_PROCESSOR_MUST_BE_STOPPED', `Stream processor ${processorName} must be stopped before it is modified.`, [processorName]);
    const name = typeof call.body.name === 'string' ? call.body.name : p.name;
    processors(c).delete(key(groupId, tenantName, processorName));
    return jsonResponse(200, processors(c).put(key(groupId, tenantName, name), { ...p, ...call.body, name, state: p.state }));
  }, { input: { body: AnyBody } }),
  operation<AtlasCtx, `${typeof S}/:tenantName/processor/:processorName`>('deleteStreamProcessor', rest('DELETE', `${S}/:tenantName/processor/:processorName`), (call, c) => {
    const { groupId, tenantName, processorName } = call.params;
    processorOf(c, groupId, tenantName, processorName);
    processors(c).delete(key(groupId, tenantName, processorName));
    return emptyResponse(204);
  }),
  ...([['startStreamProcessor', 'start', 'STARTED'], ['startStreamProcessorWith', 'startWith', 'STARTED'], ['stopStreamProcessor', 'stop', 'STOPPED']] as const).map(([name, verb, state]) =>
    operation<AtlasCtx, `${typeof S}/:tenantName/processor/:processorName/~${typeof verb}`>(name, rest('POST', `${S}/:tenantName/processor/:processorName/~${verb}`), (call, c) => {
      const { groupId, tenantName, processorName } = call.params;
      const p = processorOf(c, groupId, tenantName, processorName);
      if (state === 'STARTED' && p.state === 'STARTED') throw atlasError(400, 'STREAM_PROCESSOR_ALREADY_STARTED', `Stream processor ${processorName} is already started.`, [processorName]);
      if (state === 'STOPPED' && p.state !== 'STARTED') throw atlasError(400, 'STREAM_PROCESSOR_NOT_STARTED', `Stream processor ${processorName} is not started.`, [processorName]);
      processors(c).put(key(groupId, tenantName, processorName), { ...p, state });
      return jsonResponse(200, {});
    })),
];
