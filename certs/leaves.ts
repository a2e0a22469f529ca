import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import forge from 'node-forge';
import { ToolbenchError } from '../mocks/core/errors.js';
import { caPaths, type LoadedCa } from './ca.js';
import { readPrivateFile, writeAtomic } from './files.js';
import { generateRsaKeyPem } from './keys.js';
import { leafIsUsable, signLeaf } from './leaf.js';
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
 * every concrete hostname up front by `prepare`, and for hosts under a pattern's suffix when first
 * asked (`issue`: one signature with the shared key, never a key generation); all cached in
 * memory and on disk under `leaves/<CA fingerprint>/<host>.pem`, so a warm start signs nothing.
 */
export class LeafCache {
  private readonly byHost = new Map<string, Leaf>();
  private readonly dir: string;

  private constructor(readonly ca: LoadedCa, private readonly keyPem: string, private readonly key: forge.pki.rsa.PrivateKey) {
    this.dir = join(caPaths(ca.dir).leavesDir, ca.fingerprint.slice(0, 32));
  }

  /** The cache of `ca`, with the CA directory's leaf key (made if missing). */
  static open(ca: LoadedCa, options: { keyBits?: number } = {}): LeafCache {
    const { leafKeyPath } = caPaths(ca.dir);
    if (!existsSync(leafKeyPath)) writeAtomic(leafKeyPath, generateRsaKeyPem(options.keyBits ?? 2048), 0o600);
    const keyPem = readPrivateFile(leafKeyPath, 'leaf key');
    return new LeafCache(ca, keyPem, forge.pki.privateKeyFromPem(keyPem) as forge.pki.rsa.PrivateKey);
  }

  /** Issues (or loads) the leaf of every host; only hosts the CA's constraints permit. `.suffix` names are skipped. */
  prepare(hosts: readonly string[], now = new Date()): PrepareStats {
    const stats: PrepareStats = { signed: 0, loaded: 0 };
    for (const raw of hosts) {
      const host = raw.toLowerCase();
      if (this.byHost.has(host) || isSuffixName(host)) continue;
      if (!permits(this.ca.permitted, host)) {
        throw new ToolbenchError('TB_ERR_CERTS', `the CA in ${this.ca.dir} does not permit ${host} (it permits ${this.ca.permitted.join(', ')})`);
      }
      const file = join(this.dir, `${host}.pem`);
      let certPem = existsSync(file) ? readFileSync(file, 'utf8') : null;
      if (certPem !== null && leafIsUsable(certPem, host, this.key, now)) {
        stats.loaded++;
      } else {
        certPem = signLeaf(this.ca, this.key, host, now);
        writeAtomic(file, certPem, 0o644);
        stats.signed++;
      }
      this.byHost.set(host, { host, certPem, keyPem: this.keyPem });
    }
    return stats;
  }

  /** The prepared leaf of `host` (case-insensitive); undefined for any other host. */
  get(host: string): Leaf | undefined {
    return this.byHost.get(host.toLowerCase());
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

  get hosts(): string[] {
    return [...this.byHost.keys()];
  }
}
