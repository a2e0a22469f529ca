// Runs @tavily/core (unmodified) against https://api.tavily.com through the preload and the TLS
// proxy; prints one JSON object of what it saw. TAVILY_KEY, TAVILY_BROKE (a key with no credits).
import { tavily } from '@tavily/core';

const client = tavily({ apiKey: process.env.TAVILY_KEY });
const out = {};
const search = await client.search('quillstack default pool max_connections', { maxResults: 3, includeAnswer: true, includeRawContent: 'markdown', includeFavicon: true });
out.search = { answer: search.answer, urls: search.results.map((r) => r.url), scores: search.results.map((r) => r.score), raw: search.results[0].rawContent.slice(0, 40), favicon: search.results[0].favicon, requestId: search.requestId };
const news = await client.search('Meridian Rail strike', { topic: 'news', maxResults: 2 });
out.news = news.results.map((r) => [r.url, r.publishedDate]);
const extract = await client.extract(['https://quillstack.dev/docs/storage', 'https://quillstack.dev/missing'], { format: 'text' });
out.extract = { ok: extract.results.map((r) => r.url), failed: extract.failedResults, text: extract.results[0].rawContent.slice(0, 30) };
const crawl = await client.crawl('https://quillstack.dev/docs', { maxDepth: 1, limit: 3 });
out.crawl = { base: crawl.baseUrl, urls: crawl.results.map((r) => r.url) };
const map = await client.map('https://quillstack.dev/docs', { maxDepth: 2, selectPaths: ['/blog/.*'] });
out.map = map.results;
const research = await client.research('Meridian Rail strike date', { model: 'mini' });
let task = await client.getResearch(research.requestId);
out.research = { created: research.status, polled: task.status, sources: task.sources?.length ?? 0, content: (task.content ?? '').slice(0, 40) };
const errors = {};
try { await tavily({ apiKey: 'tvly-wrong' }).search('x'); } catch (e) { errors.badKey = e.message; }
try { await tavily({ apiKey: process.env.TAVILY_BROKE }).search('x'); } catch (e) { errors.broke = e.message; }
out.errors = errors;
process.stdout.write(JSON.stringify(out));
