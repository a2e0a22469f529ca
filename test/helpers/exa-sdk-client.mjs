// Runs exa-js (unmodified) against https://api.exa.ai through the preload and the TLS proxy;
// prints one JSON object of what it saw. EXA_KEY, EXA_BROKE (a key with no budget left).
import Exa from 'exa-js';

const exa = new Exa(process.env.EXA_KEY);
const out = {};
const search = await exa.search('Meridian Rail strike', { numResults: 3, type: 'neural', startPublishedDate: '2025-03-01', contents: { highlights: { numSentences: 1 }, summary: true } });
out.search = { type: search.resolvedSearchType, urls: search.results.map((r) => r.url), dates: search.results.map((r) => r.publishedDate), scores: search.results.map((r) => r.score), highlight: search.results[0].highlights[0], summary: typeof search.results[0].summary, requestId: search.requestId, cost: search.costDollars.total };
const keyword = await exa.search('quillstack pool max_connections default', { type: 'keyword', numResults: 10, includeDomains: ['quillstack.dev'], contents: false });
out.keyword = keyword.results.map((r) => r.url);
const contents = await exa.getContents(['https://quillstack.dev/docs/storage', 'https://quillstack.dev/missing'], { text: { maxCharacters: 40 } });
out.contents = { urls: contents.results.map((r) => r.url), text: contents.results[0].text, statuses: contents.statuses };
const similar = await exa.findSimilar('https://quillstack.dev/blog/quillstack-4-0-released', { numResults: 3, excludeSourceDomain: true });
out.similar = similar.results.map((r) => r.url);
const answer = await exa.answer('When is the Meridian Rail strike now planned?', { text: false });
out.answer = { answer: answer.answer, citations: answer.citations.map((c) => c.url) };
const research = await exa.research.create({ instructions: 'Meridian Rail strike date', model: 'exa-research-fast' });
const done = await exa.research.pollUntilFinished(research.researchId, { pollInterval: 10, events: true });
out.research = { created: research.status, done: done.status, content: done.output.content.slice(0, 17), events: done.events.map((e) => e.eventType) };
const runs = [];
for await (const event of await exa.agent.runs.create({ query: 'Ferrous Lantern Glass Harbor ranked removed', effort: 'minimal', stream: true })) runs.push(event.event);
const queued = await exa.agent.runs.create({ query: 'Quillstack default pool size', effort: 'low' });
const finished = await exa.agent.runs.pollUntilFinished(queued.id, { pollInterval: 10 });
out.agent = { events: runs, queued: queued.status, finished: finished.status, cited: finished.output.grounding[0].citations.length };
const errors = {};
try { await new Exa('exa-wrong-key').search('x'); } catch (e) { errors.badKey = [e.statusCode, e.message]; }
try { await new Exa(process.env.EXA_BROKE).search('x'); } catch (e) { errors.broke = [e.statusCode, e.message]; }
try { await exa.search('x', { numResults: 500 }); } catch (e) { errors.invalid = [e.statusCode, e.message]; }
try { await exa.research.get('r_missing'); } catch (e) { errors.missing = [e.statusCode, e.message]; }
out.errors = errors;
process.stdout.write(JSON.stringify(out));
