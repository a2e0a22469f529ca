import test from 'ava';
import { z } from 'zod';
import { jsonResponse } from '../mocks/core/http.js';
import { defineService } from '../mocks/kit/define.js';
import { documented, githubErrorBody, githubErrors, githubStyleError } from '../mocks/kit/envelopes/github.js';
import { ServiceError } from '../mocks/kit/errors.js';
import { operation, rest } from '../mocks/kit/operation.js';
import { kitWorld } from './helpers/kit-world.js';

const DOCS = 'https://docs.example.com/rest';

test('the body: message, errors, documentation_url, status (a string), in GitHub\'s key order', (t) => {
  const error = githubStyleError(422, 'Validation Failed', { errors: [{ resource: 'Issue', code: 'missing_field', field: 'title' }] });
  t.is(JSON.stringify(githubErrorBody(error, DOCS)),
    '{"message":"Validation Failed","errors":[{"resource":"Issue","code":"missing_field","field":"title"}],"documentation_url":"https://docs.example.com/rest","status":"422"}');
  t.deepEqual(githubErrorBody(githubStyleError(422, 'Unprocessable Entity', { errors: ['Review cannot be empty'] }), DOCS).errors, ['Review cannot be empty'],
    'plain string items, as the reviews endpoints send');
  t.deepEqual(Object.keys(githubErrorBody(githubStyleError(404, 'Not Found'), DOCS)), ['message', 'documentation_url', 'status'], 'no errors key without errors');
  t.is(githubErrorBody(githubStyleError(403, 'limit', { docs: 'https://own' }), DOCS).documentation_url, 'https://own');
  t.is(githubErrorBody(new ServiceError(409, 'conflict', 'plain'), DOCS).documentation_url, DOCS, 'any ServiceError renders');
});

test('documented() fills in an operation\'s page but keeps an error\'s own, and keeps its headers', (t) => {
  const page = 'https://docs.example.com/rest/issues#create';
  const filled = documented(githubStyleError(404, 'Not Found'), page);
  t.is(filled.details.documentation_url, page);
  t.is(documented(githubStyleError(401, 'Bad credentials', { docs: DOCS }), page).details.documentation_url, DOCS);
  const withHeaders = documented(new ServiceError(429, 'x', 'slow down', {}, [['Retry-After', '60']]), page);
  t.deepEqual(withHeaders.headers, [['Retry-After', '60']]);
  t.is(withHeaders.status, 429);
});

test('as a service\'s error style: thrown errors, refusals and headers in the envelope', (t) => {
  const service = defineService<Record<string, never>, null>({
    id: 'forge', version: '1', dataset: z.object({}).strict(), load: () => {}, context: () => null,
    operations: [
      operation('repos.get', rest('GET', '/repos/:owner/:repo'), (call) => {
        if (call.params.repo !== 'widgets') throw githubStyleError(404, 'Not Found', { docs: `${DOCS}/repos#get` });
        return jsonResponse(200, { name: 'widgets' });
      }),
      operation('issues.create', rest('POST', '/repos/:owner/:repo/issues'), () => {
        throw githubStyleError(403, 'You have exceeded a secondary rate limit.');
      }),
      // Lazy: the repository is checked before the body is read, as GitHub orders its checks.
      operation('issues.update', rest('PATCH', '/repos/:owner/:repo/issues/:number'), (call) => {
        if (call.params.repo !== 'widgets') throw githubStyleError(404, 'Not Found');
        return jsonResponse(200, call.body);
      }, { lazy: true, input: { body: z.object({ title: z.string() }) } }),
    ],
    errors: githubErrors(DOCS),
    refusal: (reason) => githubStyleError(reason === 'not_found' || reason === 'method_not_allowed' ? 404 : 400, reason === 'malformed_body' ? 'Problems parsing JSON' : 'Not Found'),
  });
  const { send } = kitWorld(service);
  t.deepEqual(send('GET', '/repos/acme/nope').json, { message: 'Not Found', documentation_url: `${DOCS}/repos#get`, status: '404' });
  t.deepEqual(send('GET', '/nowhere').json, { message: 'Not Found', documentation_url: DOCS, status: '404' });
  const refused = send('POST', '/repos/acme/widgets/issues', [['Content-Type', 'application/json']], '{"title":');
  t.deepEqual(refused.json, { message: 'Problems parsing JSON', documentation_url: DOCS, status: '400' }, 'an eager operation refuses a malformed body first');
  t.is(send('POST', '/repos/acme/widgets/issues', [['Content-Type', 'application/json']], '{}').header('content-type'), 'application/json; charset=utf-8');
  const json: [string, string][] = [['Content-Type', 'application/json']];
  t.is(send('PATCH', '/repos/acme/nope/issues/1', json, '{"title":').status, 404, 'a lazy operation: the handler\'s 404 before the body\'s 400');
  t.is(send('PATCH', '/repos/acme/widgets/issues/1', json, '{"title":').json.message, 'Problems parsing JSON', 'refused when the handler reads the body');
  t.is(send('PATCH', '/repos/acme/nope/issues/1', json, '{"title":5}').status, 404, 'and validated then');
  t.is(send('PATCH', '/repos/acme/widgets/issues/1', json, '{"title":5}').status, 400);
  t.deepEqual(send('PATCH', '/repos/acme/widgets/issues/1', json, '{"title":"x"}').json, { title: 'x' });
});
