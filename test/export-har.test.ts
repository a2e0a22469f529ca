import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { LevelJournal } from '../mocks/core/journal.js';
import type { JournalEntry } from '../mocks/core/journal-format.js';
import { harChunks, harEntry } from '../replay/har.js';
import { openJournal } from '../replay/source.js';
import { redactTarget } from '../replay/redact.js';
import { tempDir, testHeader } from './helpers/journal.js';
import { toolbench } from './helpers/replay-cli.js';
import { harSchema } from './helpers/replay-har-schema.js';
import { recordGithubTrial, TOKENS } from './helpers/replay-github.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const validate = addFormats(new Ajv({ allErrors: true, strict: false })).compile(harSchema);

const bytes = (text: string) => new Uint8Array(Buffer.from(text));

function entry(seq: number, fields: Partial<JournalEntry> & { reqHeaders?: [string, string][]; reqBody?: Uint8Array; resHeaders?: [string, string][]; resBody?: Uint8Array; status?: number }): JournalEntry {
  const { reqHeaders = [], reqBody = new Uint8Array(), resHeaders = [], resBody = new Uint8Array(), status = 200, ...rest } = fields;
  return {
    seq, time: new Date(Date.UTC(2025, 0, 1, 0, 0, seq)).toISOString(), kind: 'http', service: 'github', host: 'api.github.com',
    method: 'GET', target: '/', operation: null, attribution: null, fault: null,
    request: { headers: reqHeaders, body: reqBody, oversize: false },
    response: { status, headers: [['Date', 'x'], ...resHeaders, ['Content-Length', String(resBody.length)]], body: resBody },
    ...rest,
  };
}

/** Every kind of body and credential the export must handle. */
const ENTRIES: JournalEntry[] = [
  entry(1, {
    target: '/repos/acme/web/issues?access_token=ghp_query_secret&per_page=2&client_secret=shh',
    reqHeaders: [['Host', 'api.github.com'], ['Authorization', 'Bearer ghp_header_secret'], ['Cookie', 'a=one; b=two'], ['X-Api-Key', 'k-123']],
    resHeaders: [['Content-Type', 'application/json; charset=utf-8'], ['Set-Cookie', 'sid=s3cr3t; Path=/; HttpOnly; Secure']],
    resBody: bytes('[{"title":"héllo ✓"}]'),
  }),
  entry(2, {
    method: 'POST', target: '/upload',
    reqHeaders: [['Content-Type', 'application/octet-stream']], reqBody: new Uint8Array([0xff, 0x00, 0xfe, 0x80]),
    resHeaders: [['Content-Type', 'image/png']], resBody: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff]), status: 201,
  }),
  entry(3, { resHeaders: [['Content-Type', 'text/plain']], resBody: bytes('\uFEFFa BOM must survive') }),
  entry(4, { method: 'HEAD', status: 302, resHeaders: [['Location', 'https://api.github.com/elsewhere']] }),
  entry(5, { kind: 'reset', service: null, host: 'toolbench', method: 'POST', target: '/_bench/reset', resBody: bytes('{"ok":true,"seq":5}') }),
  entry(6, {
    method: 'PATCH', target: '/repos/acme/web', reqHeaders: [['Content-Type', 'application/json']], reqBody: bytes('{"name":"x"}'),
    attribution: { kind: 'mcp', client: null, endpoint: 'github', tool: 'update_repo', callId: 'c1' },
    fault: { kind: 'latency', latencyMs: 250 },
  }),
];

async function journalWithEntries(): Promise<string> {
  const dir = join(tempDir(), 'journal');
  const journal = await LevelJournal.create(dir, testHeader());
  await Promise.all(ENTRIES.map((e) => journal.append(e)));
  await journal.close();
  return dir;
}

interface Har { log: { entries: { _seq: number; request: { url: string; headers: { name: string; value: string }[]; cookies: { value: string }[]; queryString: { name: string; value: string }[]; postData?: { text: string; encoding?: string } }; response: { cookies: { value: string }[]; headers: { name: string; value: string }[]; content: { text?: string; encoding?: string; size: number } }; time: number }[] } }

function decode(text: string | undefined, encoding: string | undefined): Buffer {
  return encoding === 'base64' ? Buffer.from(text ?? '', 'base64') : Buffer.from(text ?? '', 'utf8');
}

