// launchdarkly-api-typescript (the devDependency, 17.2, unmodified; axios) against
// app.launchdarkly.com through whatever the preload set up: flags listed by filter and paged,
// one flag read for one environment, a flag created, a JSON patch and a semantic patch, flag
// status, environments, the audit log, and LaunchDarkly's {code, message} errors (404, 409, 403
// for a reader token, 400 for a bad patch). Prints one JSON object.
import ld from 'launchdarkly-api-typescript';

const { Configuration, FeatureFlagsApi, EnvironmentsApi, AuditLogApi } = ld;
const config = new Configuration({ apiKey: process.env.LD_TOKEN });
const flags = new FeatureFlagsApi(config);
const out = {};
const errorOf = async (promise) => {
  try { await promise; return null; } catch (e) { return { status: e.response?.status, body: e.response?.data }; }
};

const page1 = (await flags.getFeatureFlags('storefront', undefined, undefined, 3, 0, undefined, undefined, 'tags:checkout')).data;
const page2 = (await flags.getFeatureFlags('storefront', undefined, undefined, 3, 3, undefined, undefined, 'tags:checkout')).data;
out.checkout = { total: page1.totalCount, keys: [...page1.items, ...page2.items].map((f) => f.key), next: page1._links.next?.href ?? null };
const flag = (await flags.getFeatureFlag('storefront', 'new-checkout-flow', 'production')).data;
out.flag = { envs: Object.keys(flag.environments), on: flag.environments.production.on, rules: flag.environments.production.rules.length, variations: flag.variations.map((v) => v.value) };
const created = (await flags.postFeatureFlag('storefront', { name: 'SDK flag', key: 'sdk-flag', tags: ['sdk'] })).data;
out.created = { kind: created.kind, version: created._version, envs: Object.keys(created.environments).sort(), on: created.environments.production.on };
const patched = (await flags.patchFeatureFlag('storefront', 'sdk-flag', { comment: 'turn on in staging', patch: [
  { op: 'replace', path: '/environments/staging/on', value: true },
  { op: 'add', path: '/tags/-', value: 'rollout' },
] })).data;
out.patched = { version: patched._version, staging: patched.environments.staging.on, production: patched.environments.production.on, tags: patched.tags };
const onId = patched.variations[0]._id;
const semantic = (await flags.patchFeatureFlag('storefront', 'sdk-flag', { environmentKey: 'production', instructions: [
  { kind: 'turnFlagOn' }, { kind: 'addTargets', variationId: onId, values: ['user-1', 'user-2'] },
] }, undefined, { headers: { 'Content-Type': 'application/json; domain-model=launchdarkly.semanticpatch' } })).data;
out.semantic = { on: semantic.environments.production.on, targets: semantic.environments.production.targets };
const status = (await flags.getFeatureFlagStatusAcrossEnvironments('storefront', 'express-shipping')).data;
out.status = Object.fromEntries(Object.entries(status.environments).map(([k, v]) => [k, v.name]));
const envs = (await new EnvironmentsApi(config).getEnvironmentsByProject('storefront')).data;
out.environments = envs.items.map((e) => `${e.key}:${e.critical}`);
const audit = (await new AuditLogApi(config).getAuditLogEntries(undefined, undefined, undefined, 3)).data;
out.audit = audit.items.map((e) => e.description);
out.errors = {
  missing: await errorOf(flags.getFeatureFlag('storefront', 'no-such-flag')),
  duplicate: await errorOf(flags.postFeatureFlag('storefront', { name: 'Dark mode again', key: 'dark-mode' })),
  badPatch: await errorOf(flags.patchFeatureFlag('storefront', 'sdk-flag', { patch: [{ op: 'replace', path: '/environments/production/fallthrough/variation', value: 7 }] })),
  reader: await errorOf(new FeatureFlagsApi(new Configuration({ apiKey: process.env.LD_READER })).deleteFeatureFlag('storefront', 'dark-mode')),
  noToken: await errorOf(new FeatureFlagsApi(new Configuration({ apiKey: 'api-not-a-token' })).getFeatureFlags('storefront')),
};
console.log(JSON.stringify(out));
