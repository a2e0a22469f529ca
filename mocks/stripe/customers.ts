import { z } from 'zod';
import { jsonResponse } from '../core/http.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import { expand, int, listPage, listQuery, mergeMetadata, metadata, noSuch, ok, parseQuery, type StripeCtx } from './context.js';
import type { Customer } from './model.js';
import { makeCustomer } from './objects.js';

const CustomerBody = z.object({
  name: z.string().optional(), email: z.string().optional(), phone: z.string().optional(), description: z.string().optional(),
  balance: int.optional(), metadata, expand,
}).strict();

export function customerOf(c: StripeCtx, id: string, param = 'id'): Customer {
  const customer = c.db.customers.get(id);
  if (!customer || customer.deleted) return noSuch('customer', id, param);
  return customer;
}

export const customerOperations: Operation<StripeCtx>[] = [
  operation('customers.create', rest('POST', '/v1/customers'), (call, c: StripeCtx) => {
    const body = call.body as z.infer<typeof CustomerBody>;
    const customer = makeCustomer(c, { ...body, metadata: mergeMetadata({}, body.metadata) });
    return ok(c, customer, body.expand);
  }, { input: { body: CustomerBody } }),

  operation('customers.list', rest('GET', '/v1/customers'), (call, c: StripeCtx) => {
    const query = parseQuery(call.req, listQuery({ email: z.string().max(512).optional(), test_clock: z.string().optional() }));
    const items = c.db.customers.filter((cu) => !cu.deleted && (query.email === undefined || cu.email === query.email));
    return listPage(c, items, query, '/v1/customers');
  }),

  operation('customers.retrieve', rest('GET', '/v1/customers/:customer'), (call, c: StripeCtx) => {
    const query = parseQuery(call.req, z.object({ expand }).strict());
    const customer = c.db.customers.get(call.params.customer);
    if (!customer) return noSuch('customer', call.params.customer);
    // A deleted customer is still retrievable, as a tombstone.
    return ok(c, customer.deleted ? { id: customer.id, object: 'customer', deleted: true } : customer, query.expand);
  }),

  operation('customers.update', rest('POST', '/v1/customers/:customer'), (call, c: StripeCtx) => {
    const body = call.body as z.infer<typeof CustomerBody>;
    const old = customerOf(c, call.params.customer);
    const { expand: paths, metadata: meta, ...fields } = body;
    const customer = c.db.customers.put(old.id, { ...old, ...fields, metadata: mergeMetadata(old.metadata, meta) });
    return ok(c, customer, paths);
  }, { input: { body: CustomerBody } }),

  operation('customers.del', rest('DELETE', '/v1/customers/:customer'), (call, c: StripeCtx) => {
    const old = customerOf(c, call.params.customer);
    c.db.customers.put(old.id, { ...old, deleted: true });
    for (const sub of c.db.subscriptions.filter((s) => s.customer === old.id && s.status !== 'canceled')) {
      c.db.subscriptions.put(sub.id, { ...sub, status: 'canceled', canceled_at: c.now, ended_at: c.now });
    }
    return jsonResponse(200, { id: old.id, object: 'customer', deleted: true });
  }),
];
