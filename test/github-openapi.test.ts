import test from 'ava';
import { findOperation, validateGitHubResponse } from './helpers/github-openapi.js';

/** The validator itself: it finds the right operation and it does reject wrong bodies. */
const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

test('(method, path) maps to the most specific operation', (t) => {
  const id = (method: string, path: string) => findOperation(method, path)?.op.operationId;
  t.is(id('GET', '/repos/acme/widgets'), 'repos/get');
  t.is(id('GET', '/repos/acme/widgets/issues/comments'), 'issues/list-comments-for-repo');
  t.is(id('GET', '/repos/acme/widgets/issues/12'), 'issues/get');
  t.is(id('GET', '/repos/acme/widgets/contents/src/util/format.ts'), 'repos/get-content');
  t.is(id('GET', '/repos/acme/widgets/git/ref/heads/feature/x'), 'git/get-ref');
  t.is(id('PUT', '/repos/acme/widgets/pulls/3/merge'), 'pulls/merge');
  t.is(id('HEAD', '/user'), 'users/get-authenticated');
});

test('a body that breaks the schema is reported; error statuses fall back to basic-error', (t) => {
  t.true(validateGitHubResponse('GET', '/repos/a/b', 200, 'application/json', json({ id: 'not a number' })).ok === false);
  const verdict = validateGitHubResponse('GET', '/repos/a/b/issues/1', 200, 'application/json', json({ number: 1 }));
  t.false(verdict.ok);
  t.regex(verdict.errors, /must have required property/);
  t.true(validateGitHubResponse('GET', '/nope', 404, 'application/json', json({ message: 'Not Found' })).ok);
  t.false(validateGitHubResponse('GET', '/nope', 404, 'application/json', json({ message: 5 })).ok);
  t.true(validateGitHubResponse('GET', '/repos/a/b/contents/x', 200, 'text/plain; charset=utf-8', new TextEncoder().encode('raw')).ok, 'raw bodies are not checked');
});
