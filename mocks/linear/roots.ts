import { getNamedType, isInterfaceType, isListType, isNonNullType, isObjectType, type GraphQLObjectType, type GraphQLOutputType } from 'graphql';
import { invalidInput, notFound } from './errors.js';
import { col, createTeamStates, DEFAULT_STATES, defaultState, insert, issueNumbering, newId, organization, patch, slug, stateStamps, type Rec } from './model.js';
import { emptyValue, entity, page, ucfirst, type LinearContext, type ListArgs, type RootResolver } from './resolve.js';

/** Root queries that are more than "a record by id" or "a page of a collection". */
export const queries: Record<string, RootResolver> = {
  viewer: (_args, c) => c.viewer,
  organization: (_args, c) => organization(c.store) ?? null,
  searchDocuments: (args, c) => {
    const term = String(args.term).toLowerCase();
    const hits = col(c.store, 'Document').filter((d) => `${String(d.title)} ${String(d.content ?? '')}`.toLowerCase().includes(term));
    const result = page('Document', hits, args as ListArgs, c);
    return { ...result, totalCount: hits.length, archivePayload: { success: true, lastSyncId: c.seq } };
  },
  releaseSearch: (args, c) => {
    const term = String(args.term ?? '').toLowerCase();
    return page('Release', col(c.store, 'Release').filter((r) => String(r.name ?? '').toLowerCase().includes(term)), { first: args.first, filter: args.filter } as ListArgs, c).nodes;
  },
  documentContentHistory: (args, c) => {
    entity('Document', args.id, c);
    return { success: true, history: [] };
  },
  authenticationSessions: (_args, c) => (c.viewer ? [{ id: `session-${c.viewer.id}`, createdAt: c.viewer.createdAt, updatedAt: c.viewer.createdAt, detailedName: 'API key', isCurrentSession: true, countryCodes: [], type: 'web' }] : []),
  oauthApplications: (_args, c) => col(c.store, 'OAuthApplication').filter((a) => a.archivedAt === null),
};

/** Records of a type, or of every implementer of an interface (`Notification`). */
function recordsOf(type: string, c: LinearContext): Rec[] {
  const named = c.schema.getType(type);
  if (named && isInterfaceType(named)) return c.schema.getPossibleTypes(named).flatMap((t) => col(c.store, t.name).values());
  return col(c.store, type).values();
}

/** Any other root query: `x(id)` is a record, `xs(filter, first, …)` a page of a collection. */
export function genericQuery(): RootResolver {
  return (args, c, returnType) => {
    const named = getNamedType(returnType);
    if (isObjectType(named) && named.name.endsWith('Connection')) {
      const nodeType = getNamedType(named.getFields().nodes!.type).name;
      return page(nodeType, recordsOf(nodeType, c), args as ListArgs, c);
    }
    if ((isObjectType(named) || isInterfaceType(named)) && typeof args.id === 'string') return entity(named.name, args.id, c);
    return emptyValue(returnType, null, c);
  };
}

// ---- mutations ----

/** Checks the references of an input (`teamId`, `labelIds`) against the entity's schema and stores their ids. */
function references(type: string, input: Record<string, unknown>, c: LinearContext): Record<string, unknown> {
  const object = c.schema.getType(type) as GraphQLObjectType | undefined;
  const fields = object && isObjectType(object) ? object.getFields() : {};
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined) continue;
    const one = /^(\w+)Id$/.exec(key);
    const many = /^(\w+)Ids$/.exec(key);
    const target = one ? fields[one[1]!] : many ? fields[`${many[1]!}s`] ?? fields[many[1]!.replace(/y$/, 'ies')] : undefined;
    if (target && typeof value === 'string' && one) {
      const named = getNamedType(target.type);
      if (isObjectType(named) || isInterfaceType(named)) { out[key] = entity(named.name, value, c).id; continue; }
    }
    if (target && Array.isArray(value) && many) {
      let named = getNamedType(target.type);
      if (isObjectType(named) && named.name.endsWith('Connection')) named = getNamedType(named.getFields().nodes!.type);
      if (isObjectType(named)) { out[key] = value.map((id) => entity(named.name, String(id), c).id); continue; }
    }
    out[key] = value;
  }
  return out;
}

