import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { rootCertificates } from 'node:tls';
import type Forge from 'node-forge';
import { ToolbenchError } from '../mocks/core/errors.js';
import { readPrivateFile, writeAtomic } from './files.js';
import { forge } from './forge.js';
import { generateRsaKeyPem, publicKeyHash } from './keys.js';
import { covers, nameConstraintsExtension, permittedDnsNames } from './name-constraints.js';

/**
 * The per-world certificate authority. A CA directory holds:
 *
 *   ca.pem          the CA certificate (what clients trust)
 *   ca-key.pem      its private key, mode 0600
 *   ca-bundle.pem   Node's public roots followed by the CA, for clients whose trust setting
 *                   replaces the system store (SSL_CERT_FILE) yet must reach a passthrough host
 *   leaf-key.pem    the one private key every leaf certificate uses, mode 0600
 *   leaves/         issued leaves, by CA fingerprint and host (leaves.ts)
 *
 * The CA carries Name Constraints permitting only the names it was created for: the catalog's
 * hostnames, and for each host pattern (`{site}.atlassian.net`) its fixed suffix with a leading
 * dot (`.atlassian.net`: any subdomain, not the name itself).
 */
export interface LoadedCa {
  dir: string;
  certPath: string;
  keyPath: string;
  bundlePath: string;
  certPem: string;
  /** The CA's private key (Node's, for signing leaves natively). */
  key: KeyObject;
  /** sha256 of the certificate's DER, lower-case hex. */
  fingerprint: string;
  /** The DNS names its Name Constraints permit. */
  permitted: string[];
}

export interface CaOptions {
  /** RSA modulus length of new keys; default 2048. */
  keyBits?: number;
  /** The clock for validity periods (tests). */
  now?: Date;
}

export const DEFAULT_KEY_BITS = 2048;
const DAY_MS = 24 * 60 * 60 * 1000;

export function caPaths(dir: string) {
  const abs = resolve(dir);
  return {
    dir: abs,
    certPath: join(abs, 'ca.pem'),
    keyPath: join(abs, 'ca-key.pem'),
    bundlePath: join(abs, 'ca-bundle.pem'),
    leafKeyPath: join(abs, 'leaf-key.pem'),
    leavesDir: join(abs, 'leaves'),
  };
}

/** Midnight UTC of the day before `now`: validity starts are stable within a day and tolerate skew. */
export function validityStart(now: Date): Date {
  return new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS - DAY_MS);
}

/**
 * Makes a new CA (and leaf key) in `dir`. The files are written to a staging directory that is
 * renamed into place whole, so a concurrent start never sees half a CA: if another process made
 * one first, its CA is loaded instead (unless `replace`, which removes whatever was there).
 */
export function createCa(dir: string, hostnames: readonly string[], options: CaOptions & { replace?: boolean } = {}): LoadedCa {
  if (hostnames.length === 0) throw new ToolbenchError('TB_ERR_CERTS', 'a CA needs at least one hostname to permit');
  const paths = caPaths(dir);
  const bits = options.keyBits ?? DEFAULT_KEY_BITS;
  const keyPem = generateRsaKeyPem(bits);
  const { pki, md } = forge();
  const key = pki.privateKeyFromPem(keyPem) as Forge.pki.rsa.PrivateKey;
  const keyId = publicKeyHash(keyPem);

  const cert = pki.createCertificate();
  cert.publicKey = pki.setRsaPublicKey(key.n, key.e);
  cert.serialNumber = '40' + keyId.slice(2, 32);
  const start = validityStart(options.now ?? new Date());
  cert.validity.notBefore = start;
  cert.validity.notAfter = new Date(start.getTime() + 10 * 365 * DAY_MS);
  const subject = [
    { name: 'commonName', value: `toolbench local CA ${keyId.slice(0, 8)}` },
    { name: 'organizationName', value: 'toolbench' },
  ];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    { name: 'subjectKeyIdentifier' },
    nameConstraintsExtension([...new Set(hostnames.map((h) => h.toLowerCase()))].sort()),
  ]);
  cert.sign(key, md.sha256.create());
  const certPem = pki.certificateToPem(cert);

  mkdirSync(dirname(paths.dir), { recursive: true });
  const staging = mkdtempSync(join(dirname(paths.dir), `.${basename(paths.dir)}.new-`));
  try {
    const staged = caPaths(staging);
    writeAtomic(staged.keyPath, keyPem, 0o600);
    writeAtomic(staged.leafKeyPath, generateRsaKeyPem(bits), 0o600);
    writeAtomic(staged.certPath, certPem, 0o644);
    writeAtomic(staged.bundlePath, bundle(certPem), 0o644);
    chmodSync(staging, 0o755);
    if (options.replace) rmSync(paths.dir, { recursive: true, force: true });
    renameSync(staging, paths.dir);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    const code = (error as NodeJS.ErrnoException).code;
    if ((code === 'ENOTEMPTY' || code === 'EEXIST') && existsSync(paths.certPath)) return loadCa(dir);
    if (code === 'ENOTEMPTY' || code === 'EEXIST') {
      throw new ToolbenchError('TB_ERR_CERTS', `${paths.dir} is not empty and holds no CA; choose another --ca-dir`);
    }
    throw error;
  }
  return loadCa(dir);
}

