// supabase-management-js (the devDependency, 2.0.2, unmodified; global fetch) against
// api.supabase.com through whatever the preload set up: organizations, projects, a SQL query and
// a write, migrations, functions, buckets, and the API's {message} errors. Prints one JSON object.
import { SupabaseManagementAPI } from 'supabase-management-js';

const api = new SupabaseManagementAPI({ accessToken: process.env.SB_TOKEN });
const PROD = 'qzvhtkcwmfyrplxdnsoa';
const out = {};
const errorOf = async (promise) => {
  try { await promise; return null; } catch (e) { return { status: e.status, body: e.data }; }
};
out.orgs = (await api.listAllOrganizations()).data.map((o) => o.slug);
out.projects = (await api.listAllProjects()).data.map((p) => `${p.name}:${p.status}`);
out.paid = (await api.runAQuery(PROD, { query: "select id, total_cents from orders where status = 'paid' order by id limit 2" })).data;
out.inserted = (await api.runAQuery(PROD, { query: "insert into products (sku, name, price_cents) values ('SKU-SDK', 'SDK mug', 1200) returning id, stock, active" })).data;
await api.applyAMigration(PROD, { name: 'sdk_index', query: 'create index products_name_idx on products (name)' });
out.migrations = (await api.listMigrationHistory(PROD)).data.map((m) => m.name);
out.functions = (await api.listAllFunctions(PROD)).data.map((f) => `${f.slug}@${f.version}`);
out.buckets = (await api.listAllBuckets(PROD)).data.map((b) => `${b.name}:${b.public}`);
out.errors = {
  missing: await errorOf(api.getProject('nosuchprojectrefabcd')),
  sql: await errorOf(api.runAQuery(PROD, { query: 'select * from coupons' })),
  duplicate: await errorOf(api.runAQuery(PROD, { query: "insert into products (sku, name, price_cents) values ('SKU-1000', 'Dup', 1)" })),
};
console.log(JSON.stringify(out));
