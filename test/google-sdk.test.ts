import test from 'ava';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startStack, type Stack } from '../catalog/stack.js';
import type { OpenApiDocument } from '../mocks/kit/spec-fallback.js';
import { nodeClientEnv } from './helpers/proxy-processes.js';
import { testCaDir } from './helpers/proxy.js';
import { specValidator } from './helpers/spec-validate.js';
import { sourceUrl } from '../mocks/core/source-url.js';

// The official googleapis client (v174, unmodified) in its own Node process, reaching
// www.googleapis.com and docs/sheets/slides.googleapis.com through the preload and the TLS
// proxy, against the Google mock's conformance world; then every JSON answer it got is
// validated against Google's own descriptions (pruned copies in mocks/google/spec/).

const run = promisify(execFile);
let stack: Stack;

test.before(async () => {
  stack = await startStack({ scenarioDir: 'mocks/google/conformance', ports: 'ephemeral', caDir: testCaDir(), endpoints: false, clients: ['googleapis'] });
});
test.after.always(async () => {
  await stack?.close();
});

// Google's own formats (google-datetime, google-fieldmask, int64 as a string…) are dropped: ajv does not know them.
const spec = (name: string) => JSON.parse(readFileSync(fileURLToPath(new URL(`../mocks/google/spec/${name}.json`, sourceUrl(import.meta.url))), 'utf8')
  .replace(/,"format":"(google-[a-z]+|int64|uint64|int32|uint32|byte|double|float)"/g, '').replace(/"format":"(google-[a-z]+|int64|uint64|int32|uint32|byte|double|float)",/g, '')) as OpenApiDocument;

test('googleapis: Drive, Docs, Sheets, Slides and Calendar through the proxy; answers match Google\'s descriptions', async (t) => {
  const script = fileURLToPath(new URL('./helpers/google-sdk-client.mjs', sourceUrl(import.meta.url)));
  const { stdout } = await run(process.execPath, [script], { env: { ...process.env, ...nodeClientEnv(stack.proxy!.proxy.urlFor('googleapis'), stack.caPath!), GOOGLE_TOKEN: 'google-conformance-token' } });
  const out = JSON.parse(stdout);
  t.deepEqual(out.about, { user: { displayName: 'Alex Rivera', emailAddress: 'alex@northwind.example' } });
  t.deepEqual(out.paged, { first: ['Archive', 'readme.txt'], hasNext: true, second: ['Weekly sync notes'], more: false, keys: ['id', 'mimeType', 'name'] });
  t.deepEqual(out.fullText, ['Weekly sync notes']);
  t.deepEqual(out.nameContains, ['Weekly sync notes']);
  t.deepEqual(out.created, { name: 'sdk.txt', mimeType: 'text/plain', size: '21', parents: ['1ConfFolderProjects0000000000000'] });
  t.is(out.media, 'hello from googleapis');
  t.deepEqual(out.updated, { name: 'sdk-renamed.txt', parents: ['1ConfFolderArchive00000000000000'] });
  t.deepEqual(out.copy, { name: 'Notes copy', mimeType: 'application/vnd.google-apps.document' });
  t.true(out.exported.replace(/^\ufeff/, '').startsWith('Weekly sync, 24 February\r\n') && out.exported.includes('* Sam: review the CSV parser'), out.exported);
  t.deepEqual(out.permissions, { created: { role: 'reader', emailAddress: 'sam@northwind.example' }, list: [{ role: 'owner', emailAddress: 'alex@northwind.example' }, { role: 'reader', emailAddress: 'sam@northwind.example' }] });
  t.like(out.deleted, { status: 404 });
  t.deepEqual(out.doc, { title: 'Weekly sync notes', first: 'TITLE', last: 'Sam: review the CSV parser\n', end: 169, bullets: 2 });
  t.deepEqual(out.batch, [{}, { replaceAllText: { occurrencesChanged: 1 } }]);
  t.true(out.afterText.endsWith('Sam: review the CSV importer\nPriya: book the room\n'), out.afterText);
  t.deepEqual(out.sheetTitles, ['Orders', 'Summary', 'Scratch']);
  t.deepEqual(out.values, { range: 'Orders!A1:D3', majorDimension: 'ROWS', values: [['Order', 'Customer', 'Amount', 'Status'], ['A-1001', 'Globex', '1200', 'paid'], ['A-1002', 'Initech', '450.5', 'open']] });
  t.deepEqual(out.appended, { spreadsheetId: '1ConfSheetOrders0000000000000000', tableRange: 'Orders!A1:D4', updates: { spreadsheetId: '1ConfSheetOrders0000000000000000', updatedRange: 'Orders!A5:D5', updatedRows: 1, updatedColumns: 4, updatedCells: 4 } });
  t.is(out.valuesUpdated.updatedRange, 'Orders!D3');
  t.deepEqual(out.batchGet, [
    { range: 'Orders!A4:D5', majorDimension: 'ROWS', values: [['A-1003', 'Umbrella', 980, 'paid'], ['A-1004', 'Hooli', 75, 'open']] },
    { range: 'Summary!A1:B1', majorDimension: 'ROWS', values: [['Total', 2630.5]] },
  ]);
  t.deepEqual(out.badRange, { status: 400, message: 'Unable to parse range: Nope!A1' });
  t.deepEqual(out.slides, ['Northwind importer\n|Move legacy data in minutes\n', 'Pricing\n|Per seat, billed yearly\n', 'Backup slide\n']);
  t.deepEqual(out.events, ['Design review', 'Tentative lunch']);
  t.deepEqual(out.event, { summary: 'SDK planning', location: 'Room 4', status: 'confirmed' });
  t.is(out.afterDelete, 0);
  t.is(out.unauthenticated.status, 401);

  await stack.world.journal.flush();
  const validators = new Map(['drive', 'calendar', 'slides', 'docs', 'sheets'].map((name) => [name, specValidator(spec(name))]));
  let checked = 0;
  for await (const entry of stack.world.journal.entries()) {
    const name = entry.operation?.name;
    t.truthy(name, `${entry.method} ${entry.target} reached an operation`);
    const type = entry.response.headers.find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
    if (!name || entry.response.status >= 300 || !type.startsWith('application/json')) continue;
    const error = validators.get(name.split('.')[0]!)!(name, JSON.parse(Buffer.from(entry.response.body).toString('utf8')));
    t.is(error, null, `${name}: ${entry.method} ${entry.target}`);
    checked++;
  }
  t.true(checked >= 20, `${checked} answers validated`);
});
