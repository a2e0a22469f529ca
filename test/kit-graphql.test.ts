import test from 'ava';
import { z } from 'zod';
import { jsonResponse } from '../mocks/core/http.js';
import { MemoryJournal } from '../mocks/core/journal.js';
import type { JournalHeader } from '../mocks/core/journal-format.js';
import type { Collection } from '../mocks/core/store.js';
import { World } from '../mocks/core/world.js';
import { defineService } from '../mocks/kit/define.js';
import { ServiceError } from '../mocks/kit/errors.js';
import { executeGraphQL, graphqlOperation, rootFieldName, schemaFromSDL } from '../mocks/kit/graphql.js';
import { connection } from '../mocks/kit/pagination/connection.js';

// A toy GraphQL service on the kit: an SDL, resolvers over the store, connections, a mutation.
const sdl = `
  type Query { book(id: ID!): Book, books(first: Int, after: String): BookConnection!, slow: String }
  type Mutation { bookCreate(title: String!): Book! }
  type Book { id: ID!, title: String! }
  type BookConnection { nodes: [Book!]!, pageInfo: PageInfo! }
  type PageInfo { hasNextPage: Boolean!, endCursor: String }
`;
const schema = schemaFromSDL(sdl);
interface Book { id: string; title: string }
type Ctx = { books: Collection<Book>; seq: number };

const root = {
  book: ({ id }: { id: string }, c: Ctx) => c.books.get(id) ?? null,
  books: (args: { first?: number; after?: string }, c: Ctx) => connection(c.books.values(), args, (b) => b.id),
  bookCreate: ({ title }: { title: string }, c: Ctx) => {
    if (title === '') throw new ServiceError(422, 'invalid', 'title is empty');
    return c.books.put(`b${c.books.size + 1}`, { id: `b${c.books.size + 1}`, title });
  },
  slow: () => Promise.resolve('later'),
};

const library = defineService<{ titles: string[] }, Ctx>({
  id: 'library',
  version: '1',
  dataset: z.object({ titles: z.array(z.string()) }),
  load: (data, ctx) => data.titles.forEach((title, i) => ctx.store.collection<Book>('books').put(`b${i + 1}`, { id: `b${i + 1}`, title })),
  context: (_req, ctx) => ({ books: ctx.store.collection<Book>('books'), seq: ctx.seq }),
  operations: [
    graphqlOperation<Ctx>('/graphql', (call, c) => {
      if (call.decoded.kind !== 'graphql') throw new ServiceError(400, 'bad', 'not GraphQL');
      const outcome = executeGraphQL(schema, call.decoded.value, { rootValue: root, contextValue: c });
      if (outcome.kind !== 'executed') return jsonResponse(400, { errors: outcome.errors.map((e) => ({ message: e.message, kind: outcome.kind })) });
      return jsonResponse(200, outcome.result);
    }),
  ],
  errors: (error) => jsonResponse(error.status, { errors: [{ message: error.message }] }),
  refusal: (reason) => new ServiceError(reason === 'not_found' ? 404 : 400, reason, reason),
});

const header: JournalHeader = { format: 2, toolbench: 'test', scenario: 'kit', datasetHash: '', seed: 1, catalogHash: '', epoch: '2025-01-01T00:00:00.000Z', tickMs: 1000, scenarioDir: '/nowhere' };
const world = () => new World({ seed: 1, epochMs: 0, tickMs: 1000, journal: new MemoryJournal(header), services: [{ id: 'library', hostnames: ['api.library.test'], definition: library, data: { titles: ['Dune', 'Emma', 'Ulysses'] } }] });
function post(w: World, query: string, variables: Record<string, unknown> = {}, operationName?: string) {
  const body = JSON.stringify({ query, variables, ...(operationName ? { operationName } : {}) });
  const entry = w.process({ host: 'api.library.test', method: 'POST', target: '/graphql', headers: [['Content-Type', 'application/json']], body: new TextEncoder().encode(body) });
  return { entry, json: JSON.parse(new TextDecoder().decode(entry.response.body)) };
}

test('root-field names: type and first field, named operations, fragments, introspection, garbage', (t) => {
  const name = (query: string, operationName: string | null = null) => rootFieldName({ query, variables: {}, operationName });
  t.is(name('{ books { nodes { id } } }'), 'Query.books');
  t.is(name('query Q { __typename book(id: "1") { id } }'), 'Query.book');
  t.is(name('mutation M($t: String!) { bookCreate(title: $t) { id } }'), 'Mutation.bookCreate');
  t.is(name('query A { books { nodes { id } } } mutation B { bookCreate(title: "x") { id } }', 'B'), 'Mutation.bookCreate');
  t.is(name('query A { books { nodes { id } } } query B { book(id: "1") { id } }'), null, 'two operations and no name');
  t.is(name('query { ...Root } fragment Root on Query { book(id: "1") { id } }'), 'Query.book');
  t.is(name('{ __type(name: "Book") { name } }'), 'Query.__type');
  t.is(name('{ books {'), null);
});

test('requests are executed synchronously over the store and named by root field in the journal', (t) => {
  const w = world();
  const page = post(w, 'query($after: String) { books(first: 2, after: $after) { nodes { title } pageInfo { hasNextPage endCursor } } }');
  t.deepEqual(page.entry.operation, { name: 'Query.books', via: 'handler' });
  t.deepEqual(page.json.data.books.nodes, [{ title: 'Dune' }, { title: 'Emma' }]);
  const next = post(w, 'query($after: String) { books(first: 2, after: $after) { nodes { title } pageInfo { hasNextPage } } }', { after: page.json.data.books.pageInfo.endCursor });
  t.deepEqual(next.json.data.books, { nodes: [{ title: 'Ulysses' }], pageInfo: { hasNextPage: false } });
  const created = post(w, 'mutation { bookCreate(title: "Middlemarch") { id title } }');
  t.deepEqual(created.json.data.bookCreate, { id: 'b4', title: 'Middlemarch' });
  t.is(created.entry.operation?.name, 'Mutation.bookCreate');
  t.is((w.state(['library']).library!.books!.b4 as Book).title, 'Middlemarch');
});

test('syntax, validation and resolver errors keep GraphQL\'s shape; a promise is refused', (t) => {
  const w = world();
  t.deepEqual(post(w, '{ books {').json.errors[0].kind, 'syntax');
  const invalid = post(w, '{ books { nodes { author } } }').json.errors[0];
  t.deepEqual(invalid, { message: 'Cannot query field "author" on type "Book".', kind: 'invalid' });
  t.is(post(w, 'query A { books { nodes { id } } }', {}, 'B').json.errors[0].kind, 'no-operation');
  const failed = post(w, 'mutation { bookCreate(title: "") { id } }').json;
  t.is(failed.data, null);
  t.is(failed.errors[0].message, 'title is empty');
  t.deepEqual(failed.errors[0].path, ['bookCreate']);
  t.throws(() => executeGraphQL(schema, { query: '{ slow }', variables: {}, operationName: null }, { rootValue: root, contextValue: {} }), { message: /must be synchronous/ });
});

test('two worlds answer the same requests with the same bytes', (t) => {
  const run = () => {
    const w = world();
    return ['{ books { nodes { id title } } }', 'mutation { bookCreate(title: "X") { id } }', '{ book(id: "b4") { title } }'].map((q) => Buffer.from(post(w, q).entry.response.body).toString('hex'));
  };
  t.deepEqual(run(), run());
});
