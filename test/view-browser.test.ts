import test from 'ava';
import { cpSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { serviceDefinitions } from '../mocks/index.js';
import type { JournalEntry, McpRecord } from '../mocks/core/journal-format.js';
import { routesResolver } from '../replay/route.js';
import { readReportFile } from '../replay/report-file.js';
import { EntryDetailSchema, SummarySchema, TimelinePageSchema } from '../replay/view/api.js';
import { startViewServer, type ViewServer } from '../replay/view/server.js';
import { loadTrial, trialPaths, type LoadedTrial } from '../replay/view/trial.js';
import { openJournal } from '../replay/source.js';
import { recordTrial } from '../scenarios/record.js';
import { tempDir } from './helpers/journal.js';
import { startToolbench, type Daemon } from './helpers/proxy-processes.js';
import { testCaDir } from './helpers/proxy.js';
import { rewriteEntry } from './helpers/replay.js';
import { toolbench } from './helpers/replay-cli.js';
import { browserMissing, launchChromium, writeLargeJournal } from './helpers/view.js';
import { EXAMPLE_SCENARIO } from './helpers/world.js';
import { fixtureArgs } from './helpers/cli.js';

// Done when: a trial recorded here (two MCP tool calls, one bypass made with fetch through the
// proxy), seen in a real Chromium through `toolbench view`: every tool call in the timeline, the
// bypass marked, an entry's body on click, the grade, and a replay divergence (one flipped byte)
// side by side; and a 10,000-entry journal that loads and scrolls. One browser, one trial.
// TOOLBENCH_VIEW_SCREENSHOTS=docs also writes the guide's screenshots (docs/viewer.md).

// Code that runs in the page (page.evaluate): the DOM, typed loosely here (the project's lib has no DOM).
declare const document: any;
declare const requestAnimationFrame: (callback: () => void) => number;

const missing = browserMissing();
const LARGE = 10_000;
const shots = process.env.TOOLBENCH_VIEW_SCREENSHOTS;

let browser: BrowserContext;
let view: Daemon<{ url: string; port: number; token: string; entries: number; calls: number }>;
let entries: JournalEntry[];
let calls: McpRecord[];
let flipped: { seq: number; offset: number; was: string; now: string };
let large: { server: ViewServer; trial: LoadedTrial; calls: number; loadMs: number };
let runDir: string;
let originalRun: string;

async function open(hash = ''): Promise<Page> {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => { if (message.type() === 'error') errors.push(message.text()); });
  await page.goto(view.ready.url + hash);
  await page.waitForSelector('body[data-ready]');
  (page as Page & { errors?: string[] }).errors = errors;
  return page;
}

async function screenshot(page: Page, name: string): Promise<void> {
  if (!shots) return;
  mkdirSync(shots, { recursive: true });
  const path = join(shots, `viewer-${name}.png`);
  await page.screenshot({ path });
  if (statSync(path).size > 300_000) throw new Error(`${path} is over 300 KB`);
}

