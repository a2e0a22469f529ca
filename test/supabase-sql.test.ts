import test from 'ava';
import { openWorld } from '../scenarios/world.js';

// The Supabase mock's SQL subset through `database/query`, in one conformance world: reads,
// aggregates, writes with constraints, a failing batch rolled back whole, DDL, catalog views, and
// Postgres's error text with its LINE and caret.

const PROD = '/v1/projects/qzvhtkcwmfyrplxdnsoa/database/query';
let world: Awaited<ReturnType<typeof openWorld>>['world'];
test.before(async () => { world = (await openWorld({ scenarioDir: 'mocks/supabase/conformance' })).world; });
test.after.always(async () => { await world.journal.close(); });

async function sql(query: string, parameters?: unknown[]): Promise<{ status: number; body: any }> {
  const response = await world.dispatch({ host: 'api.supabase.com', method: 'POST', target: PROD, body: new TextEncoder().encode(JSON.stringify({ query, ...(parameters ? { parameters } : {}) })),
    headers: [['Authorization', 'Bearer sbp_conformance_0000000000000000000000000000000000'], ['Content-Type', 'application/json']] });
  return { status: response.status, body: JSON.parse(new TextDecoder().decode(response.body)) };
}

test.serial('selects with WHERE, ORDER BY, LIMIT, parameters and aggregates', async (t) => {
  const paid = await sql("select id, total_cents from orders where status = $1 and total_cents >= 2000 order by total_cents desc, id limit 3", ['paid']);
  t.is(paid.status, 201);
  t.is(paid.body.length, 3);
  t.true(paid.body[0].total_cents >= paid.body[1].total_cents);
  const grouped = await sql('select status, count(*) as n from orders group by status order by n desc, status');
  t.is(grouped.body.reduce((sum: number, row: { n: number }) => sum + row.n, 0), 40);
  const one = await sql("select count(*) from products where name ilike '%mug%' or sku in ('SKU-1002')");
  t.deepEqual(one.body, [{ count: 2 }]);
  t.deepEqual((await sql('select 1 + 2 as three, lower(\'ABC\')')).body, [{ three: 3, lower: 'abc' }]);
});

test.serial('writes: defaults, RETURNING, constraints, and a failing batch leaves nothing behind', async (t) => {
  const inserted = await sql("insert into products (sku, name, price_cents) values ('SKU-T1', 'Test', 100) returning id, stock, active");
  t.deepEqual(inserted.body, [{ id: 13, stock: 0, active: true }]);
  const dup = await sql("insert into products (sku, name, price_cents) values ('SKU-T1', 'Again', 1)");
  t.is(dup.status, 400);
  t.is(dup.body.message, 'Failed to run sql query: ERROR:  23505: duplicate key value violates unique constraint "products_sku_key"\nDETAIL:  Key (sku)=(SKU-T1) already exists.\n');
  const badEnum = await sql("update orders set status = 'lost' where id = 1");
  t.regex(badEnum.body.message, /22P02: invalid input value for enum order_status: "lost"/);
  const batch = await sql("update products set stock = 99 where sku = 'SKU-T1'; insert into products (sku) values ('SKU-T2')");
  t.regex(batch.body.message, /23502: null value in column "name" of relation "products" violates not-null constraint/);
  t.deepEqual((await sql("select stock from products where sku = 'SKU-T1'")).body, [{ stock: 0 }], 'the first statement was rolled back');
  t.deepEqual((await sql("delete from products where sku = 'SKU-T1' returning sku")).body, [{ sku: 'SKU-T1' }]);
});

test.serial('DDL and the catalog views agree', async (t) => {
  t.is((await sql('create table public.notes (id bigint generated always as identity primary key, body text not null); alter table notes enable row level security')).status, 201);
  t.deepEqual((await sql("insert into notes (body) values ('a'), ('b') returning id")).body, [{ id: 1 }, { id: 2 }]);
  t.deepEqual((await sql("select rowsecurity from pg_tables where tablename = 'notes'")).body, [{ rowsecurity: true }]);
  const cols = await sql("select column_name, data_type, is_nullable from information_schema.columns where table_name = 'notes' order by ordinal_position");
  t.deepEqual(cols.body, [{ column_name: 'id', data_type: 'bigint', is_nullable: 'NO' }, { column_name: 'body', data_type: 'text', is_nullable: 'NO' }]);
  const exists = await sql('create table notes (id int)');
  t.regex(exists.body.message, /42P07: relation "notes" already exists/);
});

test.serial("Postgres's error text: the caret under the token", async (t) => {
  const missing = await sql('select id\nfrom orderz');
  t.is(missing.body.message, 'Failed to run sql query: ERROR:  42P01: relation "orderz" does not exist\nLINE 2: from orderz\n             ^\n');
  const column = await sql('select nope from orders');
  t.is(column.body.message, 'Failed to run sql query: ERROR:  42703: column "nope" does not exist\nLINE 1: select nope from orders\n               ^\n');
  const syntax = await sql('selec 1');
  t.regex(syntax.body.message, /42601: syntax error at or near "selec"/);
});