/**
 * Who a new record belongs to when the input does not say: every person field of the type
 * (`creator`, `user`, `owner`) is the caller, and a required status is the first one defined.
 */
function peopleDefaults(type: string, c: LinearContext): Record<string, unknown> {
  const object = c.schema.getType(type);
  if (!object || !isObjectType(object)) return {};
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(object.getFields())) {
    const named = getNamedType(field.type).name;
    if (named === 'User' && ['creator', 'user', 'owner'].includes(name) && c.viewer) out[`${name}Id`] = c.viewer.id;
    if (isNonNullType(field.type) && /Status$|Tier$/.test(named) && !named.endsWith('Payload')) {
      const first = col(c.store, named).values()[0];
      if (first) out[`${name}Id`] = first.id;
    }
  }
  return out;
}

type Hook = (input: Record<string, unknown>, c: LinearContext, previous: Rec | null) => Record<string, unknown>;

/** What Linear adds to a record it creates or changes, beyond copying the input. */
const CREATE: Record<string, Hook> = {
  Issue: (input, c) => {
    if (typeof input.teamId !== 'string') throw invalidInput('teamId must be a UUID');
    const team = entity('Team', input.teamId, c);
    const title = typeof input.title === 'string' ? input.title : '';
    if (title.trim() === '') throw invalidInput('title should not be empty');
    const state = typeof input.stateId === 'string' ? col(c.store, 'WorkflowState').get(input.stateId) : defaultState(c.store, team.id);
    col(c.store, 'Team').put(team.id, { ...team, issueCount: (team.issueCount as number) + 1 });
    return {
      ...issueNumbering(c.store, team, title), priority: 0, estimate: null, assigneeId: null, projectId: null, projectMilestoneId: null, cycleId: null, parentId: null,
      dueDate: null, description: null, labelIds: [], subscriberIds: c.viewer ? [c.viewer.id] : [], creatorId: c.viewer?.id ?? null, trashed: false, sortOrder: col(c.store, 'Issue').size,
      ...input, stateId: state?.id ?? null, ...stateStamps(state, c.make.nowIso, null),
    };
  },
  Team: (input, c) => {
    const name = String(input.name ?? '');
    if (!name) throw invalidInput('name should not be empty');
    const key = typeof input.key === 'string' ? input.key : name.replace(/[^A-Za-z]/g, '').slice(0, 3).toUpperCase();
    if (col(c.store, 'Team').find((t) => t.key === key)) throw invalidInput(`Team key ${key} is already in use`);
    return { description: null, private: false, cyclesEnabled: false, issueCount: 0, ...input, key };
  },
  Comment: (input, c) => {
    if (!input.issueId && !input.documentContentId && !input.projectUpdateId && !input.initiativeUpdateId) throw invalidInput('a comment needs an issue, document or update');
    const issue = typeof input.issueId === 'string' ? col(c.store, 'Issue').get(input.issueId) : undefined;
    return { userId: c.viewer?.id ?? null, editedAt: null, parentId: null, url: issue ? `${issue.url as string}#comment` : null, ...input };
  },
  Project: (input, c) => {
    if (!Array.isArray(input.teamIds) || input.teamIds.length === 0) throw invalidInput('teamIds should not be empty');
    const name = String(input.name ?? '');
    const status = typeof input.statusId === 'string' ? col(c.store, 'ProjectStatus').get(input.statusId) : undefined;
    return { description: '', state: status?.type ?? 'planned', priority: 0, memberIds: [], leadId: null, progress: 0, slugId: slug(name), url: `https://linear.app/${String(organization(c.store)?.urlKey)}/project/${slug(name)}`, ...input };
  },
  Document: (input, c) => ({ creatorId: c.viewer?.id ?? null, slugId: slug(String(input.title ?? '')), url: `https://linear.app/${String(organization(c.store)?.urlKey)}/document/${slug(String(input.title ?? ''))}`, ...input }),
  IssueLabel: (input) => ({ color: '#95a2b3', teamId: null, isGroup: false, ...input }),
};

