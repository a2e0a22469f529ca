import test from 'ava';
import { problemDetails, problemJsonErrors } from '../mocks/kit/envelopes/problem-json.js';
import { ServiceError } from '../mocks/kit/errors.js';

test('RFC 9457: application/problem+json with type, title, status, detail', (t) => {
  const render = problemJsonErrors({ typeBase: 'https://api.example.test/problems/' });
  const response = render(new ServiceError(409, 'version_conflict', 'The ticket changed since you read it.', { instance: '/tickets/42', current_version: 7 }, [['ETag', '"7"']]));
  t.is(response.status, 409);
  t.deepEqual(response.headers, [['Content-Type', 'application/problem+json'], ['ETag', '"7"']]);
  t.deepEqual(JSON.parse(new TextDecoder().decode(response.body)), {
    type: 'https://api.example.test/problems/version_conflict', title: 'Conflict', status: 409,
    detail: 'The ticket changed since you read it.', instance: '/tickets/42', code: 'version_conflict', current_version: 7,
  });
});

test('without a type base the type is about:blank and the title the status phrase, whatever details say', (t) => {
  const problem = problemDetails(new ServiceError(404, '', 'No ticket 9.', { title: 'Ignored' }));
  t.deepEqual(problem, { type: 'about:blank', title: 'Not Found', status: 404, detail: 'No ticket 9.' });
  const typed = problemDetails(new ServiceError(422, 'invalid', 'Bad field', { type: 'https://errors.test/invalid', title: 'Invalid input', errors: [{ field: 'name' }] }));
  t.like(typed, { type: 'https://errors.test/invalid', title: 'Invalid input', status: 422, errors: [{ field: 'name' }] });
});
