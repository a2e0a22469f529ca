import type { LoadContext } from '../core/service.js';
import type { LaunchDarklyDataset } from './dataset.js';
import { newEnvConfig } from './flags.js';
import { dbOf, hexId, type AiConfigDoc, type FlagDoc, type FlagEnv } from './model.js';

const DAY = 86_400_000;

/** Fills the store from the dataset, once: ids and salts are seeded, times count back from the epoch. */
export function loadLaunchDarkly(data: LaunchDarklyDataset, ctx: LoadContext): void {
  const db = dbOf(ctx.store);
  const at = { ids: ctx.ids, nowMs: ctx.epochMs };
  for (const token of data.tokens) db.tokens.put(token.token, token);
  for (const member of data.members) db.members.put(member._id, member);
  for (const project of data.projects) {
    db.projects.put(project.key, { _id: hexId(ctx, 'project'), key: project.key, name: project.name, tags: project.tags, environments: project.environments.map((e) => e.key) });
    for (const env of project.environments) {
      db.environments.put(`${project.key}/${env.key}`, {
        ...env, project: project.key, _id: hexId(ctx, 'environment'),
        apiKey: `sdk-${hexId(ctx, 'sdk-key').slice(0, 8)}-${hexId(ctx, 'sdk-key').slice(0, 4)}`, mobileKey: `mob-${hexId(ctx, 'mobile-key').slice(0, 12)}`,
      });
    }
  }
  for (const flag of data.flags) {
    const project = data.projects.find((p) => p.key === flag.project);
    if (!project) throw new Error(`launchdarkly dataset: flag ${flag.key} names an unknown project ${flag.project}`);
    const values = flag.variations ?? [{ value: true }, { value: false }];
    const created = ctx.epochMs - flag.createdDaysAgo * DAY;
    const off = values.length - 1;
    const environments: Record<string, FlagEnv> = {};
    for (const env of project.environments) {
      const given = flag.environments[env.key];
      const base = newEnvConfig({ ctx: { ids: ctx.ids, nowMs: created } }, given?.on ?? false, 0, off);
      environments[env.key] = !given ? base : {
        ...base,
        ...(given.offVariation === undefined ? {} : { offVariation: given.offVariation }),
        ...(given.fallthrough ? { fallthrough: given.fallthrough } : {}),
        targets: given.targets,
        // Keys in the order a patch writes them (grading compares arrays as canonical JSON).
        rules: given.rules.map((r) => ({
          _id: r._id ?? hexId(ctx, 'rule'), ...(r.description === undefined ? {} : { description: r.description }),
          clauses: r.clauses.map((cl) => ({ _id: hexId(ctx, 'clause'), attribute: cl.attribute, op: cl.op, values: cl.values, contextKind: cl.contextKind, negate: cl.negate })),
          ...(r.variation === undefined ? {} : { variation: r.variation }), trackEvents: r.trackEvents,
        })),
        ...(given.lastRequested ? { lastRequested: given.lastRequested } : {}),
      };
    }
    for (const key of Object.keys(flag.environments)) {
      if (!project.environments.some((e) => e.key === key)) throw new Error(`launchdarkly dataset: flag ${flag.key} names an unknown environment ${key}`);
    }
    const doc: FlagDoc = {
      project: flag.project, key: flag.key, name: flag.name, description: flag.description, kind: flag.kind,
      variations: values.map((v) => ({ _id: v._id ?? hexId(ctx, 'variation'), value: v.value, ...(v.name === undefined ? {} : { name: v.name }), ...(v.description === undefined ? {} : { description: v.description }) })), tags: flag.tags, temporary: flag.temporary,
      archived: flag.archived, ...(flag.archived ? { archivedDate: created + DAY } : {}), deprecated: flag.deprecated,
      ...(flag.maintainerId ? { maintainerId: flag.maintainerId } : {}), creationDate: created, version: 1, environments,
    };
    db.flags.put(`${flag.project}/${flag.key}`, doc);
  }
  for (const config of data.aiConfigs) {
    const project = data.projects.find((p) => p.key === config.project);
    if (!project) throw new Error(`launchdarkly dataset: AI config ${config.key} names an unknown project ${config.project}`);
    const created = ctx.epochMs - 14 * DAY;
    const doc: AiConfigDoc = {
      _id: hexId(ctx, 'ai-config'), project: config.project, key: config.key, name: config.name, description: config.description, mode: config.mode,
      tags: config.tags, version: 1, createdAt: created, updatedAt: created, targeting: {},
      variations: config.variations.map((v) => ({ ...v, _id: hexId(ctx, 'ai-variation'), createdAt: created, version: 1 })),
    };
    for (const env of project.environments) doc.targeting[env.key] = { enabled: false, fallthrough: doc.variations.length > 0 ? { variation: 0 } : {}, targets: [], lastModified: created, version: 1 };
    db.ai_configs.put(`${config.project}/${config.key}`, doc);
  }
  for (const repo of data.repositories) db.repositories.put(repo.name, { ...repo, version: 1 });
  data.auditLog.forEach((entry, seq) => {
    const _id = hexId(ctx, 'audit');
    db.audit_log.put(_id, {
      _id, seq, date: at.nowMs - entry.minutesAgo * 60_000, kind: entry.kind, name: entry.name, description: entry.description,
      shortDescription: entry.description, resource: `proj/*:env/*:${entry.kind}/${entry.name}`, action: 'update', ...(entry.member ? { member: entry.member } : {}),
    });
  });
}
