import { X509Certificate, createHash, sign, type KeyObject } from 'node:crypto';
import type Forge from 'node-forge';
import type { LoadedCa } from './ca.js';
import { validityStart } from './ca.js';
import { forge } from './forge.js';

/** Leaves live 397 days (the most browsers accept) and are renewed in their last 30. */
export const LEAF_LIFETIME_DAYS = 397;
export const LEAF_RENEW_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Serial number from a hash of the host and the validity start: stable for the same host on the
 * same day (when re-signing yields the very same certificate), distinct for a renewed leaf, and
 * positive (top bit clear) as RFC 5280 requires.
 */
export function leafSerial(host: string, notBefore: Date): string {
  const digest = createHash('sha256').update(`toolbench leaf\0${host}\0${notBefore.toISOString()}`).digest();
  digest[0] = (digest[0]! & 0x7f) | 0x40;
  return digest.subarray(0, 16).toString('hex');
}

/**
 * Signs a server certificate for `host` with the CA. Does not check the host against the CA's
 * Name Constraints: clients do (and a test proves they refuse what the constraints exclude).
 */
export function signLeaf(ca: LoadedCa, leafKey: Forge.pki.rsa.PrivateKey, host: string, now = new Date()): string {
  const { pki, md } = forge();
  const issuer = forgeCertificateOf(ca);
  const cert = pki.createCertificate();
  cert.publicKey = pki.setRsaPublicKey(leafKey.n, leafKey.e);
  const start = validityStart(now);
  cert.serialNumber = leafSerial(host, start);
  cert.validity.notBefore = start;
  cert.validity.notAfter = new Date(start.getTime() + LEAF_LIFETIME_DAYS * DAY_MS);
  cert.setSubject([{ name: 'commonName', value: host }]);
  cert.setIssuer(issuer.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    { name: 'subjectAltName', altNames: [{ type: 2, value: host }] },
    { name: 'subjectKeyIdentifier' },
    { name: 'authorityKeyIdentifier', keyIdentifier: issuer.generateSubjectKeyIdentifier().getBytes() },
  ]);
  cert.sign(nativeSigner(ca, cert), md.sha256.create());
  return pki.certificateToPem(cert);
}

const forgeCertificates = new WeakMap<LoadedCa, Forge.pki.Certificate>();

/** The CA certificate as node-forge's object (its subject and key id go into each leaf), parsed once per CA. */
function forgeCertificateOf(ca: LoadedCa): Forge.pki.Certificate {
  let cert = forgeCertificates.get(ca);
  if (!cert) forgeCertificates.set(ca, cert = forge().pki.certificateFromPem(ca.certPem));
  return cert;
}

/**
 * node-forge lays out the certificate; Node's crypto makes the RSA signature (PKCS#1 v1.5 over
 * SHA-256, deterministic, so the bytes are exactly forge's): about 1 ms instead of forge's
 * ~90 ms of pure JavaScript, which matters for a pattern host's leaf, signed on its first request.
 */
function nativeSigner(ca: LoadedCa, cert: Forge.pki.Certificate): Forge.pki.rsa.PrivateKey {
  const signer = ca.key;
  return {
    // forge calls this after it has set `tbsCertificate` and fed its DER to the digest.
    sign: () => {
      const tbs = forge().asn1.toDer((cert as unknown as { tbsCertificate: Forge.asn1.Asn1 }).tbsCertificate).getBytes();
      return sign('sha256', Buffer.from(tbs, 'binary'), signer).toString('binary');
    },
  } as unknown as Forge.pki.rsa.PrivateKey;
}

/** The modulus of an RSA key (private or public), base64url as in its JWK. */
export function rsaModulus(key: KeyObject): string | undefined {
  return (key.export({ format: 'jwk' }) as { n?: string }).n;
}

/**
 * Whether a cached leaf is still good for `host` with the leaf key whose modulus is `leafModulus`
 * (`rsaModulus`) at `now`. Read with Node's native X.509 parser: forge's pure-JavaScript one cost
 * ~1 ms per leaf on every world's start.
 */
export function leafIsUsable(pem: string, host: string, leafModulus: string, now = new Date()): boolean {
  let cert: X509Certificate;
  let modulus: string | undefined;
  try {
    cert = new X509Certificate(pem);
    modulus = rsaModulus(cert.publicKey);
  } catch {
    return false;
  }
  if (modulus === undefined || modulus !== leafModulus) return false;
  // The subject as Node prints it: one `KEY=value` per line; the leaf's is its CN alone.
  const cn = cert.subject.split('\n').find((line) => line.startsWith('CN='))?.slice(3);
  if (cn !== host) return false;
  const notBefore = Date.parse(cert.validFrom);
  const notAfter = Date.parse(cert.validTo);
  return notBefore <= now.getTime() && notAfter - now.getTime() > LEAF_RENEW_DAYS * DAY_MS;
}
