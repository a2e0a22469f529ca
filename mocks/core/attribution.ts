import type { Attribution } from './journal-format.js';

/** What the bridge tells the tracker about one endpoint's tool call. */
export interface CallInFlight {
  tool: string;
  callId: string;
}

/**
 * Says who caused a world request. The proxy knows which client sent it (from the proxy
 * credential); the bridge tells this tracker whether that client is an MCP endpoint that is still
 * starting, or which tool call it is serving. A client that is not an endpoint is `direct`.
 */
export class CallTracker {
  private readonly endpoints = new Map<string, { ready: boolean; call: CallInFlight | null }>();

  /** An endpoint whose requests count as `startup` until `markReady`. */
  register(endpoint: string): void {
    this.endpoints.set(endpoint, { ready: false, call: null });
  }

  markReady(endpoint: string): void {
    const state = this.endpoints.get(endpoint);
    if (state) state.ready = true;
  }

  begin(endpoint: string, call: CallInFlight): void {
    const state = this.endpoints.get(endpoint);
    if (state) state.call = call;
  }

  end(endpoint: string): void {
    const state = this.endpoints.get(endpoint);
    if (state) state.call = null;
  }

  /** The attribution of a request from `client` (null: no or unknown proxy credential). */
  attribute(client: string | null): Attribution {
    const base = { client, endpoint: null, tool: null, callId: null };
    const state = client === null ? undefined : this.endpoints.get(client);
    if (!state) return { ...base, kind: 'direct' };
    if (!state.ready) return { ...base, kind: 'startup', endpoint: client };
    return { ...base, kind: 'mcp', endpoint: client, tool: state.call?.tool ?? null, callId: state.call?.callId ?? null };
  }
}
