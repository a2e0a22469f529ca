import test from 'ava';
import { z } from 'zod';
import { FaultRuleSchema } from '../mocks/core/fault-plan.js';
import { MemoryJournal } from '../mocks/core/journal.js';
import { World } from '../mocks/core/world.js';
import { serveProxyForWorld } from '../proxy/for-world.js';
import { prepareWorld } from './helpers/prepare-world.js';
import { testCaDir } from './helpers/proxy.js';
import { run } from './helpers/proxy-processes.js';
import { specValidator } from './helpers/spec-validate.js';
import { loadSpec } from '../mocks/kit/index.js';

// curl, through the TLS proxy, calls https://api.exa.ai as Exa's API reference documents it, in
// the conformance world; every answer is checked against Exa's OpenAPI description (pruned,
// mocks/exa/spec/exa.json) and, strictly (no field the API does not send), against the zod
// transcription below of its response schemas; an injected 429 is Exa's own error body.

const spec = specValidator(loadSpec(import.meta.url, '../mocks/exa/spec/exa.json'));

const KEY = 'exa-conformance-0000-0000-0000-000000000000';

const Result = z.object({
  title: z.string(), url: z.string().url(), publishedDate: z.string().datetime().nullable(), author: z.string().nullable(),
  score: z.number().min(0).max(1).nullable().optional(), id: z.string(), image: z.string().url().optional(), favicon: z.string().url().optional(),
  text: z.string().optional(), highlights: z.array(z.string()).optional(), highlightScores: z.array(z.number()).optional(), summary: z.string().optional(),
  subpages: z.array(z.record(z.unknown())).optional(), extras: z.object({ links: z.array(z.string()).optional(), imageLinks: z.array(z.string()).optional() }).optional(),
}).strict();
const CostDollars = z.object({
  total: z.number(),
  breakDown: z.array(z.object({ search: z.number(), contents: z.number(), breakdown: z.record(z.enum(['keywordSearch', 'neuralSearch', 'deepSearch', 'contentText', 'contentHighlight', 'contentSummary']), z.number()) }).strict()).optional(),
  perPagePrices: z.object({ contentText: z.number(), contentHighlight: z.number(), contentSummary: z.number() }).strict().optional(),
}).strict();
const SearchResponse = z.object({
  requestId: z.string().regex(/^[0-9a-f]{32}$/), resolvedSearchType: z.enum(['neural', 'keyword', 'deep']), searchType: z.enum(['neural', 'keyword', 'deep']),
  results: z.array(Result), context: z.string().optional(), costDollars: CostDollars, searchTime: z.number(),
  // deep search only (documented in the API guide, not in this spec version)
  output: z.object({ content: z.unknown(), grounding: z.array(z.object({ field: z.string(), citations: z.array(z.object({ url: z.string(), title: z.string() })), confidence: z.string() })) }).optional(),
}).strict();
const ContentsResponse = z.object({
  requestId: z.string(), results: z.array(Result), context: z.string().optional(), costDollars: CostDollars, searchTime: z.number(),
  statuses: z.array(z.object({ id: z.string(), status: z.enum(['success', 'error']), source: z.string().optional(), error: z.object({ tag: z.enum(['CRAWL_NOT_FOUND', 'CRAWL_TIMEOUT', 'CRAWL_LIVECRAWL_TIMEOUT', 'SOURCE_NOT_AVAILABLE', 'CRAWL_UNKNOWN_ERROR']), httpStatusCode: z.number().int().nullable() }).optional() }).strict()),
}).strict();
const AnswerResponse = z.object({
  requestId: z.string(), answer: z.union([z.string(), z.record(z.unknown())]), costDollars: CostDollars.partial({ breakDown: true }),
  citations: z.array(z.object({ id: z.string(), url: z.string().url(), title: z.string(), author: z.string().nullable(), publishedDate: z.string().nullable(), text: z.string().optional(), image: z.string().optional(), favicon: z.string().optional() }).strict()),
}).strict();
const ResearchDto = z.discriminatedUnion('status', [
  z.object({ researchId: z.string(), createdAt: z.number(), model: z.string(), instructions: z.string(), status: z.literal('pending') }).strict(),
  z.object({ researchId: z.string(), createdAt: z.number(), model: z.string(), instructions: z.string(), status: z.literal('running') }).strict(),
  z.object({ researchId: z.string(), createdAt: z.number(), model: z.string(), instructions: z.string(), status: z.literal('completed'), finishedAt: z.number(), output: z.object({ content: z.string(), parsed: z.record(z.unknown()).optional() }).strict(), costDollars: z.object({ total: z.number(), numSearches: z.number(), numPages: z.number(), reasoningTokens: z.number() }).strict() }).strict(),
]);
const ErrorBody = z.object({ requestId: z.string(), error: z.string(), tag: z.string() }).strict();

