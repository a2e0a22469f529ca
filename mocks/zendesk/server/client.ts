/**
 * The HTTP side of toolbench's Zendesk MCP server: the calls reminia/zendesk-mcp-server's
 * ZendeskClient makes (through Zenpy and urllib), made with Node's fetch to
 * https://{subdomain}.zendesk.com/api/v2 with API-token basic auth (`email/token:TOKEN`). The
 * process runs under the proxy's preload like every other server, so nothing here knows the proxy.
 */
export interface ZendeskConfig {
  subdomain: string;
  email: string;
  token: string;
}

export class ZendeskApiError extends Error {
  override name = 'ZendeskApiError';
  constructor(readonly status: number, readonly statusText: string, readonly body: string, readonly retryAfter: string | null) {
    super(`HTTP ${status} - ${statusText}${retryAfter === null ? '' : ` (Retry-After: ${retryAfter} s)`}. ${body}`);
  }
}

type Json = Record<string, unknown>;

export class ZendeskClient {
  readonly baseUrl: string;
  private readonly authorization: string;

  constructor(config: ZendeskConfig) {
    this.baseUrl = `https://${config.subdomain}.zendesk.com/api/v2`;
    this.authorization = `Basic ${Buffer.from(`${config.email}/token:${config.token}`).toString('base64')}`;
  }

  /** One request; a non-2xx answer is a ZendeskApiError carrying Zendesk's body and Retry-After. */
  async request(method: string, pathOrUrl: string, body?: unknown): Promise<Json> {
    const url = pathOrUrl.startsWith('https://') ? pathOrUrl : `${this.baseUrl}/${pathOrUrl}`;
    const response = await fetch(url, {
      method,
      headers: { Authorization: this.authorization, Accept: 'application/json', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new ZendeskApiError(response.status, response.statusText, text, response.headers.get('retry-after'));
    return text === '' ? {} : JSON.parse(text) as Json;
  }

  async ticket(id: number): Promise<Json> {
    return (await this.request('GET', `tickets/${id}.json`)).ticket as Json;
  }

  /** Every comment of a ticket, following `next_page` as Zenpy's generator does. */
  async comments(id: number): Promise<Json[]> {
    const out: Json[] = [];
    let next: string | null = `tickets/${id}/comments.json`;
    while (next) {
      const page: Json = await this.request('GET', next);
      out.push(...(page.comments as Json[]));
      next = typeof page.next_page === 'string' ? page.next_page : null;
    }
    return out;
  }

  async tickets(query: { page: number; per_page: number; sort_by: string; sort_order: string }): Promise<Json> {
    const params = new URLSearchParams({ page: String(query.page), per_page: String(query.per_page), sort_by: query.sort_by, sort_order: query.sort_order });
    return this.request('GET', `tickets.json?${params.toString()}`);
  }

  async createTicket(ticket: Json): Promise<Json> {
    return this.request('POST', 'tickets.json', { ticket });
  }

  async updateTicket(id: number, ticket: Json): Promise<Json> {
    return this.request('PUT', `tickets/${id}.json`, { ticket });
  }
}
