/**
 * The HTTP side of toolbench's PagerDuty MCP server: what pagerduty-mcp's client (the Python
 * `pagerduty` library's RestApiV2Client) does, with Node's fetch to https://api.pagerduty.com:
 * `Authorization: Token token=…`, `Accept: application/vnd.pagerduty+json;version=2`, entity
 * wrappers taken off answers (`rget`/`rpost`/`rput`), and `iter_all`'s classic pagination
 * (`offset` += `limit` while `more`). The process runs under the proxy's preload like every other
 * server, so nothing here knows the proxy.
 */
export class PagerDutyApiError extends Error {
  override name = 'PagerDutyApiError';
  constructor(readonly status: number, readonly body: string, readonly retryAfter: string | null) {
    super(`HTTP ${status}${retryAfter === null ? '' : ` (Retry-After: ${retryAfter} s)`}: ${body}`);
  }
}

export type Json = Record<string, unknown>;
export type Params = Record<string, string | number | boolean | readonly (string | number)[] | undefined | null>;

export class PagerDutyClient {
  constructor(readonly token: string, readonly baseUrl = 'https://api.pagerduty.com') {}

  async request(method: string, path: string, options: { params?: Params; json?: unknown } = {}): Promise<unknown> {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(options.params ?? {})) {
      if (value === undefined || value === null) continue;
      if (Array.isArray(value)) for (const v of value) search.append(key, String(v));
      else search.append(key, String(value));
    }
    const qs = search.toString();
    const response = await fetch(`${this.baseUrl}${path.startsWith('/') ? path : `/${path}`}${qs ? `?${qs}` : ''}`, {
      method,
      headers: {
        Authorization: `Token token=${this.token}`, Accept: 'application/vnd.pagerduty+json;version=2',
        'User-Agent': 'pagerduty-mcp/1.1.0 (toolbench native)', ...(options.json === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(options.json === undefined ? {} : { body: JSON.stringify(options.json) }),
    });
    const text = await response.text();
    if (!response.ok) throw new PagerDutyApiError(response.status, text, response.headers.get('retry-after'));
    return text === '' ? null : JSON.parse(text);
  }

  /** The answer without its entity wrapper (`{"incident": {...}}` → the incident), as `rget` and friends give it. */
  private async unwrapped(method: string, path: string, wrapper: string, options: { params?: Params; json?: unknown }): Promise<unknown> {
    const body = await this.request(method, path, options);
    if (body && typeof body === 'object' && !Array.isArray(body) && wrapper in (body as Json)) return (body as Json)[wrapper];
    throw new Error(`Expected wrapper "${wrapper}" in the response of ${method} ${path}`);
  }

  rget(path: string, wrapper: string, params?: Params): Promise<unknown> {
    return this.unwrapped('GET', path, wrapper, params ? { params } : {});
  }

  rpost(path: string, wrapper: string, json: unknown): Promise<unknown> {
    return this.unwrapped('POST', path, wrapper, { json });
  }

  rput(path: string, wrapper: string, json: unknown): Promise<unknown> {
    return this.unwrapped('PUT', path, wrapper, { json });
  }

  async rdelete(path: string): Promise<void> {
    await this.request('DELETE', path);
  }

  /** `iter_all` bounded by `max` records, as pagerduty-mcp's `paginate` uses it. */
  async paginate(path: string, key: string, params: Params = {}, max = 1000): Promise<Json[]> {
    const limit = Number(params.limit ?? 100) || 100;
    const out: Json[] = [];
    for (let offset = Number(params.offset ?? 0); ; offset += limit) {
      const page = await this.request('GET', path, { params: { ...params, limit, offset } }) as Json;
      const items = (page[key] ?? []) as Json[];
      for (const item of items) {
        out.push(item);
        if (out.length >= max) return out;
      }
      if (!page.more || items.length === 0) return out;
    }
  }
}