test('the HAR validates against HAR 1.2 and every body round-trips byte for byte', async (t) => {
  const dir = await journalWithEntries();
  const out = join(tempDir(), 'trial.har');
  const result = await toolbench(['export', dir, '--har', '--out', out]);
  t.is(result.code, 0, result.stderr);
  const har = JSON.parse(readFileSync(out, 'utf8')) as Har;
  t.true(validate(har), JSON.stringify(validate.errors));
  t.is(har.log.entries.length, ENTRIES.length);
  for (const [i, exported] of har.log.entries.entries()) {
    const original = ENTRIES[i]!;
    t.is(exported._seq, original.seq);
    t.deepEqual(decode(exported.response.content.text, exported.response.content.encoding), Buffer.from(original.response.body), `response body of seq ${original.seq}`);
    t.is(exported.response.content.size, original.response.body.length);
    if (original.request.body.length > 0) {
      t.deepEqual(decode(exported.request.postData?.text, exported.request.postData?.encoding), Buffer.from(original.request.body), `request body of seq ${original.seq}`);
    } else {
      t.is(exported.request.postData, undefined);
    }
  }
  t.is(har.log.entries[1]!.response.content.encoding, 'base64');
  t.is(har.log.entries[1]!.request.postData?.encoding, 'base64');
  t.is(har.log.entries[0]!.response.content.encoding, undefined, 'UTF-8 stays text');
  t.is(har.log.entries[5]!.time, 250, 'recorded latency as wait time');
});

test('credentials are redacted by default and kept with --no-redact', async (t) => {
  const dir = await journalWithEntries();
  const redacted = await toolbench(['export', dir, '--har']);
  t.is(redacted.code, 0, redacted.stderr);
  for (const secret of ['ghp_query_secret', 'ghp_header_secret', 'shh', 'one', 'two', 's3cr3t', 'k-123']) {
    t.false(redacted.stdout.includes(secret), `${secret} leaked`);
  }
  const first = (JSON.parse(redacted.stdout) as Har).log.entries[0]!;
  t.is(first.request.url, 'https://api.github.com/repos/acme/web/issues?access_token=REDACTED&per_page=2&client_secret=REDACTED');
  t.deepEqual(first.request.queryString, [
    { name: 'access_token', value: 'REDACTED' }, { name: 'per_page', value: '2' }, { name: 'client_secret', value: 'REDACTED' },
  ]);
  t.deepEqual(first.request.headers.map((h) => h.value), ['api.github.com', 'Bearer REDACTED', 'a=REDACTED; b=REDACTED', 'REDACTED']);
  t.is(first.response.headers.find((h) => h.name === 'Set-Cookie')?.value, 'sid=REDACTED; Path=/; HttpOnly; Secure');
  t.deepEqual(first.request.cookies.map((c) => c.value), ['REDACTED', 'REDACTED']);

  const kept = await toolbench(['export', dir, '--har', '--no-redact']);
  for (const secret of ['ghp_query_secret', 'ghp_header_secret', 's3cr3t', 'k-123']) t.true(kept.stdout.includes(secret), secret);
});

test('redaction keeps the exact bytes of everything else in a target', (t) => {
  t.is(redactTarget('/a?x=%20y&token=abc&b'), '/a?x=%20y&token=REDACTED&b');
  t.is(redactTarget('/a'), '/a');
  t.is(redactTarget('/a?API_KEY=1&my_token=2&keep=3'), '/a?API_KEY=REDACTED&my_token=REDACTED&keep=3');
  t.is(harEntry(ENTRIES[4]!, true).request.url, 'http://toolbench/_bench/reset');
});

test('export without --har and of a missing journal: exit 2 with one line', async (t) => {
  const dir = await journalWithEntries();
  const noFormat = await toolbench(['export', dir]);
  t.is(noFormat.code, 2);
  t.regex(noFormat.stderr, /--har/);
  const missing = await toolbench(['export', join(tempDir(), 'none'), '--har']);
  t.is(missing.code, 2);
  t.is(missing.stderr.trim().split('\n').length, 1);
});

test('a GitHub trial exports to a valid HAR: every body round-trips, no token left', async (t) => {
  const trial = await recordGithubTrial({ total: 80, clients: 2 });
  const journal = await openJournal(trial.journalDir);
  t.teardown(() => journal.close());
  let text = '';
  for await (const chunk of harChunks(journal.header, journal.entries(), { creatorVersion: '0.0.0-test' })) text += chunk;
  const har = JSON.parse(text) as Har;
  t.true(validate(har), JSON.stringify(validate.errors));
  t.is(har.log.entries.length, trial.requests);
  let i = 0;
  for await (const original of journal.entries()) {
    const exported = har.log.entries[i++]!;
    t.deepEqual(decode(exported.response.content.text, exported.response.content.encoding), Buffer.from(original.response.body));
    if (original.request.body.length > 0) t.deepEqual(decode(exported.request.postData?.text, exported.request.postData?.encoding), Buffer.from(original.request.body));
  }
  for (const token of Object.values(TOKENS)) t.false(text.includes(token), 'token redacted');
  t.true(text.includes('"value":"token REDACTED"') || text.includes('"value":"Bearer REDACTED"'));
});
