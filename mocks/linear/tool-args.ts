import type { StoreDump } from '../core/store.js';

/**
 * Valid arguments for any tool of @tacticlaunch/mcp-linear, built from its input schema: each
 * required property gets a value of its type, and ids come from the world's dataset by what the
 * property (or, for a bare `id`, the tool's name) refers to. Ids of kinds the dataset has none of
 * (releases, webhooks, sessions) are well-formed UUIDs that Linear answers "not found" for.
 */
interface Schema { type?: string | string[]; enum?: unknown[]; items?: Schema; properties?: Record<string, Schema>; required?: string[] }

const MISSING = '00000000-0000-4000-8000-000000000000';

export function toolArguments(tool: { name: string; inputSchema: unknown }, state: StoreDump): Record<string, unknown> {
  const schema = tool.inputSchema as Schema;
  const first = (type: string, where: (doc: Record<string, unknown>) => boolean = () => true) => {
    const doc = Object.values(state[type] ?? {}).find((d) => where(d as Record<string, unknown>)) as { id: string } | undefined;
    return doc?.id ?? MISSING;
  };
  const team = first('Team', (t) => t.key === 'ENG');
  const issue = first('Issue', (i) => i.identifier === 'ENG-2');
  const ids: Record<string, () => string> = {
    teamId: () => team, userId: () => first('User', (u) => u.email === 'jonas@northwind.dev'), assigneeId: () => first('User', (u) => u.email === 'jonas@northwind.dev'),
    ownerId: () => first('User'), leadId: () => first('User'), issueId: () => issue, parentIssueId: () => first('Issue', (i) => i.identifier === 'ENG-6'),
    relatedIssueId: () => first('Issue', (i) => i.identifier === 'ENG-9'), projectId: () => first('Project'), projectMilestoneId: () => first('ProjectMilestone'),
    cycleId: () => first('Cycle', (c) => c.teamId === team), labelId: () => first('IssueLabel', (l) => l.name === 'Performance'), stateId: () => first('WorkflowState', (s) => s.teamId === team && s.name === 'Todo'),
    initiativeId: () => first('Initiative'), customerId: () => first('Customer'), documentContentId: () => first('Document'), commentId: () => first('Comment'),
    entityId: () => issue, templateId: () => first('Template'), roadmapId: () => first('Roadmap'), pipelineId: () => first('ReleasePipeline'), releaseId: () => first('Release'),
    stageId: () => first('ReleaseStage'), attachmentId: () => first('Attachment'), favoriteId: () => first('Favorite'), sessionId: () => MISSING, customFieldId: () => MISSING,
    projectUpdateId: () => first('ProjectUpdate'), initiativeUpdateId: () => first('InitiativeUpdate'), parentId: () => first('Team', (t) => t.key === 'OPS'),
  };
  const idFor = (name: string): string => {
    const kinds: [RegExp, string][] = [
      [/OAuthApplication/, 'OAuthApplication'],
      [/WorkflowState/, 'WorkflowState'], [/TeamMembership/, 'TeamMembership'], [/ProjectUpdate/, 'ProjectUpdate'], [/InitiativeUpdate/, 'InitiativeUpdate'],
      [/CustomerNeed/, 'CustomerNeed'], [/Customer/, 'Customer'], [/Milestone/, 'ProjectMilestone'], [/Cycle/, 'Cycle'], [/Document/, 'Document'],
      [/Comment/, 'Comment'], [/IssueRelation/, 'IssueRelation'], [/Template/, 'Template'], [/SavedView/, 'CustomView'], [/Webhook/, 'Webhook'],
      [/ReleasePipeline/, 'ReleasePipeline'], [/ReleaseStage/, 'ReleaseStage'], [/ReleaseNote/, 'ReleaseNote'], [/Release/, 'Release'], [/Roadmap/, 'Roadmap'],
      [/Notification/, 'Notification'], [/Initiative/, 'Initiative'], [/Project/, 'Project'], [/Team/, 'Team'], [/Issue/, 'Issue'], [/User/, 'User'],
    ];
    const kind = kinds.find(([pattern]) => pattern.test(name))?.[1];
    if (kind === 'Issue') return first('Issue', (i) => i.identifier === 'ENG-10');
    if (kind === 'Team') return first('Team', (t) => t.key === 'DES');
    return kind ? first(kind) : MISSING;
  };
  const value = (key: string, property: Schema): unknown => {
    const types = Array.isArray(property.type) ? property.type : [property.type];
    if (property.enum) return property.enum[0];
    if (key === 'id') return idFor(tool.name);
    if (ids[key]) return ids[key]!();
    if (types.includes('array')) {
      const single = key.replace(/Ids$/, 'Id');
      if (ids[single]) return [ids[single]!()];
      if (key === 'teamIds') return [team];
      if (/redirectUris/.test(key)) return ['https://example.com/callback'];
      if (key === 'resourceTypes' || key === 'webhookResourceTypes') return ['Issue'];
      if (key === 'scopes') return ['read'];
      return ['tool check'];
    }
    if (types.includes('boolean')) return true;
    if (types.includes('number') || types.includes('integer')) return key === 'priority' ? 2 : 1;
    if (types.includes('object')) return key === 'templateData' ? { title: 'From a template' } : {};
    if (/At$|Date$/.test(key)) return key === 'endsAt' ? '2025-11-10T00:00:00.000Z' : '2025-10-27T00:00:00.000Z';
    if (key === 'color') return '#5e6ad2';
    if (key === 'type') return 'started';
    if (/url|Uri/i.test(key)) return 'https://example.com/hook';
    if (key === 'term' || key === 'query') return 'checkout';
    if (key === 'clientId' || key === 'clientSecret') {
      const application = Object.values(state.OAuthApplication ?? {})[0] as Record<string, string> | undefined;
      return application?.[key] ?? 'tool-check';
    }
    return `Tool check ${key}`;
  };
  const out: Record<string, unknown> = {};
  for (const key of schema.required ?? []) out[key] = value(key, schema.properties?.[key] ?? {});
  const properties = Object.keys(schema.properties ?? {});
  // An update needs something to change; a comment, need or favourite needs what it is about.
  if (/^linear_update/.test(tool.name)) {
    const field = ['name', 'title', 'body', 'content', 'description', 'label'].find((p) => properties.includes(p));
    if (field && !(field in out)) out[field] = `Tool check ${field}`;
    if (!field && properties.includes('owner')) out.owner = true;
  }
  if (tool.name === 'linear_createReleaseNote') out.releaseIds = [first('Release')];
  for (const key of ['issueId', 'entityId']) if (properties.includes(key) && !(key in out)) out[key] = value(key, schema.properties![key]!);
  if (tool.name === 'linear_createWebhook') out.teamId = team;
  return out;
}

/** Reads first, then writes, then what archives, deletes or logs out (so earlier calls still find their records). */
export function toolOrder(name: string): number {
  const verb = /^linear_([a-z]+)/.exec(name)?.[1] ?? '';
  if (['get', 'search'].includes(verb)) return 0;
  if (['archive', 'delete', 'remove', 'logout', 'unarchive', 'rotate', 'complete'].includes(verb)) return 2;
  return 1;
}