const UPDATE: Record<string, Hook> = {
  Issue: (input, c, previous) => {
    const out: Record<string, unknown> = { ...input };
    let labels = [...((previous!.labelIds as string[] | undefined) ?? [])];
    if (Array.isArray(input.labelIds)) labels = input.labelIds as string[];
    for (const id of (input.addedLabelIds as string[] | undefined) ?? []) if (!labels.includes(id)) labels.push(id);
    labels = labels.filter((id) => !((input.removedLabelIds as string[] | undefined) ?? []).includes(id));
    delete out.addedLabelIds;
    delete out.removedLabelIds;
    out.labelIds = labels;
    if (typeof input.stateId === 'string' && input.stateId !== previous!.stateId) Object.assign(out, stateStamps(col(c.store, 'WorkflowState').get(input.stateId), c.make.nowIso, previous));
    return out;
  },
};

/** The payload of a mutation: `{success, lastSyncId}` and the record under its field (`issue`, `entity`). */
function payload(returnType: GraphQLOutputType, type: string, rec: Rec | null, c: LinearContext): Record<string, unknown> {
  const named = getNamedType(returnType);
  const out: Record<string, unknown> = { success: true, lastSyncId: c.seq };
  if (isObjectType(named)) {
    for (const [name, field] of Object.entries(named.getFields())) {
      const list = isListType(isNonNullType(field.type) ? field.type.ofType : field.type);
      if (name === 'entity' || getNamedType(field.type).name === type) out[name] = list ? [] : rec;
      if (name === 'entityId') out[name] = rec?.id ?? '';
    }
  }
  return out;
}

/** A new secret: seeded like every id, so replay gives the same one. */
function secretFor(c: LinearContext, prefix: string): string {
  return `${prefix}${newId(c.make, `secret:${prefix}`).replace(/-/g, '')}`;
}

const VERB = /^(\w+?)(Create|Update|Delete|Archive|Unarchive)$/;

/** `xCreate`, `xUpdate`, `xDelete`, `xArchive`, `xUnarchive` over the collection `X`; anything else succeeds without a change. */
export function genericMutation(field: string): RootResolver {
  const m = VERB.exec(field);
  if (!m) return (_args, c, returnType) => payload(returnType, '', null, c);
  const verb = m[2]!;
  return (args, c, returnType) => {
    // The collection is the schema's type of that name (`oauthApplication` → `OAuthApplication`).
    const type = Object.keys(c.schema.getTypeMap()).find((name) => name.toLowerCase() === m[1]!.toLowerCase() && isObjectType(c.schema.getType(name))) ?? ucfirst(m[1]!);
    if (verb === 'Create') {
      const input = references(type, (args.input ?? {}) as Record<string, unknown>, c);
      const fields = { ...peopleDefaults(type, c), ...(CREATE[type] ?? ((i) => ({ ...i })))(input, c, null) };
      const id = typeof fields.id === 'string' ? fields.id : undefined;
      if (id && col(c.store, type).has(id)) throw invalidInput(`${type} with id ${id} already exists`);
      return payload(returnType, type, insert(c.make, type, fields, id), c);
    }
    const rec = entity(type, String(args.id), c);
    if (verb === 'Update') {
      const input = references(type, (args.input ?? {}) as Record<string, unknown>, c);
      const fields = (UPDATE[type] ?? ((i) => ({ ...i })))(input, c, rec);
      return payload(returnType, type, patch(c.make, type, rec, fields), c);
    }
    if (verb === 'Archive') return payload(returnType, type, patch(c.make, type, rec, { archivedAt: c.make.nowIso }), c);
    if (verb === 'Unarchive') return payload(returnType, type, patch(c.make, type, rec, { archivedAt: null, trashed: false }), c);
    // Delete: issues, documents and projects go to the trash (archived, restorable); other records are removed.
    if (type === 'Issue' || type === 'Document' || type === 'Project') {
      patch(c.make, type, rec, { trashed: true, archivedAt: c.make.nowIso });
    } else {
      col(c.store, type).delete(rec.id);
    }
    return payload(returnType, type, rec, c);
  };
}

