import { z } from 'zod';
import { emptyResponse, jsonResponse } from '../core/http.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import { projectOf, type LdCtx } from './context.js';
import {
  API, audit, conflict, hexId, invalid, notFound, projectEnvironments, renderAiConfig, renderAiTargeting, renderAiVariation,
  type AiConfigDoc, type AiTargetingEnv, type AiVariationDoc,
} from './model.js';

/** AI configs (beta API): configs, their variations, and per-environment targeting by semantic patch. */

const BASE = '/api/v2/projects/:projectKey/ai-configs';
const docKey = (project: string, key: string) => `${project}/${key}`;

function configOf(c: LdCtx, project: string, key: string): AiConfigDoc {
  projectOf(c, project);
  const config = c.db.ai_configs.get(docKey(project, key));
  if (!config) throw notFound();
  return config;
}

function save(c: LdCtx, config: AiConfigDoc, action: string, description: string): AiConfigDoc {
  const saved = c.db.ai_configs.put(docKey(config.project, config.key), config);
  audit(c.db, c.ctx, { kind: 'aiConfig', name: config.name, description, resource: `proj/${config.project}:ai-config/${config.key}`, action });
  return saved;
}

const Message = z.object({ content: z.string(), role: z.string() });
const VariationPost = z.object({
  key: z.string().min(1), name: z.string().min(1), description: z.string().optional(), instructions: z.string().optional(),
  messages: z.array(Message).optional(), model: z.record(z.unknown()).optional(), modelConfigKey: z.string().optional(), comment: z.string().optional(),
}).passthrough();
const VariationPatch = z.object({
  name: z.string().min(1).optional(), description: z.string().optional(), instructions: z.string().optional(), messages: z.array(Message).optional(),
  model: z.record(z.unknown()).optional(), modelConfigKey: z.string().optional(), comment: z.string().optional(), published: z.boolean().optional(), state: z.string().optional(),
}).passthrough();
const ConfigPost = z.object({
  key: z.string().regex(/^[\w.-]+$/, 'key must contain only letters, numbers, ".", "_" or "-"'), name: z.string().min(1), description: z.string().default(''),
  mode: z.enum(['agent', 'completion', 'judge']).default('completion'), tags: z.array(z.string()).default([]), maintainerId: z.string().optional(),
  defaultVariation: VariationPost.optional(),
}).passthrough();
const ConfigPatch = z.object({ name: z.string().min(1).optional(), description: z.string().optional(), tags: z.array(z.string()).optional(), maintainerId: z.string().optional() }).passthrough();
const TargetingPatch = z.object({ environmentKey: z.string().min(1), instructions: z.array(z.record(z.unknown())).min(1), comment: z.string().optional() });
const ListQuery = z.object({ limit: z.coerce.number().int().min(1).max(100).optional(), offset: z.coerce.number().int().min(0).optional(), sort: z.string().optional(), filter: z.string().optional() }).passthrough();

function newVariation(c: LdCtx, body: z.infer<typeof VariationPost>): AiVariationDoc {
  return {
    _id: hexId(c.ctx, 'ai-variation'), key: body.key, name: body.name, model: body.model ?? {}, createdAt: c.ctx.nowMs, version: 1,
    ...(body.description === undefined ? {} : { description: body.description }),
    ...(body.instructions === undefined ? {} : { instructions: body.instructions }),
    ...(body.messages === undefined ? {} : { messages: body.messages }),
    ...(body.modelConfigKey === undefined ? {} : { modelConfigKey: body.modelConfigKey }),
  };
}

function variationOf(config: AiConfigDoc, key: string): AiVariationDoc {
  const v = config.variations.find((x) => x.key === key);
  if (!v) throw notFound();
  return v;
}

function applyTargeting(config: AiConfigDoc, current: AiTargetingEnv, instructions: readonly Record<string, unknown>[]): AiTargetingEnv {
  const next = structuredClone(current);
  const index = (id: unknown) => {
    const i = config.variations.findIndex((v) => v._id === id || v.key === id);
    if (i === -1) throw invalid(`Unknown variationId ${String(id)}`);
    return i;
  };
  for (const ins of instructions) {
    const kind = String(ins['kind'] ?? '');
    const values = Array.isArray(ins['values']) ? ins['values'].map(String) : [];
    const contextKind = typeof ins['contextKind'] === 'string' ? ins['contextKind'] : 'user';
    switch (kind) {
      case 'turnTargetingOn': next.enabled = true; break;
      case 'turnTargetingOff': next.enabled = false; break;
      case 'updateFallthroughVariationOrRollout': next.fallthrough = { variation: index(ins['variationId']) }; break;
      case 'updateOffVariation': next.offVariation = index(ins['variationId']); break;
      case 'addTargets': {
        const variation = index(ins['variationId']);
        const t = next.targets.find((x) => x.variation === variation && x.contextKind === contextKind);
        if (t) t.values = [...t.values, ...values.filter((v) => !t.values.includes(v))];
        else next.targets.push({ contextKind, values, variation });
        break;
      }
      case 'removeTargets': {
        const variation = index(ins['variationId']);
        next.targets = next.targets.map((t) => (t.variation === variation ? { ...t, values: t.values.filter((v) => !values.includes(v)) } : t)).filter((t) => t.values.length > 0);
        break;
      }
      case 'clearTargets': next.targets = []; break;
      default: throw invalid(`Unsupported semantic patch instruction: ${kind || '(no kind)'}`);
    }
  }
  return next;
}

