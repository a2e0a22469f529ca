import test from 'ava';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startStack, type Stack } from '../catalog/stack.js';
import { nodeClientEnv } from './helpers/proxy-processes.js';
import { testCaDir } from './helpers/proxy.js';
import { sourceUrl } from '../mocks/core/source-url.js';

// The official @hubspot/api-client (13.5, unmodified) in its own Node process, reaching
// https://api.hubapi.com through the preload and the TLS proxy, against the HubSpot mock.

const run = promisify(execFile);
const SCENARIO = 'mocks/hubspot/conformance';
const TOKEN = 'pat-na1-conformance-00000000-0000-0000';
let stack: Stack;

test.before(async () => {
  stack = await startStack({ scenarioDir: SCENARIO, ports: 'ephemeral', caDir: testCaDir(), endpoints: false, clients: ['hubspot-sdk'] });
});
test.after.always(async () => {
  await stack?.close();
});

test('@hubspot/api-client lists, pages, searches, creates with associations, updates, associates, archives; its ApiException carries HubSpot\'s errors', async (t) => {
  const script = fileURLToPath(new URL('./helpers/hubspot-sdk-client.mjs', sourceUrl(import.meta.url)));
  const { stdout } = await run(process.execPath, [script], { env: { ...process.env, ...nodeClientEnv(stack.proxy!.proxy.urlFor('hubspot-sdk'), stack.caPath!), HUBSPOT_TOKEN: TOKEN } });
  const out = JSON.parse(stdout);
  t.deepEqual(out.page, { ids: ['101', '102', '103', '104', '105'], next: '106', companies: ['contact_to_company', 'contact_to_company_unlabeled'] });
  t.is(out.all, 90, 'getAll follows the after cursors to the last page');
  t.deepEqual(out.search, { total: 5, emails: ['vera.haddad@bluebirdmedia.example', 'rosa.sato@acmecorp.example', 'umar.silva@willowlearning.example', 'sami.tanaka@acmecorp.example', 'umar.tanaka@acmecorp.example'] });
  t.deepEqual(out.created, { id: '541', stage: 'qualifiedtobuy', createdAt: true });
  t.deepEqual(out.updated, { stage: 'closedwon', amount: '13500', companies: ['2004:deal_to_company', '2004:deal_to_company_unlabeled'] });
  t.deepEqual(out.associations, [['HUBSPOT_DEFINED/4']]);
  t.deepEqual(out.labels, ['1:Primary', '279:']);
  t.true(out.properties);
  t.is(out.owners.length, 5);
  t.deepEqual(out.stages, ['appointmentscheduled', 'qualifiedtobuy', 'presentationscheduled', 'decisionmakerboughtin', 'contractsent', 'closedwon', 'closedlost']);
  t.deepEqual(out.errors, {
    archived: { code: 404, category: 'OBJECT_NOT_FOUND' },
    duplicate: { code: 409, category: 'CONFLICT', message: 'Contact already exists. Existing ID: 101' },
    invalid: { code: 400, category: 'VALIDATION_ERROR' },
  });

  await stack.world.journal.flush();
  const seen: string[] = [];
  for await (const entry of stack.world.journal.entries()) seen.push(`${entry.host} ${entry.operation?.name ?? 'null'}`);
  t.true(seen.every((s) => s.startsWith('api.hubapi.com ') && !s.endsWith(' null')), seen.join('\n'));
  t.true(['objects.getPage', 'objects.search', 'objects.create', 'objects.update', 'objects.archive', 'associations.createDefault', 'associations.getPage', 'associations.labels', 'pipelines.getAll']
    .every((name) => seen.includes(`api.hubapi.com ${name}`)));
  const deal = stack.world.gradingState().hubspot!.deals!['541'] as { archived: boolean; properties: Record<string, string> };
  t.like(deal, { archived: true, properties: { dealname: 'SDK – Growth plan', dealstage: 'closedwon', amount: '13500' } });
});
