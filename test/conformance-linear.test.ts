import test from 'ava';
import { z } from 'zod';
import { sweep } from '../mocks/linear/conformance.js';
import { conformance } from './helpers/conformance.js';

// The conformance suite over Linear (test/helpers/conformance.ts): GraphQL documents from a
// seeded generator, seeds that change only UUIDs and the cursors made from them, GraphQL error
// bodies for faults, volatile fields, and all 198 tools of the pinned server through MCP.

const gql = (query: string, variables: Record<string, unknown> = {}) => ({ method: 'POST', target: '/graphql', body: { query, variables } });

conformance(test, {
  service: 'linear',
  sweep,
  headers: [['Authorization', 'lin_api_mayaXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX']],
  // The OAuth token endpoint answers in OAuth's own error shape, not GraphQL's.
  skipRoutes: ['POST /oauth/token'],
  requests: [
    () => gql('query { viewer { id name email } }'),
    (r) => gql('query($first: Int) { issues(first: $first) { nodes { id identifier title state { name } } pageInfo { hasNextPage endCursor } } }', { first: r.int(1, 5) }),
    () => gql('query { teams { nodes { id key name } } }'),
    (r) => gql('query($id: String!) { issue(id: $id) { id title } }', { id: r.pick(['ENG-1', 'ENG-13', 'ENG-999']) }),
    (r, i) => gql('mutation($input: IssueCreateInput!) { issueCreate(input: $input) { success issue { id identifier title } } }', { input: { title: `Generated ${i}`, teamId: r.pick(['nope']) } }),
    (r, i) => gql('mutation($input: CommentCreateInput!) { commentCreate(input: $input) { success comment { id body } } }', { input: { issueId: r.pick(['ENG-1', 'ENG-2']), body: `Comment ${i}` } }),
    () => gql('query { nope }'),
  ],
  seeded: { fields: ['endCursor', 'startCursor', 'cursor'], patterns: [/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/] },
  errorShape: z.object({ errors: z.array(z.object({ message: z.string() }).passthrough()).min(1) }).passthrough(),
  // GraphQL answers errors with HTTP 200 and an `errors` list, as Linear does.
  isError: (entry) => entry.response.status >= 400 || /"errors":\[/.test(new TextDecoder().decode(entry.response.body)),
});