if (missing) {
  test.skip(`view in a browser: skipped, ${missing}`, () => undefined);
} else {
  test.before(async () => {
    // One trial: the wrong agent files two issues over MCP and reads a repository with fetch
    // through the proxy (a bypass). Then a copy of the run with one response byte flipped.
    const agent = { command: ['/usr/bin/env', 'WRONG_AGENT_MODE=extra', process.execPath, ...fixtureArgs('wrong-agent')] };
    const [{ outDir }, browserContext] = await Promise.all([
      recordTrial({ scenarioDir: EXAMPLE_SCENARIO, outDir: join(tempDir(), 'run'), agent, caDir: testCaDir(), timeoutMs: 60_000, endpoints: 'scenario' }),
      launchChromium(),
    ]);
    browser = browserContext;
    const run = runDir = join(tempDir(), 'run');
    cpSync(outDir, run, { recursive: true });
    const journal = await openJournal(join(run, 'journal'));
    entries = [];
    for await (const entry of journal.entries()) entries.push(entry);
    calls = [];
    for await (const record of journal.mcpRecords()) if (record.kind === 'call') calls.push(record);
    await journal.close();
    const target = entries.find((entry) => entry.attribution?.kind === 'mcp')!;
    const text = Buffer.from(target.response.body).toString('utf8');
    const offset = text.indexOf('"title":"') + '"title":"'.length;
    await rewriteEntry(join(run, 'journal'), target.seq, (entry) => { entry.response.body[offset]! ^= 0x20; });
    flipped = { seq: target.seq, offset, was: text[offset]!, now: String.fromCharCode(text.charCodeAt(offset) ^ 0x20) };

    const [replay, original] = await Promise.all([
      toolbench(['replay', join(run, 'journal'), '--verify', '--report', join(run, 'replay-report.json')]),
      toolbench(['replay', join(outDir, 'journal'), '--verify', '--report', join(outDir, 'replay-report.json')]),
    ]);
    if (replay.code !== 1) throw new Error(`replay --verify should exit 1 on the flipped byte:\n${replay.stdout}${replay.stderr}`);
    if (original.code !== 0) throw new Error(`replay --verify of the trial should exit 0:\n${original.stdout}${original.stderr}`);
    originalRun = outDir;
    const largeDir = join(tempDir(), 'large');
    const [daemon, written] = await Promise.all([startToolbench<typeof view.ready>(['view', run]), writeLargeJournal(largeDir, LARGE)]);
    view = daemon;
    const loading = Date.now();
    const trial = await loadTrial(trialPaths(largeDir), routesResolver(serviceDefinitions));
    large = { server: await startViewServer(trial), trial, calls: written.calls, loadMs: Date.now() - loading };
  });

  test.after.always(async () => {
    await browser?.close();
    await view?.stop();
    await large?.server.close();
    await large?.trial.close();
  });

  test.serial('replay --report: the first divergent entry with both responses in full, the flipped byte on each side', (t) => {
    const report = readReportFile(join(runDir, 'replay-report.json'));
    t.like(report, { verdict: 'divergent', divergent: 1, divergentSeqs: [flipped.seq] });
    const first = report.firstDivergence!;
    t.is(first.seq, flipped.seq);
    t.deepEqual(first.fields, ['body']);
    const recorded = Buffer.from(first.responses.recorded.body.data, 'utf8');
    const replayed = Buffer.from(first.responses.replayed.body.data, 'utf8');
    t.is(recorded.length, replayed.length);
    t.is(String.fromCharCode(recorded[flipped.offset]!), flipped.now);
    t.is(String.fromCharCode(replayed[flipped.offset]!), flipped.was);
    t.is(Buffer.compare(recorded.subarray(0, flipped.offset), replayed.subarray(0, flipped.offset)), 0);
  });

  test.serial('replay --report on the untouched trial: identical, no divergence', (t) => {
    const report = readReportFile(join(originalRun, 'replay-report.json'));
    t.like(report, { format: 1, verdict: 'identical', entries: entries.length, divergent: 0, divergentSeqs: [], firstDivergence: null });
  });

  test.serial('the timeline shows every tool call with its request nested, and the bypass marked', async (t) => {
    const page = await open();
    const callRows = page.locator('#rows .row.call');
    t.is(await callRows.count(), calls.length);
    t.true(calls.length >= 2);
    t.deepEqual(await callRows.locator('.tool').allTextContents(), calls.map((c) => `${c.endpoint}/${c.tool}`));
    for (const entry of entries) t.is(await page.locator(`#rows .row[data-seq="${entry.seq}"]`).count(), 1, `seq ${entry.seq} listed`);
    const bypasses = entries.filter((entry) => entry.attribution?.kind === 'direct');
    t.is(bypasses.length, 1);
    const bypass = page.locator(`#rows .row[data-seq="${bypasses[0]!.seq}"]`);
    t.regex((await bypass.getAttribute('class'))!, /\borigin-direct\b/);
    t.is(await bypass.locator('.pill.direct').textContent(), 'bypass');
    t.is(await page.locator('#rows .row.origin-direct').count(), 1);
    // Requests caused by a call sit under it.
    for (const c of calls) {
      const seqs = entries.filter((e) => e.attribution?.callId === c.callId).map((e) => e.seq);
      const index = Number(await page.locator(`#rows .row.call[data-n="${c.n}"]`).getAttribute('data-index'));
      for (const [i, seq] of seqs.entries()) {
        t.is(await page.locator(`#rows .row[data-index="${index + 1 + i}"]`).getAttribute('data-seq'), String(seq));
      }
    }
    t.regex((await page.locator('#count').textContent())!, new RegExp(`${entries.length} requests, ${calls.length} tool calls, 1 bypasses`));
    await screenshot(page, 'timeline');
    t.deepEqual((page as Page & { errors?: string[] }).errors, []);
    await page.close();
  });

  test.serial('clicking an entry shows its method, headers and body, and the MCP call beside it', async (t) => {
    const page = await open();
    const entry = entries.find((e) => e.attribution?.kind === 'mcp' && e.seq !== flipped.seq) ?? entries.find((e) => e.attribution?.kind === 'mcp')!;
    await page.click(`#rows .row[data-seq="${entry.seq}"]`);
    await page.waitForSelector(`#entry[data-seq="${entry.seq}"]`);
    t.is(page.url().split('#')[1], `seq=${entry.seq}`, 'the entry has a deep link');
    const requestBody = JSON.parse(Buffer.from(entry.request.body).toString('utf8')) as { title: string };
    const shownRequest = await page.locator('#request pre.body').textContent();
    t.deepEqual(JSON.parse(shownRequest!), requestBody);
    t.true(shownRequest!.includes('\n  "title": '), 'pretty-printed');
    const responseText = await page.locator('#response pre.body').textContent();
    t.deepEqual(JSON.parse(responseText!), JSON.parse(Buffer.from(entry.response.body).toString('utf8')));
    t.regex((await page.locator('#entry h2').textContent())!, new RegExp(`seq ${entry.seq} · ${entry.method} api\\.github\\.com${entry.target.replace(/[?.]/g, '\\$&')}`));
    t.is(await page.locator('#request table.headers tr').count(), entry.request.headers.length, 'every request header, in order');
    t.is(await page.locator('#request table.headers tr').first().locator('td').first().textContent(), entry.request.headers[0]![0]);
    // The operation, when the service names one (services on the kit do; older mocks and format-1 journals do not).
    const facts = (await page.locator('#entry > dl.facts').textContent())!;
    if (entry.operation) t.true(facts.includes(`operation${entry.operation.name}`), facts);
    else t.false(facts.includes('operation'), facts);
    const call = calls.find((c) => c.callId === entry.attribution?.callId)!;
    t.deepEqual(JSON.parse((await page.locator('#entry pre[data-part="arguments"]').textContent())!), call.arguments);
    t.regex((await page.locator('#entry pre[data-part="result"]').textContent())!, /"html_url"/);
    await screenshot(page, 'entry');
    // Arrow up: the call above it.
    await page.locator('#timeline').press('ArrowUp');
    await page.waitForSelector(`#callview[data-n="${call.n}"]`);
    t.regex((await page.locator(`#rows .row.call[data-n="${call.n}"]`).getAttribute('class'))!, /\bselected\b/);
    await page.close();
  });

  test.serial('a deep link opens an entry; the grade shows the four checks and what was found instead', async (t) => {
    const bypass = entries.find((e) => e.attribution?.kind === 'direct')!;
    const page = await open(`#seq=${bypass.seq}`);
    await page.waitForSelector(`#entry[data-seq="${bypass.seq}"]`);
    t.regex((await page.locator(`#rows .row[data-seq="${bypass.seq}"]`).getAttribute('class'))!, /\bselected\b/);
    t.regex((await page.locator('#entry').textContent())!, /bypass \(direct\)/);
    t.regex((await page.locator('#request table.headers').textContent())!, /authorizationBearer REDACTED/, 'credentials are not shown');
    await page.click('#nav-grade');
    await page.waitForSelector('#grade');
    t.is(await page.locator('#reward').textContent(), 'reward 0');
    t.is(await page.locator('#grade tr[data-check="forbidden calls"] .badge').textContent(), 'FAIL');
    t.is(await page.locator('#grade tr[data-check="state"] .badge').textContent(), 'pass');
    const failed = page.locator('#grade .checks li.fail');
    t.is(await failed.count(), 1);
    t.regex((await failed.textContent())!, /forbidden_call.*found instead: made: #\d+ GET \/repos\/acme\/infra → 200/);
    t.regex((await page.locator('#grade').textContent())!, /github\/issues\/acme\/widgets#43: new document/);
    await screenshot(page, 'grade');
    await page.close();
  });

  test.serial('the divergence view shows the flipped byte side by side', async (t) => {
    const page = await open('#divergence');
    await page.waitForSelector('#divergence #sides');
    t.regex((await page.locator('#divergence h2').textContent())!, new RegExp(`Replay divergent: 1 of ${entries.length} entries differ`));
    const recorded = page.locator('.side.recorded mark.diff');
    const replayed = page.locator('.side.replayed mark.diff');
    t.is(await recorded.textContent(), flipped.now);
    t.is(await replayed.textContent(), flipped.was);
    t.is(await recorded.getAttribute('data-start'), String(flipped.offset));
    t.is(await recorded.getAttribute('data-end'), String(flipped.offset + 1));
    t.regex((await page.locator('#divergence').textContent())!, /\$\.title/);
    t.is(await page.locator(`#rows .row[data-seq="${flipped.seq}"] .pill.divergent`).count(), 1, 'the timeline marks the divergent entry');
    await screenshot(page, 'divergence');
    await page.close();
  });

  test.serial('filters and search narrow the timeline', async (t) => {
    const page = await open();
    const seqs = async () => (await page.locator('#rows .row[data-seq]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-seq')))).map(Number);
    const settle = (total: number) => page.waitForSelector(`#rows[data-total="${total}"]`);
    const bypass = entries.find((e) => e.attribution?.kind === 'direct')!;
    await page.selectOption('#f-origin', 'direct');
    await settle(1);
    t.deepEqual(await seqs(), [bypass.seq]);
    await page.selectOption('#f-origin', '');
    // Wait for the unfiltered timeline first: both filtered states total 1 row, so settle(1)
    // alone could pass on the old one before the search (debounced 200 ms) has run.
    await page.waitForSelector('#rows:not([data-total="1"])');
    await page.fill('#q', 'acme/infra');
    await settle(1);
    t.deepEqual(await seqs(), [bypass.seq]);
    await page.fill('#q', '');
    await page.selectOption('#f-tool', 'create_issue');
    await settle(calls.length * 2);
    t.is(await page.locator('#rows .row.call').count(), calls.length);
    await page.selectOption('#f-tool', '');
    await page.selectOption('#f-status', '2xx');
    await settle(calls.length + entries.length);
    await page.close();
  });

  test.serial('the API needs the token and answers only to its own host name', async (t) => {
    const base = `http://127.0.0.1:${view.ready.port}`;
    t.is((await fetch(`${base}/api/summary`)).status, 401);
    const summary = SummarySchema.parse(await (await fetch(`${base}/api/summary`, { headers: { authorization: `Bearer ${view.ready.token}` } })).json());
    t.is(summary.counts.calls, calls.length);
    t.is(summary.result?.forbidden_calls_ok, false);
    const detail = EntryDetailSchema.parse(await (await fetch(`${base}/api/entry/1`, { headers: { authorization: `Bearer ${view.ready.token}` } })).json());
    t.is(detail.row.seq, 1);
    const page = await fetch(`${base}/api/timeline?offset=0&limit=2`, { headers: { authorization: `Bearer ${view.ready.token}` } });
    t.is(TimelinePageSchema.parse(await page.json()).rows.length, 2);
    // A name that resolves here but is not ours (DNS rebinding) is refused, as is a bad query.
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      request({ host: '127.0.0.1', port: view.ready.port, path: '/', headers: { host: `attacker.example:${view.ready.port}` } }, (res) => { res.resume(); resolve(res.statusCode!); }).on('error', reject).end();
    });
    t.is(status, 403);
    t.is((await fetch(`${base}/api/timeline?offset=x`, { headers: { authorization: `Bearer ${view.ready.token}` } })).status, 400);
  });

  test.serial(`${LARGE.toLocaleString('en')} entries: the page loads and scrolls to the end without rendering every row`, async (t) => {
    const page = await browser.newPage();
    const started = Date.now();
    await page.goto(large.server.url);
    await page.waitForSelector('body[data-ready]');
    await page.waitForSelector('#rows .row[data-seq]');
    const loadMs = Date.now() - started;
    const total = Number(await page.locator('#rows').getAttribute('data-total'));
    t.true(total > LARGE, `${total} rows: every entry plus a row per call`);
    t.true(await page.locator('#rows .row').count() < 150, 'only the visible rows are in the page');
    // Startup requests are folded into one row; clicking it shows them.
    const fold = page.locator('#rows .row.fold');
    t.regex((await fold.textContent())!, /20 startup requests \(seq 1–20\) folded/);
    await fold.click();
    await page.waitForSelector(`#rows[data-total="${total + 20}"]`);
    t.is(await page.locator('#rows .row.origin-startup').count(), 20);
    await page.locator('#rows .row.fold').click();
    await page.waitForSelector(`#rows[data-total="${total}"]`);
    // Scroll in steps, as a wheel would, then jump to the end; each step must render real rows.
    const scrollStarted = Date.now();
    for (const fraction of [0.25, 0.5, 0.75, 1]) {
      await page.locator('#timeline').evaluate((box, f) => { box.scrollTop = (box.scrollHeight - box.clientHeight) * f; }, fraction);
      // In the page: real rows (no placeholder left) for where the list is scrolled to.
      await page.waitForFunction(() => {
        const rows = document.getElementById('rows');
        const box = document.getElementById('timeline');
        return rows.querySelector('.row[data-seq]') && !rows.querySelector('.placeholder') && Math.abs(Number(rows.dataset.first) * 26 - box.scrollTop) < 26 * 40;
      });
    }
    const scrollMs = Date.now() - scrollStarted;
    const lastSeq = await page.locator('#rows .row[data-seq]').last().getAttribute('data-seq');
    t.is(lastSeq, String(LARGE), 'the last entry is reachable');
    // The main thread stays free: a frame is answered promptly after all that.
    const frameMs = await page.evaluate(() => new Promise<number>((resolve) => { const t0 = performance.now(); requestAnimationFrame(() => resolve(performance.now() - t0)); }));
    t.log(`${LARGE} entries: indexed by the server in ${large.loadMs} ms; the page loaded in ${loadMs} ms, scrolled to the end in ${scrollMs} ms, next frame after ${Math.round(frameMs)} ms`);
    t.true(loadMs < 10_000, `loaded in ${loadMs} ms`);
    t.true(scrollMs < 10_000, `scrolled in ${scrollMs} ms`);
    t.true(frameMs < 500, `frame after ${frameMs} ms`);
    const summary = SummarySchema.parse(await (await fetch(`http://127.0.0.1:${large.server.port}/api/summary`, { headers: { authorization: `Bearer ${large.server.token}` } })).json());
    t.is(summary.counts.calls, large.calls);
    if (shots) {
      await page.locator('#timeline').evaluate((box) => { box.scrollTop = 26 * 4000; });
      await page.waitForFunction(() => !document.querySelector('#rows .placeholder'));
      await page.click('#rows .row.origin-direct');
      await page.waitForSelector('#entry');
      await screenshot(page, 'large');
    }
    await page.close();
  });
}
