import { randomBytes, timingSafeEqual } from 'node:crypto';
import { ToolbenchError } from '../mocks/core/errors.js';

/** One client's proxy credential: its name is the username, the password is random. */
export interface ProxyCredential {
  client: string;
  username: string;
  password: string;
}

const CLIENT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * Proxy credentials, random per world: each client (e.g. one MCP endpoint) gets its own, passed
 * as the userinfo of its proxy URL and sent by the client as `Proxy-Authorization: Basic`.
 * A request with no credential, or one this registry did not issue, has no client (`direct`).
 */
export class ProxyCredentials {
  private readonly byUser = new Map<string, ProxyCredential>();

  constructor(private readonly random: (size: number) => Buffer = randomBytes) {}

  /** The credential of `client`, issued on first use. */
  issue(client: string): ProxyCredential {
    if (!CLIENT_NAME.test(client)) {
      throw new ToolbenchError('TB_ERR_USAGE', `proxy client name "${client}" must be letters, digits, dots, dashes and underscores`);
    }
    const existing = this.byUser.get(client);
    if (existing) return existing;
    const credential = { client, username: client, password: this.random(24).toString('base64url') };
    this.byUser.set(client, credential);
    return credential;
  }

  /** `proxyUrl` (`http://127.0.0.1:8080`) with the client's credential as userinfo. */
  url(client: string, proxyUrl: string): string {
    const credential = this.issue(client);
    const url = new URL(proxyUrl);
    url.username = credential.username;
    url.password = credential.password;
    return url.href.replace(/\/$/, '');
  }

  /** The client a `Proxy-Authorization` value names, or null (none, malformed, unknown, wrong password). */
  clientOf(proxyAuthorization: string | undefined): string | null {
    if (!proxyAuthorization) return null;
    const match = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(proxyAuthorization);
    if (!match) return null;
    const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon === -1) return null;
    const credential = this.byUser.get(decoded.slice(0, colon));
    if (!credential) return null;
    const given = Buffer.from(decoded.slice(colon + 1));
    const expected = Buffer.from(credential.password);
    return given.length === expected.length && timingSafeEqual(given, expected) ? credential.client : null;
  }
}
