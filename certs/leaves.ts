import { createPrivateKey } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type Forge from 'node-forge';
import { ToolbenchError } from '../mocks/core/errors.js';
import { caPaths, type LoadedCa } from './ca.js';
import { readPrivateFile, writeAtomic } from './files.js';
import { generateRsaKeyPem } from './keys.js';
import { forge } from './forge.js';
import { leafIsUsable, rsaModulus, signLeaf } from './leaf.js';
import { isSuffixName, permits } from './name-constraints.js';

/** A server certificate and the shared leaf key, both PEM. */
export interface Leaf {
  host: string;
  certPem: string;
  keyPem: string;
}

export interface PrepareStats {
  /** Leaves signed now. */
  signed: number;
  /** Leaves found on disk, still valid. */
  loaded: number;
}

/**
 * Leaf certificates for a CA: one shared leaf key (never a key per host), leaves issued for
 * every concrete hostname up front by `prepare` (or on a permitted host's first `get`, after
 * `permit`), and for hosts under a pattern's suffix when first asked (`issue`: one signature
 * with the shared key, never a key generation); all cached in memory and on disk under
 * `leaves/<CA fingerprint>/<host>.pem`, so a warm start signs nothing.
 */
export class LeafCache {
  private readonly byHost = new Map<string, Leaf>();
  /** Hosts `permit` checked against the CA, whose leaves `get` loads or signs on first use. */
  private readonly permitted = new Map<string, Date | undefined>();
  private readonly dir: string;
  private readonly modulus: string | undefined;
  private forgeKey: Forge.pki.rsa.PrivateKey | undefined;

  private constructor(readonly ca: LoadedCa, private readonly keyPem: string) {
    this.dir = join(caPaths(ca.dir).leavesDir, ca.fingerprint.slice(0, 32));
    this.modulus = rsaModulus(createPrivateKey(keyPem));
  }

  /** The cache of `ca`, with the CA directory's leaf key (made if missing). */
  static open(ca: LoadedCa, options: { keyBits?: number } = {}): LeafCache {
    const { leafKeyPath } = caPaths(ca.dir);
    if (!existsSync(leafKeyPath)) writeAtomic(leafKeyPath, generateRsaKeyPem(options.keyBits ?? 2048), 0o600);
    const keyPem = readPrivateFile(leafKeyPath, 'leaf key');
    try {
      return new LeafCache(ca, keyPem);
    } catch (error) {
      throw new ToolbenchError('TB_ERR_CERTS', `the leaf key ${leafKeyPath} cannot be read: ${(error as Error).message}`, { cause: error });
    }
  }

  /**
   * Checks every host against the CA's constraints now (the same error as `prepare`) and leaves
   * reading, checking or signing its leaf to its first `get`: a world serves dozens of hostnames
   * and its clients reach a few, and each cached leaf costs a native X.509 parse to check.
   */
  permit(hosts: readonly string[], now?: Date): void {
    for (const raw of hosts) {
      const host = raw.toLowerCase();
      if (isSuffixName(host)) continue;
      this.assertPermitted(host);
      this.permitted.set(host, now);
    }
  }

  /** Issues (or loads) the leaf of every host; only hosts the CA's constraints permit. `.suffix` names are skipped. */
  prepare(hosts: readonly string[], now = new Date()): PrepareStats {
    const stats: PrepareStats = { signed: 0, loaded: 0 };
    for (const raw of hosts) {
      const host = raw.toLowerCase();
      if (this.byHost.has(host) || isSuffixName(host)) continue;
      this.assertPermitted(host);
      const file = join(this.dir, `${host}.pem`);
      let certPem = existsSync(file) ? readFileSync(file, 'utf8') : null;
      if (certPem !== null && this.modulus !== undefined && leafIsUsable(certPem, host, this.modulus, now)) {
        stats.loaded++;
      } else {
        this.forgeKey ??= forge().pki.privateKeyFromPem(this.keyPem) as Forge.pki.rsa.PrivateKey;
        certPem = signLeaf(this.ca, this.forgeKey, host, now);
        writeAtomic(file, certPem, 0o644);
        stats.signed++;
      }
      this.byHost.set(host, { host, certPem, keyPem: this.keyPem });
    }
    return stats;
  }

  private assertPermitted(host: string): void {
    if (!permits(this.ca.permitted, host)) {
      throw new ToolbenchError('TB_ERR_CERTS', `the CA in ${this.ca.dir} does not permit ${host} (it permits ${this.ca.permitted.join(', ')})`);
    }
  }

  /** The leaf of a prepared or permitted `host` (case-insensitive); undefined for any other host. */
  get(host: string): Leaf | undefined {
    const lower = host.toLowerCase();
    const leaf = this.byHost.get(lower);
    if (leaf || !this.permitted.has(lower)) return leaf;
    this.prepare([lower], this.permitted.get(lower));
    return this.byHost.get(lower);
  }

  /**
   * The leaf of `host`, issued now (from disk, or signed with the shared key) if it was not
   * prepared: for a host under a pattern (`acme.atlassian.net`). Throws for a host the CA's
   * constraints do not permit; the caller has already checked that a catalog entry matches it.
   */
  issue(host: string, now = new Date()): Leaf {
    this.prepare([host], now);
    return this.byHost.get(host.toLowerCase())!;
  }

  /** Hosts with a leaf in memory or permitted for one. */
  get hosts(): string[] {
    return [...new Set([...this.byHost.keys(), ...this.permitted.keys()])];
  }
}