test('curl: search, findSimilar, contents, answer and research answer in the shapes of Exa\'s OpenAPI; errors and an injected 429 are {requestId, error, tag}', async (t) => {
  const { header, services, catalog } = prepareWorld({ scenarioDir: 'mocks/exa/conformance' });
  const faults = { chaos: 'none' as const, rules: [{ route: '/answer', kind: '429', nth: [2], retry_after: 3 }].map((rule) => FaultRuleSchema.parse(rule)) };
  const world = new World({ seed: header.seed, epochMs: Date.parse(header.epoch), tickMs: header.tickMs, services, journal: new MemoryJournal({ ...header, faults }), faults });
  const served = await serveProxyForWorld(world, catalog.catalog, { caDir: testCaDir(), proxyPort: 0, tlsPort: 0 });
  try {
    const curl = async (method: string, path: string, body?: unknown, key = KEY) => {
      const args = ['-sS', '-i', '-x', served.proxy.url, '--cacert', served.certs.ca.certPath, '-X', method, '-H', `x-api-key: ${key}`, '-H', 'Content-Type: application/json'];
      if (body !== undefined) args.push('--data', JSON.stringify(body));
      const out = await run('curl', [...args, `https://api.exa.ai${path}`]);
      t.is(out.code, 0, out.stderr);
      const [head, ...rest] = out.stdout.split('\r\n\r\n').slice(-2);
      return { status: Number(/HTTP\/1\.1 (\d+)/.exec(head!)![1]), head: head!, body: JSON.parse(rest.join('\r\n\r\n')) as Record<string, any> };
    };
    const OPERATION: Record<string, string> = { search: 'search', 'keyword search': 'search', 'deep search': 'search', findSimilar: 'findSimilar', contents: 'getContents', answer: 'answer', 'research created': 'ResearchController_createResearch' };
    const check = <T>(schema: z.ZodType<T>, value: unknown, what: string) => {
      const parsed = schema.safeParse(value);
      t.true(parsed.success, `${what}: ${parsed.success ? '' : JSON.stringify(parsed.error.issues.slice(0, 3))}`);
      const operationId = OPERATION[what] ?? (what.startsWith('research poll') ? 'ResearchController_getResearch' : undefined);
      if (operationId) t.is(spec(operationId, value), null, `${what} against the OpenAPI description`);
    };

    const search = await curl('POST', '/search', { query: 'Quillstack default pool size', type: 'auto', numResults: 4, contents: { text: { maxCharacters: 120 }, highlights: { numSentences: 1, highlightsPerUrl: 2 }, summary: { query: 'default' }, subpages: 1, extras: { links: 2 }, context: true } });
    t.is(search.status, 200);
    check(SearchResponse, search.body, 'search');
    t.is(search.body.results.length, 4);
    t.true(search.body.results.every((r: { text: string }) => r.text.length <= 120));
    t.deepEqual(search.body.costDollars.breakDown[0].breakdown, { neuralSearch: 0.005, contentText: 0.006, contentHighlight: 0.006, contentSummary: 0.006 }, 'four results and two subpages, each with text, highlights and a summary');

    const keyword = await curl('POST', '/search', { query: 'Meridian Rail strike', type: 'keyword', numResults: 10, startPublishedDate: '2025-03-01', endPublishedDate: '2025-03-08', category: 'news' });
    check(SearchResponse, keyword.body, 'keyword search');
    t.deepEqual(keyword.body.results.map((r: { url: string }) => r.url), ['https://www.coastpost.example/news/meridian-rail-strike-12-march', 'https://www.bellmont-gazette.example/opinion/rail-strike-commuters']);
    const deep = await curl('POST', '/search', { query: 'Meridian Rail strike date', type: 'deep', additionalQueries: ['rail strike postponed'], numResults: 3, outputSchema: { type: 'object', properties: { date: { type: 'string', description: 'the date the strike is planned for' } } } });
    check(SearchResponse, deep.body, 'deep search');
    t.is(deep.body.resolvedSearchType, 'deep');
    t.regex(deep.body.output.content.date, /March/);

    const similar = await curl('POST', '/findSimilar', { url: 'https://www.coastpost.example/news/meridian-rail-strike-postponed', numResults: 3 });
    check(SearchResponse.omit({ resolvedSearchType: true, searchType: true }), similar.body, 'findSimilar');
    t.false(similar.body.results.some((r: { url: string }) => r.url === 'https://www.coastpost.example/news/meridian-rail-strike-postponed'), 'the source page is not similar to itself');

    const contents = await curl('POST', '/contents', { urls: ['https://quillstack.dev/docs/storage', 'https://nowhere.example/'], text: true, highlights: { query: 'WAL sync' } });
    check(ContentsResponse, contents.body, 'contents');
    t.deepEqual(contents.body.statuses.map((s: { status: string }) => s.status), ['success', 'error']);

    const answer = await curl('POST', '/answer', { query: 'When is the Meridian Rail strike planned?', text: true });
    check(AnswerResponse, answer.body, 'answer');
    t.true(answer.body.citations.every((c: { text?: string }) => typeof c.text === 'string'));
    const limited = await curl('POST', '/answer', { query: 'When is the Meridian Rail strike planned?' });
    t.is(limited.status, 429);
    check(ErrorBody, limited.body, '429');
    t.is(limited.body.tag, 'RATE_LIMIT_EXCEEDED');
    t.regex(limited.head, /\r\nRetry-After: 3\r\n/i);

    const created = await curl('POST', '/research/v1', { instructions: 'Quillstack default pool size', model: 'exa-research' });
    t.is(created.status, 201);
    check(ResearchDto, created.body, 'research created');
    const statuses: string[] = [];
    for (let i = 0; i < 4; i++) {
      const polled = await curl('GET', `/research/v1/${created.body.researchId}?stream=false&events=false`);
      check(ResearchDto, polled.body, `research poll ${i}`);
      statuses.push(polled.body.status);
    }
    t.deepEqual(statuses, ['running', 'running', 'completed', 'completed'], 'exa-research finishes three logical seconds after it was created');
    const listed = await curl('GET', '/research/v1?limit=1');
    t.like(listed.body, { hasMore: false, nextCursor: null });
    t.is(spec('ResearchController_listResearch', listed.body), null);

    for (const [body, key, status, tag] of [
      [{ query: 'x' }, 'exa-wrong', 401, 'INVALID_API_KEY'],
      [{ query: 'x' }, 'exa-exhausted-0000-0000-0000-000000000000', 402, 'NO_MORE_CREDITS'],
      [{ numResults: 3 }, KEY, 400, 'INVALID_REQUEST_BODY'],
      [{ query: 'x', category: 'company', startPublishedDate: '2025-01-01' }, KEY, 400, 'INVALID_REQUEST'],
    ] as const) {
      const refused = await curl('POST', '/search', body, key);
      t.is(refused.status, status, JSON.stringify(body));
      check(ErrorBody, refused.body, `${status}`);
      t.is(refused.body.tag, tag);
    }
  } finally {
    await served.proxy.close();
    await world.journal.close();
  }
});
