import test from 'ava';
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BASELINE_DIR, openWorld } from '../scenarios/world.js';
import { fileHash } from '../mocks/core/dataset.js';
import { verifyJournal } from '../replay/verify.js';
import { verifyMany } from '../replay/verify-many.js';
import { placeholderCredential } from '../catalog/env-template.js';
import { BASELINE_PROBES, type ProbeSend } from './helpers/baseline-probes.js';
import { tempDir } from './helpers/journal.js';

/**
 * A service the scenario does not name answers from the shared baseline world
 * (scenarios/baseline/dataset/<service>.json); the journal header records each baseline's hash,
 * and replay checks it only for the services a journal touched.
 */
const GITHUB_SCENARIO = 'scenarios/example/github/basic';

test('a GitHub scenario\'s world loads the Linear baseline, and records its hash', async (t) => {
  const { world, header } = await openWorld({ scenarioDir: GITHUB_SCENARIO });
  t.teardown(() => world.journal.close());
  await world.importServices();
  const state = world.state();
  const baseline = JSON.parse(readFileSync(join(BASELINE_DIR, 'linear.json'), 'utf8')) as { issues?: unknown[] };
  t.true((baseline.issues?.length ?? 0) > 10, 'the baseline is a plausible background world');
  t.true(Object.keys(state.linear ?? {}).length > 0, 'linear answers from its baseline');
  t.is(header.baselines?.linear, fileHash(join(BASELINE_DIR, 'linear.json')));
  t.is(header.baselines?.github, undefined, 'a service the scenario names never loads the baseline');
});

test('every catalog service answers in every trial: a Slack scenario\'s world serves every other service from its baseline', async (t) => {
  const { world, header, catalog } = await openWorld({ scenarioDir: 'scenarios/example/slack/basic' });
  t.teardown(() => world.journal.close());
  // world.process is synchronous: the mocks the scenario does not name are imported first.
  await world.importServices();
  // Every catalog service but Slack, whatever services the catalog gains.
  t.deepEqual(Object.keys(header.baselines ?? {}).sort(), catalog.catalog.services.map((s) => s.id).filter((id) => id !== 'slack').sort());
  const github = JSON.parse(readFileSync(join(BASELINE_DIR, 'github.json'), 'utf8')) as { users: { login: string; tokens: (string | { token: string })[] }[] };
  const user = github.users.find((u) => u.tokens.length > 0)!;
  const token = typeof user.tokens[0] === 'string' ? user.tokens[0] : user.tokens[0]!.token;
  const answer = world.process({ host: 'api.github.com', method: 'GET', target: '/user', headers: [['Authorization', `Bearer ${token}`]], body: new Uint8Array() });
  t.is(answer.response.status, 200);
  t.is(JSON.parse(new TextDecoder().decode(answer.response.body)).login, user.login);
  t.true(Object.keys(world.state(['stripe']).stripe?.customers ?? {}).length >= 20, 'Stripe has its background customers');
});