/** Mutations whose name does not say their collection. */
export const mutations: Record<string, RootResolver> = {
  issueToReleaseDeleteByIssueAndRelease: (args, c, returnType) => {
    const link = col(c.store, 'IssueToRelease').find((l) => l.issueId === args.issueId && l.releaseId === args.releaseId);
    if (!link) throw notFound('IssueToRelease');
    col(c.store, 'IssueToRelease').delete(link.id);
    return payload(returnType, 'IssueToRelease', link, c);
  },
  customerNeedCreateFromAttachment: (args, c, returnType) => {
    const attachment = entity('Attachment', String(args.input?.attachmentId), c);
    return payload(returnType, 'CustomerNeed', insert(c.make, 'CustomerNeed', { attachmentId: attachment.id, issueId: attachment.issueId ?? null, priority: 0 }), c);
  },
  teamCreate: (args, c, returnType) => {
    const created = genericMutation('teamCreate')(args, c, returnType) as { team: Rec };
    createTeamStates(c.make, created.team.id, DEFAULT_STATES);
    if (c.viewer) insert(c.make, 'TeamMembership', { teamId: created.team.id, userId: c.viewer.id, owner: true, sortOrder: 0 });
    return created;
  },
  webhookRotateSecret: (args, c, returnType) => {
    const webhook = entity('Webhook', String(args.id), c);
    const secret = secretFor(c, 'lin_wh_');
    patch(c.make, 'Webhook', webhook, { secret });
    // Object.assign on the fresh payload, not `{ ...payload(), … }`: Node 20's V8 adds each field after a leading spread through a slow path (docs/benchmarks.md, issue 14's eighth pass).
    return Object.assign(payload(returnType, 'Webhook', null, c), { secret });
  },
  oauthApplicationCreate: (args, c, returnType) => {
    const input = (args.input ?? {}) as Record<string, unknown>;
    const clientSecret = secretFor(c, 'lin_oauth_secret_');
    const webhookSecret = input.webhookUrl ? secretFor(c, 'lin_wh_') : null;
    const application = insert(c.make, 'OAuthApplication', { clientId: newId(c.make, 'OAuthClientId').replace(/-/g, ''), clientSecret, creatorId: c.viewer?.id ?? null, distribution: 'private', grantTypes: ['authorization_code'], redirectUris: [], webhookEnabled: Boolean(input.webhookUrl), webhookResourceTypes: [], developerUrl: '', ...input });
    return Object.assign(payload(returnType, 'OAuthApplication', application, c), { clientSecret, webhookSecret });
  },
  oauthApplicationRotateSecret: (args, c, returnType) => {
    const application = entity('OAuthApplication', String(args.id), c);
    const clientSecret = secretFor(c, 'lin_oauth_secret_');
    patch(c.make, 'OAuthApplication', application, { clientSecret });
    return Object.assign(payload(returnType, 'OAuthApplication', null, c), { clientSecret });
  },
  oauthApplicationRotateWebhookSecret: (args, c, returnType) => {
    entity('OAuthApplication', String(args.id), c);
    return Object.assign(payload(returnType, 'OAuthApplication', null, c), { webhookSecret: secretFor(c, 'lin_wh_') });
  },
  releaseComplete: (args, c, returnType) => {
    const release = entity('Release', String(args.input?.id ?? args.id), c);
    return payload(returnType, 'Release', patch(c.make, 'Release', release, { completedAt: c.make.nowIso }), c);
  },
};

