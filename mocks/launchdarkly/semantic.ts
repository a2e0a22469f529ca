import type { PatchedFlag } from './flags.js';
import { invalid, type FlagDoc } from './model.js';

/**
 * LaunchDarkly's semantic patch for flags (`Content-Type: application/json;
 * domain-model=launchdarkly.semanticpatch`): instructions by `kind`, variations named by their
 * `_id` (`variationId`), environment-scoped instructions applied to `environmentKey`. The
 * instructions modelled are the common targeting and settings ones; any other kind is
 * LaunchDarkly's 400.
 */
const ENV_KINDS = new Set(['turnFlagOn', 'turnFlagOff', 'updateFallthroughVariationOrRollout', 'updateOffVariation', 'addTargets', 'removeTargets', 'addRule', 'removeRule', 'replaceRules', 'replaceTargets', 'clearTargets']);

export function applySemanticPatch(flag: FlagDoc, current: PatchedFlag, environmentKey: string | undefined, instructions: readonly Record<string, unknown>[]): PatchedFlag {
  const next = structuredClone(current);
  const variationIndex = (id: unknown): number => {
    const i = flag.variations.findIndex((v) => v._id === id);
    if (i === -1) throw invalid(`Unknown variationId ${String(id)}`);
    return i;
  };
  const strings = (v: unknown, field: string): string[] => {
    if (!Array.isArray(v) || !v.every((s) => typeof s === 'string')) throw invalid(`${field} must be an array of strings`);
    return v;
  };
  for (const ins of instructions) {
    const kind = String(ins['kind'] ?? '');
    let env = undefined as PatchedFlag['environments'][string] | undefined;
    if (ENV_KINDS.has(kind)) {
      if (!environmentKey) throw invalid(`environmentKey is required for the ${kind} instruction`);
      env = next.environments[environmentKey];
      if (!env) throw invalid(`Unknown environment ${environmentKey}`);
    }
    switch (kind) {
      case 'turnFlagOn': env!.on = true; break;
      case 'turnFlagOff': env!.on = false; break;
      case 'updateFallthroughVariationOrRollout': env!.fallthrough = { variation: variationIndex(ins['variationId']) }; break;
      case 'updateOffVariation': env!.offVariation = variationIndex(ins['variationId']); break;
      case 'addTargets': {
        const variation = variationIndex(ins['variationId']);
        const values = strings(ins['values'], 'values');
        const contextKind = typeof ins['contextKind'] === 'string' ? ins['contextKind'] : undefined;
        const existing = env!.targets.find((t) => t.variation === variation && (t.contextKind ?? 'user') === (contextKind ?? 'user'));
        if (existing) existing.values = [...existing.values, ...values.filter((v) => !existing.values.includes(v))];
        else env!.targets.push({ values, variation, ...(contextKind ? { contextKind } : {}) });
        break;
      }
      case 'removeTargets': {
        const variation = variationIndex(ins['variationId']);
        const values = strings(ins['values'], 'values');
        env!.targets = env!.targets.map((t) => (t.variation === variation ? { ...t, values: t.values.filter((v) => !values.includes(v)) } : t)).filter((t) => t.values.length > 0);
        break;
      }
      case 'clearTargets': env!.targets = []; break;
      case 'addRule': {
        const clauses = ins['clauses'];
        if (!Array.isArray(clauses)) throw invalid('addRule needs clauses');
        const rule = {
          clauses: clauses.map((cl: Record<string, unknown>) => ({ attribute: String(cl['attribute']), op: String(cl['op']), values: Array.isArray(cl['values']) ? cl['values'] : [], contextKind: typeof cl['contextKind'] === 'string' ? cl['contextKind'] : 'user', negate: cl['negate'] === true })),
          variation: variationIndex(ins['variationId']),
          ...(typeof ins['description'] === 'string' ? { description: ins['description'] } : {}),
        };
        const before = typeof ins['beforeRuleId'] === 'string' ? env!.rules.findIndex((r) => r._id === ins['beforeRuleId']) : -1;
        if (before === -1) env!.rules.push(rule); else env!.rules.splice(before, 0, rule);
        break;
      }
      case 'removeRule': {
        const i = env!.rules.findIndex((r) => r._id === ins['ruleId']);
        if (i === -1) throw invalid(`Unknown ruleId ${String(ins['ruleId'])}`);
        env!.rules.splice(i, 1);
        break;
      }
      case 'updateName': if (typeof ins['value'] !== 'string' || !ins['value']) throw invalid('updateName needs a value'); next.name = ins['value']; break;
      case 'updateDescription': next.description = String(ins['value'] ?? ''); break;
      case 'addTags': next.tags = [...next.tags, ...strings(ins['values'], 'values').filter((t) => !next.tags.includes(t))]; break;
      case 'removeTags': { const drop = strings(ins['values'], 'values'); next.tags = next.tags.filter((t) => !drop.includes(t)); break; }
      case 'archiveFlag': next.archived = true; break;
      case 'restoreFlag': next.archived = false; break;
      case 'deprecateFlag': next.deprecated = true; break;
      case 'restoreDeprecatedFlag': next.deprecated = false; break;
      case 'makeFlagTemporary': next.temporary = true; break;
      case 'makeFlagPermanent': next.temporary = false; break;
      default: throw invalid(`Unsupported semantic patch instruction: ${kind || '(no kind)'}`);
    }
  }
  return next;
}
