import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { entryToJson } from './journal-json.js';
import type { World } from './world.js';

/**
 * The admin API under `/_bench/`: health, the journal as JSON lines, every service's state, and
 * reset. Served on its own loopback port, never on a service's port.
 */
/** More admin routes, by `METHOD /path` (e.g. `POST /_bench/grade`, added by whoever composes the world). */
export type AdminRoutes = Record<string, (req: IncomingMessage, res: ServerResponse) => Promise<void>>;

export function createAdminHandler(world: World, info: Record<string, unknown> = {}, extra: AdminRoutes = {}) {
  return function adminHandler(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://admin');
    const route = `${req.method} ${url.pathname}`;
    const run = async () => {
      switch (route) {
        case 'GET /_bench/health':
          return sendJson(res, 200, { ok: true, seq: world.clock.current, ...info });
        case 'GET /_bench/state':
          await world.importServices();
          return sendJson(res, 200, world.state());
        case 'POST /_bench/reset': {
          req.resume();
          const response = await world.reset();
          return sendJson(res, 200, { ok: true, seq: response.seq });
        }
        case 'GET /_bench/journal':
          return streamJournal(world, url.searchParams, res);
        default: {
          const more = extra[route];
          if (more) return more(req, res);
          const known = ['GET /_bench/health', 'GET /_bench/journal', 'GET /_bench/state', 'POST /_bench/reset', ...Object.keys(extra)];
          const samePath = known.filter((k) => k.endsWith(` ${url.pathname}`));
          if (samePath.length > 0) {
            return sendJson(res, 405, { error: `method ${req.method} not allowed on ${url.pathname}`, allowed: samePath.map((k) => k.split(' ')[0]) });
          }
          return sendJson(res, 404, { error: `no admin route ${route}`, routes: known });
        }
      }
    };
    run().catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: (error as Error).message });
      else res.destroy();
    });
  };
}

async function streamJournal(world: World, params: URLSearchParams, res: ServerResponse): Promise<void> {
  const range = { from: intParam(params, 'from'), to: intParam(params, 'to') };
  if (Number.isNaN(range.from) || Number.isNaN(range.to)) {
    return sendJson(res, 400, { error: 'from and to must be whole sequence numbers' });
  }
  await world.journal.flush();
  res.writeHead(200, { 'Content-Type': 'application/x-ndjson; charset=utf-8' });
  for await (const entry of world.journal.entries(range)) {
    if (!res.write(JSON.stringify(entryToJson(entry)) + '\n')) await new Promise((resolve) => res.once('drain', resolve));
  }
  res.end();
}

function intParam(params: URLSearchParams, name: string): number | undefined {
  const value = params.get(name);
  if (value === null) return undefined;
  return /^\d+$/.test(value) ? Number(value) : Number.NaN;
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value, null, 2) + '\n';
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

/** The only admin route open without the token: liveness and the service ports a split proxy needs. */
export const OPEN_ADMIN_ROUTE = 'GET /_bench/health';

/** A fresh admin token: 24 random bytes, base64url (32 characters). */
export function newAdminToken(): string {
  return randomBytes(24).toString('base64url');
}

/**
 * Guards an admin handler with the world's token: every request except `GET /_bench/health` must
 * send `Authorization: Bearer TOKEN`, else 401 (the journal holds the agent's credentials, and
 * reset and grading change or reveal the trial). Compared in constant time.
 */
export function withAdminToken(token: string, handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const expected = Buffer.from(`Bearer ${token}`);
  return function tokenGuard(req: IncomingMessage, res: ServerResponse): void {
    const path = (req.url ?? '/').split('?')[0];
    if (`${req.method} ${path}` === OPEN_ADMIN_ROUTE) return handler(req, res);
    const given = Buffer.from(req.headers.authorization ?? '');
    if (given.length === expected.length && timingSafeEqual(given, expected)) return handler(req, res);
    req.resume();
    res.setHeader('WWW-Authenticate', 'Bearer realm="toolbench admin"');
    sendJson(res, 401, {
      error: `the admin API needs the world's token: send Authorization: Bearer TOKEN, with the "token" of the ready line of toolbench world --json (only ${OPEN_ADMIN_ROUTE} is open)`,
    });
  };
}