export const aiOperations: Operation<LdCtx>[] = [
  operation<LdCtx, typeof BASE, z.infer<typeof ListQuery>>('getAIConfigs', rest('GET', BASE), (call, c) => {
    projectOf(c, call.params.projectKey);
    let items = c.db.ai_configs.values().filter((x) => x.project === call.params.projectKey);
    const query = /(?:^|,)query:([^,]*)/.exec(call.query.filter ?? '')?.[1]?.toLowerCase();
    if (query) items = items.filter((x) => x.key.includes(query) || x.name.toLowerCase().includes(query));
    items.sort((a, b) => a.createdAt - b.createdAt || a.key.localeCompare(b.key));
    const offset = call.query.offset ?? 0;
    return jsonResponse(200, {
      _links: { parent: { href: `${API}/projects/${call.params.projectKey}`, type: 'application/json' }, self: { href: `${API}/projects/${call.params.projectKey}/ai-configs`, type: 'application/json' } },
      items: items.slice(offset, offset + (call.query.limit ?? 20)).map(renderAiConfig), totalCount: items.length,
    });
  }, { input: { query: ListQuery } }),
  operation<LdCtx, typeof BASE, Record<string, string>, z.infer<typeof ConfigPost>>('postAIConfig', rest('POST', BASE), (call, c) => {
    const project = projectOf(c, call.params.projectKey);
    if (c.db.ai_configs.has(docKey(project.key, call.body.key))) throw conflict(`An AI config with key ${call.body.key} already exists`);
    const b = call.body;
    const config: AiConfigDoc = {
      _id: hexId(c.ctx, 'ai-config'), project: project.key, key: b.key, name: b.name, description: b.description, mode: b.mode, tags: b.tags,
      ...(b.maintainerId ? { maintainerId: b.maintainerId } : {}), version: 1, createdAt: c.ctx.nowMs, updatedAt: c.ctx.nowMs,
      variations: b.defaultVariation ? [newVariation(c, b.defaultVariation)] : [], targeting: {},
    };
    for (const env of projectEnvironments(c.db, project)) config.targeting[env.key] = { enabled: false, fallthrough: {}, targets: [], lastModified: c.ctx.nowMs, version: 1 };
    return jsonResponse(201, renderAiConfig(save(c, config, 'createAIConfig', `created the AI config ${b.name}`)));
  }, { input: { body: ConfigPost }, lazy: true }),
  operation<LdCtx, `${typeof BASE}/:configKey`>('getAIConfig', rest('GET', `${BASE}/:configKey`), (call, c) => jsonResponse(200, renderAiConfig(configOf(c, call.params.projectKey, call.params.configKey)))),
  operation<LdCtx, `${typeof BASE}/:configKey`, Record<string, string>, z.infer<typeof ConfigPatch>>('patchAIConfig', rest('PATCH', `${BASE}/:configKey`), (call, c) => {
    const config = configOf(c, call.params.projectKey, call.params.configKey);
    const b = call.body;
    const next: AiConfigDoc = {
      ...config, ...(b.name === undefined ? {} : { name: b.name }), ...(b.description === undefined ? {} : { description: b.description }),
      ...(b.tags === undefined ? {} : { tags: b.tags }), ...(b.maintainerId === undefined ? {} : { maintainerId: b.maintainerId }),
      version: config.version + 1, updatedAt: c.ctx.nowMs,
    };
    return jsonResponse(200, renderAiConfig(save(c, next, 'updateAIConfig', `updated the AI config ${next.name}`)));
  }, { input: { body: ConfigPatch }, lazy: true }),
  operation<LdCtx, `${typeof BASE}/:configKey`>('deleteAIConfig', rest('DELETE', `${BASE}/:configKey`), (call, c) => {
    const config = configOf(c, call.params.projectKey, call.params.configKey);
    c.db.ai_configs.delete(docKey(config.project, config.key));
    audit(c.db, c.ctx, { kind: 'aiConfig', name: config.name, description: `deleted the AI config ${config.name}`, resource: `proj/${config.project}:ai-config/${config.key}`, action: 'deleteAIConfig' });
    return emptyResponse(204);
  }),
  operation<LdCtx, `${typeof BASE}/:configKey/variations`, Record<string, string>, z.infer<typeof VariationPost>>('postAIConfigVariation', rest('POST', `${BASE}/:configKey/variations`), (call, c) => {
    const config = configOf(c, call.params.projectKey, call.params.configKey);
    if (config.variations.some((v) => v.key === call.body.key)) throw conflict(`A variation with key ${call.body.key} already exists`);
    const variation = newVariation(c, call.body);
    save(c, { ...config, variations: [...config.variations, variation], version: config.version + 1, updatedAt: c.ctx.nowMs }, 'createAIConfigVariation', `added the variation ${variation.name} to ${config.name}`);
    return jsonResponse(201, renderAiVariation(config, variation));
  }, { input: { body: VariationPost }, lazy: true }),
  operation<LdCtx, `${typeof BASE}/:configKey/variations/:variationKey`>('getAIConfigVariation', rest('GET', `${BASE}/:configKey/variations/:variationKey`), (call, c) => {
    const config = configOf(c, call.params.projectKey, call.params.configKey);
    const variation = variationOf(config, call.params.variationKey);
    return jsonResponse(200, { items: [renderAiVariation(config, variation)], totalCount: 1 });
  }),
  operation<LdCtx, `${typeof BASE}/:configKey/variations/:variationKey`, Record<string, string>, z.infer<typeof VariationPatch>>('patchAIConfigVariation', rest('PATCH', `${BASE}/:configKey/variations/:variationKey`), (call, c) => {
    const config = configOf(c, call.params.projectKey, call.params.configKey);
    const old = variationOf(config, call.params.variationKey);
    const b = call.body;
    const variation: AiVariationDoc = {
      ...old, ...(b.name === undefined ? {} : { name: b.name }), ...(b.description === undefined ? {} : { description: b.description }),
      ...(b.instructions === undefined ? {} : { instructions: b.instructions }), ...(b.messages === undefined ? {} : { messages: b.messages }),
      ...(b.model === undefined ? {} : { model: b.model }), ...(b.modelConfigKey === undefined ? {} : { modelConfigKey: b.modelConfigKey }),
      version: old.version + 1,
    };
    save(c, { ...config, variations: config.variations.map((v) => (v.key === old.key ? variation : v)), version: config.version + 1, updatedAt: c.ctx.nowMs }, 'updateAIConfigVariation', `updated the variation ${variation.name} of ${config.name}`);
    return jsonResponse(200, renderAiVariation(config, variation));
  }, { input: { body: VariationPatch }, lazy: true }),
  operation<LdCtx, `${typeof BASE}/:configKey/variations/:variationKey`>('deleteAIConfigVariation', rest('DELETE', `${BASE}/:configKey/variations/:variationKey`), (call, c) => {
    const config = configOf(c, call.params.projectKey, call.params.configKey);
    const old = variationOf(config, call.params.variationKey);
    save(c, { ...config, variations: config.variations.filter((v) => v.key !== old.key), version: config.version + 1, updatedAt: c.ctx.nowMs }, 'deleteAIConfigVariation', `deleted the variation ${old.name} of ${config.name}`);
    return emptyResponse(204);
  }),
  operation<LdCtx, `${typeof BASE}/:configKey/targeting`>('getAIConfigTargeting', rest('GET', `${BASE}/:configKey/targeting`), (call, c) => jsonResponse(200, renderAiTargeting(c.db, configOf(c, call.params.projectKey, call.params.configKey)))),
  operation<LdCtx, `${typeof BASE}/:configKey/targeting`, Record<string, string>, z.infer<typeof TargetingPatch>>('patchAIConfigTargeting', rest('PATCH', `${BASE}/:configKey/targeting`), (call, c) => {
    const config = configOf(c, call.params.projectKey, call.params.configKey);
    const current = config.targeting[call.body.environmentKey];
    if (!current) throw invalid(`Unknown environment ${call.body.environmentKey}`);
    const next = applyTargeting(config, current, call.body.instructions);
    const saved = save(c, { ...config, targeting: { ...config.targeting, [call.body.environmentKey]: { ...next, version: current.version + 1, lastModified: c.ctx.nowMs } }, version: config.version + 1, updatedAt: c.ctx.nowMs }, 'updateAIConfigTargeting', `updated the targeting of ${config.name} in ${call.body.environmentKey}${call.body.comment ? `: ${call.body.comment}` : ''}`);
    return jsonResponse(200, renderAiTargeting(c.db, saved));
  }, { input: { body: TargetingPatch }, lazy: true }),
];
