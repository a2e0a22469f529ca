import { HostTable, normalizeHost } from '../mocks/core/hosts.js';
import { isCloudMetadataHost } from './metadata.js';

export { normalizeHost };

/**
 * Where a hostname goes: a catalog service (terminate TLS, hand to the world), a noise host
 * (terminate TLS, the world answers from the catalog's `[[noise]]`), a passthrough host (tunnel
 * raw), or nowhere (refuse, journal as blocked; cloud-metadata probes get their own fast 404).
 * Built from the catalog; knows no service's API. Host patterns (`{site}.atlassian.net`) resolve
 * through mocks/core/hosts.ts, exactly as the world resolves them.
 */
export type HostRoute =
  | { kind: 'service'; host: string; service: string }
  | { kind: 'noise'; host: string }
  | { kind: 'passthrough'; host: string }
  | { kind: 'blocked'; host: string; why: 'outside-catalog' | 'cloud-metadata' };

export interface RouteSource {
  services: readonly { id: string; hostnames: readonly string[] }[];
  passthrough?: readonly string[];
  noise?: readonly { hostnames: readonly string[] }[];
}

export class HostRoutes {
  private readonly table: HostTable<{ service: string } | { noise: true }>;
  private readonly passthrough: Set<string>;

  constructor(source: RouteSource) {
    this.table = new HostTable<{ service: string } | { noise: true }>([
      ...source.services.flatMap((service) => service.hostnames.map((host) => ({ host, value: { service: service.id } }))),
      ...(source.noise ?? []).flatMap((noise) => noise.hostnames.map((host) => ({ host, value: { noise: true as const } }))),
    ]);
    this.passthrough = new Set((source.passthrough ?? []).map(normalizeHost));
  }

  route(rawHost: string): HostRoute {
    const host = normalizeHost(rawHost);
    const found = this.table.resolve(host)?.value;
    if (found && 'service' in found) return { kind: 'service', host, service: found.service };
    if (found) return { kind: 'noise', host };
    if (this.passthrough.has(host)) return { kind: 'passthrough', host };
    return { kind: 'blocked', host, why: isCloudMetadataHost(host) ? 'cloud-metadata' : 'outside-catalog' };
  }

  /**
   * The names the proxy terminates TLS for (services' and noise hosts), as the CA's constraints
   * take them: each concrete host (its leaf is issued before the proxy listens), and each host
   * pattern's fixed suffix with a leading dot (`.atlassian.net`: leaves issued when first asked).
   */
  get tlsNames(): string[] {
    return [...this.table.concreteHosts, ...this.table.patternSuffixes.map((suffix) => `.${suffix}`)];
  }
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