/** Loads the CA in `dir`: its key must be private and must match the certificate. */
export function loadCa(dir: string): LoadedCa {
  const paths = caPaths(dir);
  if (!existsSync(paths.certPath)) {
    throw new ToolbenchError('TB_ERR_CERTS', `no CA in ${paths.dir} (no ca.pem); create one with \`toolbench certs init --dir ${dir}\``);
  }
  if (!existsSync(paths.keyPath)) throw new ToolbenchError('TB_ERR_CERTS', `the CA in ${paths.dir} has no private key (ca-key.pem)`);
  const certPem = readFileSync(paths.certPath, 'utf8');
  const keyPem = readPrivateFile(paths.keyPath, 'CA key');
  // Node's native X.509 and key parsers: node-forge's pure-JavaScript ones (and importing forge)
  // were most of the certificates' share of a world's start.
  let cert: X509Certificate;
  let key: KeyObject;
  let permitted: string[] | null;
  try {
    cert = new X509Certificate(certPem);
    key = createPrivateKey(keyPem);
    permitted = permittedDnsNames(cert.raw);
  } catch (error) {
    throw new ToolbenchError('TB_ERR_CERTS', `the CA in ${paths.dir} cannot be read: ${(error as Error).message}`, { cause: error });
  }
  if (key.asymmetricKeyType !== 'rsa' || !cert.checkPrivateKey(key)) {
    throw new ToolbenchError('TB_ERR_CERTS', `ca.pem and ca-key.pem in ${paths.dir} do not belong together; run \`toolbench certs init --dir ${dir} --force\``);
  }
  if (permitted === null) {
    throw new ToolbenchError('TB_ERR_CERTS', `the CA in ${paths.dir} has no Name Constraints; toolbench only uses constrained CAs (\`toolbench certs init --dir ${dir} --force\`)`);
  }
  if (!existsSync(paths.bundlePath)) writeAtomic(paths.bundlePath, bundle(certPem), 0o644);
  const fingerprint = cert.fingerprint256.replaceAll(':', '').toLowerCase();
  return { dir: paths.dir, certPath: paths.certPath, keyPath: paths.keyPath, bundlePath: paths.bundlePath, certPem, key, fingerprint, permitted };
}

/**
 * The CA for a world: loaded from `dir` when there is one that permits every hostname, created
 * when there is none. A CA that does not cover a hostname is an error, never silently replaced
 * (clients may already trust it).
 */
export function ensureCa(dir: string, hostnames: readonly string[], options: CaOptions & { force?: boolean } = {}): { ca: LoadedCa; created: boolean } {
  if (options.force || !existsSync(caPaths(dir).certPath)) return { ca: createCa(dir, hostnames, { ...options, replace: options.force }), created: true };
  const ca = loadCa(dir);
  const uncovered = hostnames.filter((name) => !covers(ca.permitted, name));
  if (uncovered.length > 0) {
    throw new ToolbenchError('TB_ERR_CERTS',
      `the CA in ${ca.dir} does not permit ${uncovered.join(', ')} (it permits ${ca.permitted.join(', ')}); ` +
      `the catalog has changed since it was made: run \`toolbench certs init --dir ${dir} --force\` and trust the new ca.pem`);
  }
  return { ca, created: false };
}

function bundle(caPem: string): string {
  return [...rootCertificates, caPem.trim()].join('\n') + '\n';
}
