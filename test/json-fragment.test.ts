import test from 'ava';
import { JsonFragment, serializeJson as serializeBytes } from '../mocks/core/json-fragment.js';
import { prng } from './helpers/reliability.js';

// serializeJson must write exactly JSON.stringify's bytes of the same value with every fragment
// replaced by its plain value: the world's answers, and so every recorded journal, depend on it.

const serializeJson = (value: unknown) => Buffer.from(serializeBytes(value)).toString('utf8');
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value, (_key, v: unknown) => (v instanceof JsonFragment ? v.value : v)));

test('a fragment is spliced wherever it appears, serialised once, nested fragments too', (t) => {
  let reads = 0;
  const owner = new JsonFragment({ login: 'octocat', id: 1 });
  const repoValue = { full_name: 'acme/widgets', owner, get counted() { reads += 1; return 3; } };
  const repo = new JsonFragment(repoValue);
  const answer = [{ head: { repo, user: owner }, base: { repo, user: owner } }, { head: { repo, user: null }, base: { repo, user: owner } }];
  const text = serializeJson(answer);
  t.is(reads, 1, 'the repository was serialised once for its four appearances');
  t.is(text, JSON.stringify(plain(answer)));
  t.is(serializeJson(new JsonFragment(repo)), Buffer.from(repo.bytes).toString('utf8'));
  t.is(serializeJson(repo), Buffer.from(repo.bytes).toString('utf8'));
  t.is(serializeJson({ a: [repo, repo], b: 'x' }), `{"a":[${Buffer.from(repo.bytes).toString('utf8')},${Buffer.from(repo.bytes).toString('utf8')}],"b":"x"}`);
});

test('data that looks like a marker is kept as data: the answer is serialised again, fragments expanded', (t) => {
  const fragment = new JsonFragment({ id: 7, note: '\u0000tb:0' });
  for (const answer of [
    { before: '\u0000tb:0', f: fragment },
    { f: fragment, after: '\u0000tb:1' },
    { f: fragment, after: '\u0000tb:0', g: fragment },
    ['\u0000tb:0', '\u0000tb:1', fragment, fragment],
  ]) {
    t.is(serializeJson(answer), JSON.stringify(plain(answer)), JSON.stringify(answer));
  }
});

test('plain values serialise as JSON.stringify does, and JSON.stringify of a fragment outside a splice is its value', (t) => {
  const next = prng(14);
  const word = () => ['a', 'é', '"', '\\', '\u0000', '\ud800', 'tb:', '0', ' '][Math.floor(next() * 9)]!;
  const build = (depth: number): unknown => {
    const r = next();
    if (depth > 3 || r < 0.3) return Array.from({ length: 1 + Math.floor(next() * 4) }, word).join('');
    if (r < 0.4) return Math.floor(next() * 1e6) / 7;
    if (r < 0.5) return null;
    if (r < 0.6) return new JsonFragment(build(depth + 1));
    if (r < 0.8) return Array.from({ length: Math.floor(next() * 4) }, () => build(depth + 1));
    return Object.fromEntries(Array.from({ length: Math.floor(next() * 4) }, (_, i) => [`k${i}${word()}`, build(depth + 1)]));
  };
  for (let i = 0; i < 500; i++) {
    const value = build(0);
    t.is(serializeJson(value), JSON.stringify(plain(value)));
  }
  t.is(JSON.stringify({ f: new JsonFragment([1, 2]) }), '{"f":[1,2]}');
});
