import { z } from 'zod';
import { operation, rest, type Operation } from '../kit/operation.js';
import { typeOrFail } from './associations.js';
import { hubspotError, ok, type HubspotCtx } from './context.js';
import type { OwnerDoc } from './model.js';
import { renderProperty } from './properties.js';

/**
 * The portal and who is calling: private-app token info, account details, owners, custom object
 * schemas, pipelines, and automation flows (workflows v4, read-only).
 */
const ownerOut = (o: OwnerDoc) => ({ id: o.id, email: o.email, firstName: o.firstName, lastName: o.lastName, userId: o.userId, createdAt: o.createdAt, updatedAt: o.updatedAt, archived: o.archived, teams: o.teams });

/** An offset cursor over a list: `after` is the index to start at. */
function page<T>(items: readonly T[], limitRaw: string | undefined, after: string | undefined, max: number, fallback: number): { results: T[]; paging?: { next: { after: string; link: string } } } {
  const limit = Math.min(limitRaw === undefined ? fallback : Math.max(1, Number(limitRaw) || fallback), max);
  const start = after !== undefined && /^\d+$/.test(after) ? Number(after) : 0;
  const results = items.slice(start, start + limit);
  const next = start + results.length < items.length ? String(start + results.length) : null;
  return { results, ...(next ? { paging: { next: { after: next, link: `?after=${next}` } } } : {}) };
}

const TokenInfoBody = z.object({ tokenKey: z.string() }).passthrough();

export const accountOperations: Operation<HubspotCtx>[] = [
  operation<HubspotCtx, '/oauth/v2/private-apps/get/access-token-info', Record<string, string>, z.infer<typeof TokenInfoBody>>('oauth.accessTokenInfo',
    rest('POST', '/oauth/v2/private-apps/get/access-token-info'), (call, c) => {
      const token = c.db.tokens.get(call.body.tokenKey);
      if (!token) throw hubspotError(400, 'BAD_REQUEST', 'Invalid token: the token is not a valid private app access token', { subCategory: 'InvalidToken' });
      return ok(200, { userId: token.userId, hubId: c.portal.portalId, appId: token.appId, scopes: token.scopes });
    }, { input: { body: TokenInfoBody } }),

  operation<HubspotCtx, '/account-info/v3/details'>('accountInfo.details', rest('GET', '/account-info/v3/details'), (_call, c) => ok(200, c.portal)),

  operation<HubspotCtx, '/crm/v3/owners'>('owners.getPage', rest('GET', '/crm/v3/owners'), (call, c) => {
    const q = new Map(call.req.query);
    const archived = q.get('archived') === 'true';
    const email = q.get('email');
    const owners = c.db.owners.values().filter((o) => o.archived === archived && (email === undefined || o.email.toLowerCase() === email.toLowerCase()));
    return ok(200, { ...page(owners.map(ownerOut), q.get('limit'), q.get('after'), 500, 100) });
  }),

  operation<HubspotCtx, '/crm/v3/owners/:ownerId'>('owners.getById', rest('GET', '/crm/v3/owners/:ownerId'), (call, c) => {
    const q = new Map(call.req.query);
    const byUser = q.get('idProperty') === 'userId';
    const archived = q.get('archived') === 'true';
    const owner = c.db.owners.find((o) => (byUser ? String(o.userId) === call.params.ownerId : o.id === call.params.ownerId) && o.archived === archived);
    if (!owner) throw hubspotError(404, 'OBJECT_NOT_FOUND', `Owner not found: ${call.params.ownerId}`);
    return ok(200, ownerOut(owner));
  }),

  operation<HubspotCtx, '/crm-object-schemas/v3/schemas'>('schemas.getAll', rest('GET', '/crm-object-schemas/v3/schemas'), (_call, c) => ok(200, {
    results: c.db.schemas.values().filter((s) => !s.archived).map(({ properties, ...s }) => ({ ...s, properties: properties.map((p) => renderProperty({ ...p, objectType: s.name, createdAt: s.createdAt, updatedAt: s.updatedAt, hubspotDefined: false, archived: false, displayOrder: -1, calculated: false, externalOptions: false })) })),
  })),

  operation<HubspotCtx, '/crm/v3/pipelines/:objectType'>('pipelines.getAll', rest('GET', '/crm/v3/pipelines/:objectType'), (call, c) => {
    const type = typeOrFail(c, call.params.objectType);
    const pipelines = c.db.pipelines.values().filter((p) => p.objectType === type.name && !p.archived);
    return ok(200, { results: pipelines.map(({ objectType: _o, ...p }) => ({ ...p, stages: p.stages.map((s, i) => ({ ...s, displayOrder: s.displayOrder ?? i, createdAt: p.createdAt, updatedAt: p.updatedAt, archived: false })) })) });
  }),

  operation<HubspotCtx, '/automation/v4/flows'>('flows.list', rest('GET', '/automation/v4/flows'), (call, c) => {
    const q = new Map(call.req.query);
    const flows = c.db.workflows.values().map((f) => ({ id: f.id, isEnabled: f.isEnabled, flowType: f.flowType, revisionId: f.revisionId, name: f.name, createdAt: f.createdAt, updatedAt: f.updatedAt, objectTypeId: f.objectTypeId }));
    return ok(200, page(flows, q.get('limit'), q.get('after'), 100, 20));
  }),

  operation<HubspotCtx, '/automation/v4/flows/:flowId'>('flows.get', rest('GET', '/automation/v4/flows/:flowId'), (call, c) => {
    const flow = c.db.workflows.get(call.params.flowId);
    if (!flow) throw hubspotError(404, 'OBJECT_NOT_FOUND', `Flow ${call.params.flowId} not found`);
    return ok(200, flow);
  }),
];
