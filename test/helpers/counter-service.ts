import { z } from 'zod';
import { jsonResponse } from '../../mocks/core/http.js';
import { Router, get, post } from '../../mocks/core/router.js';
import type { ServiceContext, ServiceDefinition } from '../../mocks/core/service.js';

/** A tiny service for core tests: numbered items with opaque ids, and a handler that fails midway. */
interface Item { id: number; node: string; name: string; at: number }

const router = new Router<ServiceContext>([
  get('/items', (_req, _p, ctx) => jsonResponse(200, ctx.store.collection<Item>('items').values())),
  post('/items', (req, _p, ctx) => {
    let body: { name?: string } | undefined;
    try {
      body = req.json() as { name?: string };
    } catch {
      return jsonResponse(400, { message: 'Problems parsing JSON' });
    }
    const id = ctx.ids.next('item');
    const item = { id, node: ctx.ids.opaque('item', id, 12), name: body?.name ?? '', at: ctx.nowMs };
    return jsonResponse(201, ctx.store.collection<Item>('items').put(id, item));
  }),
  post('/explode', (_req, _p, ctx) => {
    ctx.store.collection<Item>('items').put(999, { id: ctx.ids.next('item'), node: '', name: 'half-written', at: 0 });
    throw new Error('boom');
  }),
]);

export const counterService: ServiceDefinition<{ items: string[] }> = {
  id: 'counter',
  version: '1',
  dataset: z.object({ items: z.array(z.string()).default([]) }),
  load(data, ctx) {
    for (const name of data.items) {
      const id = ctx.ids.next('item');
      ctx.store.collection<Item>('items').put(id, { id, node: ctx.ids.opaque('item', id, 12), name, at: ctx.epochMs });
    }
  },
  handle(req, ctx) {
    const found = router.match(req.method, req.path);
    if (found.kind !== 'found') return jsonResponse(404, { message: 'Not Found' });
    return found.route.handler(req, found.params, ctx);
  },
  reject(reason) {
    return jsonResponse(reason === 'payload_too_large' ? 413 : 500, { message: reason });
  },
};
