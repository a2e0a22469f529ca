import { timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { TOOLBENCH_ROOT } from '../../catalog/paths.js';
import { newAdminToken } from '../../mocks/core/admin.js';
import { listen } from '../../proxy/service-listener.js';
import { OriginSchema, type TimelineRow } from './api.js';
import { callDetail, divergence, entryDetail, summary } from './data.js';
import { buildTimeline, findRow, type TimelineFilter } from './timeline.js';
import type { LoadedTrial } from './trial.js';

/** The page's files, shipped in the package (no CDN, no build step). */
export const ASSETS_DIR = join(TOOLBENCH_ROOT, 'replay', 'view', 'assets');
const ASSETS: Record<string, { file: string; type: string }> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/assets/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/assets/style.css': { file: 'style.css', type: 'text/css; charset=utf-8' },
};

export interface ViewServerOptions {
  /** 0 (default): any free port. */
  port?: number;
  /** Default: a fresh random one (as the admin API's). */
  token?: string;
  /** Show credential header values instead of REDACTED. */
  showSecrets?: boolean;
}

export interface ViewServer {
  /** The page, token included. */
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

/** Most rows a page request returns. */
export const MAX_PAGE = 1000;

/**
 * Serves a trial on 127.0.0.1 only: the page and its assets openly, the JSON API (`/api/…`)
 * only with the token, which the page takes from its own URL (`?token=`) and sends as a bearer
 * token. Requests naming another host are refused, so a web page elsewhere cannot reach it
 * through DNS rebinding.
 */
export async function startViewServer(trial: LoadedTrial, options: ViewServerOptions = {}): Promise<ViewServer> {
  const token = options.token ?? newAdminToken();
  const expected = Buffer.from(`Bearer ${token}`);
  const assets = new Map(Object.entries(ASSETS).map(([path, { file, type }]) => [path, { body: readFileSync(join(ASSETS_DIR, file)), type }]));
  const timelines = new TimelineCache(trial);
  let port = 0;

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://view');
    const host = req.headers.host ?? '';
    if (!['127.0.0.1', 'localhost', '[::1]'].some((name) => host === `${name}:${port}`)) {
      return sendJson(res, 403, { error: `this viewer answers only on 127.0.0.1:${port} (got Host: ${host || 'none'})` });
    }
    const asset = assets.get(url.pathname);
    if (asset && req.method === 'GET') return send(res, 200, asset.type, asset.body);
    if (!url.pathname.startsWith('/api/')) return sendJson(res, 404, { error: `no page ${url.pathname}` });
    const given = Buffer.from(req.headers.authorization ?? '');
    if (!(given.length === expected.length && timingSafeEqual(given, expected))) {
      return sendJson(res, 401, { error: 'the viewer API needs the token from the URL toolbench view printed: send Authorization: Bearer TOKEN' });
    }
    if (req.method !== 'GET') return sendJson(res, 405, { error: `method ${req.method} not allowed` });
    api(trial, timelines, url, options.showSecrets ?? false).then(
      ([status, body]) => sendJson(res, status, body),
      (error: unknown) => sendJson(res, 500, { error: (error as Error).message }),
    );
  });
  // The one listening helper: loopback, and the per-client connection cap every listener has.
  const listening = await listen(server, '127.0.0.1', options.port ?? 0);
  port = listening.port;
  return { url: `http://127.0.0.1:${port}/?token=${token}`, port, token, close: listening.close };
}

async function api(trial: LoadedTrial, timelines: TimelineCache, url: URL, showSecrets: boolean): Promise<[number, unknown]> {
  const params = url.searchParams;
  const path = url.pathname;
  if (path === '/api/summary') return [200, summary(trial)];
  if (path === '/api/divergence') {
    const view = divergence(trial);
    return view ? [200, view] : [404, { error: 'no replay report: run toolbench replay --verify --report FILE, then toolbench view … --report FILE' }];
  }
  if (path === '/api/timeline') {
    const filter: TimelineFilter = {};
    for (const name of ['service', 'route', 'tool', 'status', 'q'] as const) {
      const value = params.get(name);
      if (value !== null && value !== '') filter[name] = value;
    }
    const origin = params.get('origin');
    if (origin !== null && origin !== '') {
      const parsed = OriginSchema.safeParse(origin);
      if (!parsed.success) return [400, { error: `origin must be one of ${OriginSchema.options.join(', ')}` }];
      filter.origin = parsed.data;
    }
    const offset = wholeNumber(params.get('offset'), 0);
    const limit = wholeNumber(params.get('limit'), 200);
    const find = params.get('find');
    if (offset === null || limit === null || (find !== null && wholeNumber(find, 0) === null)) return [400, { error: 'offset, limit and find must be whole numbers' }];
    const rows = timelines.get(filter, params.get('unfold') === 'startup');
    const page = rows.slice(offset, offset + Math.min(MAX_PAGE, limit));
    return [200, { total: rows.length, offset, rows: page, found: find === null ? null : findRow(rows, Number(find)) }];
  }
  const entry = /^\/api\/entry\/(\d+)$/.exec(path);
  if (entry) {
    const detail = await entryDetail(trial, Number(entry[1]), showSecrets);
    return detail ? [200, detail] : [404, { error: `no entry with seq ${entry[1]} (the journal has ${trial.index.entries.length})` }];
  }
  const call = /^\/api\/call\/(\d+)$/.exec(path);
  if (call) {
    const record = trial.calls.find((r) => r.n === Number(call[1]));
    return record ? [200, callDetail(trial, record)] : [404, { error: `no MCP tool call n=${call[1]}` }];
  }
  return [404, { error: `no API route ${path}` }];
}

function wholeNumber(text: string | null, fallback: number): number | null {
  if (text === null || text === '') return fallback;
  return /^\d{1,9}$/.test(text) ? Number(text) : null;
}

/** The last few timelines built, by filter: scrolling asks for many pages of the same one. */
class TimelineCache {
  private readonly cache = new Map<string, TimelineRow[]>();
  constructor(private readonly trial: LoadedTrial) {}

  get(filter: TimelineFilter, unfold: boolean): TimelineRow[] {
    const key = JSON.stringify([filter, unfold]);
    let rows = this.cache.get(key);
    if (!rows) {
      rows = buildTimeline(this.trial.index, filter, unfold);
      if (this.cache.size >= 8) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(key, rows);
    }
    return rows;
  }
}

function send(res: ServerResponse, status: number, type: string, body: Buffer | string): void {
  res.writeHead(status, {
    'Content-Type': type,
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    // The token is in the page's URL: never send it elsewhere, and run only our own files.
    'Referrer-Policy': 'no-referrer',
    'Content-Security-Policy': "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
  });
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(value));
}

