/**
 * Where a hostname goes: a catalog service (terminate TLS, hand to the world), a passthrough
 * host (tunnel raw), or nowhere (refuse, journal as blocked). Built from the catalog; knows no
 * service's API.
 */
export type HostRoute =
  | { kind: 'service'; host: string; service: string }
  | { kind: 'passthrough'; host: string }
  | { kind: 'blocked'; host: string };

export interface RouteSource {
  services: readonly { id: string; hostnames: readonly string[] }[];
  passthrough?: readonly string[];
}

export class HostRoutes {
  private readonly services = new Map<string, string>();
  private readonly passthrough: Set<string>;

  constructor(source: RouteSource) {
    for (const service of source.services) {
      for (const host of service.hostnames) this.services.set(normalizeHost(host), service.id);
    }
    this.passthrough = new Set((source.passthrough ?? []).map(normalizeHost));
  }

  route(rawHost: string): HostRoute {
    const host = normalizeHost(rawHost);
    const service = this.services.get(host);
    if (service !== undefined) return { kind: 'service', host, service };
    if (this.passthrough.has(host)) return { kind: 'passthrough', host };
    return { kind: 'blocked', host };
  }

  /** Every hostname the proxy terminates TLS for (the leaves it needs). */
  get serviceHostnames(): string[] {
    return [...this.services.keys()];
  }
}

/** Lower case, no trailing dot, IPv6 brackets kept. */
export function normalizeHost(host: string): string {
  return host.trim().toLowerCase().replace(/\.$/, '');
}

/** `host:port` of a CONNECT request (`[v6]:port` too); null when malformed. */
export function parseAuthority(authority: string): { host: string; port: number } | null {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^\s:/[\]@]+):(\d{1,5})$/.exec(authority);
  if (!match) return null;
  const port = Number(match[2]);
  if (port < 1 || port > 65535) return null;
  return { host: normalizeHost(match[1]!), port };
}

/** The host (without port) of a Host header value. */
export function hostOfHeader(value: string): string {
  const trimmed = value.trim();
  if (trimmed.startsWith('[')) return normalizeHost(trimmed.slice(0, trimmed.indexOf(']') + 1));
  const colon = trimmed.lastIndexOf(':');
  return normalizeHost(colon === -1 ? trimmed : trimmed.slice(0, colon));
}