test('every catalog service\'s baseline_credential logs in to its baseline dataset, and its placeholder does not', async (t) => {
  // A Slack scenario's world serves every service but Slack from its baseline, a GitHub one Slack.
  const slackWorld = await openWorld({ scenarioDir: 'scenarios/example/slack/basic' });
  const githubWorld = await openWorld({ scenarioDir: GITHUB_SCENARIO });
  t.teardown(() => { slackWorld.world.journal.close(); githubWorld.world.journal.close(); });
  await slackWorld.world.importServices();
  await githubWorld.world.importServices();
  const { catalog } = slackWorld.catalog;
  // A service without one starts its distractor endpoints on placeholders, which answer 401.
  t.deepEqual(catalog.services.filter((s) => s.baseline_credential === undefined).map((s) => s.id), [], 'every service has a baseline_credential');
  const amzDate = slackWorld.header.epoch.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  for (const service of catalog.services) {
    if (service.baseline_credential === undefined) continue;
    const probe = BASELINE_PROBES[service.id];
    if (!probe) { t.fail(`${service.id}: no read in test/helpers/baseline-probes.ts to prove its baseline_credential`); continue; }
    const opened = service.id === 'slack' ? githubWorld : slackWorld;
    t.truthy(opened.header.baselines?.[service.id], `${service.id} answers from its baseline here`);
    const seen: string[] = [];
    const send: ProbeSend = (request) => {
      const entry = opened.world.process({ ...request, body: new TextEncoder().encode(request.body ?? '') });
      const body = new TextDecoder().decode(entry.response.body);
      seen.push(`${request.method} ${request.host}${request.target} → ${entry.response.status} ${body.slice(0, 200)}`);
      let json: unknown;
      try { json = body === '' ? undefined : JSON.parse(body); } catch { json = undefined; }
      return { status: entry.response.status, json };
    };
    t.true(probe(service.baseline_credential, { send, amzDate }), `${service.id}: its baseline_credential is refused: ${seen.join('; ')}`);
    // The control: the placeholders a distractor would otherwise start on are refused by the same read.
    const endpoint = catalog.endpoints.find((e) => e.service === service.id);
    if (endpoint) {
      seen.length = 0;
      t.false(probe(placeholderCredential(endpoint), { send, amzDate }), `${service.id}: the read accepts even a placeholder credential: ${seen.join('; ')}`);
    }
  }
});

async function recordOne(baselineDir: string, request: { host: string; target: string; body?: string }): Promise<string> {
  const journalDir = join(tempDir('toolbench-baseline-journal-'), 'journal');
  const { world } = await openWorld({ scenarioDir: GITHUB_SCENARIO, journalDir, baselineDir });
  const response = await world.dispatch({
    host: request.host, method: request.body === undefined ? 'GET' : 'POST', target: request.target,
    headers: [['Content-Type', 'application/json']], body: new TextEncoder().encode(request.body ?? ''),
  });
  await world.journal.close();
  if (response.status >= 500) throw new Error(`status ${response.status}`);
  return journalDir;
}

test('a changed baseline refuses replay only for a service the journal touched', async (t) => {
  const baselineDir = tempDir('toolbench-baseline-');
  cpSync(BASELINE_DIR, baselineDir, { recursive: true });
  const usedLinear = await recordOne(baselineDir, { host: 'api.linear.app', target: '/graphql', body: JSON.stringify({ query: '{ teams { nodes { id name } } }' }) });
  const usedGithub = await recordOne(baselineDir, { host: 'api.github.com', target: '/repos/acme/widgets' });
  t.is((await verifyJournal(usedLinear, { baselineDir })).verdict, 'identical');
  // A batch reads each baseline once (replay/rebuild.ts, BatchInputs) ...
  t.deepEqual((await verifyMany([usedLinear, usedGithub], { jobs: 1, baselineDir })).map((r) => r.verdict), ['identical', 'identical']);

  const file = join(baselineDir, 'linear.json');
  const data = JSON.parse(readFileSync(file, 'utf8')) as { teams: { name: string }[] };
  data.teams[0]!.name += ' (renamed)';
  writeFileSync(file, JSON.stringify(data));
  await t.throwsAsync(verifyJournal(usedLinear, { baselineDir }), { message: /baseline datasets the journal used changed since recording: linear/ });
  const untouched = await verifyJournal(usedGithub, { baselineDir });
  t.is(untouched.verdict, 'identical');
  t.like(untouched.checks.find((c) => c.name === 'baseline'), { status: 'ok' });
  // ... and the next batch reads it again (with --jobs 2 too, a child verifying one of the two).
  for (const jobs of [1, 2]) {
    const batch = await verifyMany([usedLinear, usedGithub], { jobs, baselineDir });
    t.deepEqual(batch.map((r) => r.verdict), ['unusable', 'identical'], `--jobs ${jobs}`);
    t.regex(batch[0]!.verdict === 'unusable' ? batch[0]!.error.message : '', /baseline datasets the journal used changed since recording: linear/);
  }
});
