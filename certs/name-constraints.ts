import type Forge from 'node-forge';
import { childrenOf, contentOf, DER, readTlv } from './der.js';
import { forge } from './forge.js';

/**
 * X.509 Name Constraints (RFC 5280 §4.2.1.10), which node-forge cannot build by itself.
 * The CA permits only the catalog's DNS names (each name and its subdomains) and excludes every
 * IP address, so trusting the CA cannot be abused to impersonate any other site.
 */
export const NAME_CONSTRAINTS_OID = '2.5.29.30';

const DNS_NAME = 2;
const IP_ADDRESS = 7;

function subtree(tag: number, value: string): Forge.asn1.Asn1 {
  const { asn1 } = forge();
  return asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
    asn1.create(asn1.Class.CONTEXT_SPECIFIC, tag, false, value),
  ]);
}

/** The extension for a node-forge certificate: critical, as RFC 5280 requires. */
export function nameConstraintsExtension(permittedDnsNames: readonly string[]): { id: string; critical: true; value: Forge.asn1.Asn1 } {
  const { asn1 } = forge();
  const everyIPv4 = '\0'.repeat(8); // address 0.0.0.0, mask 0.0.0.0
  const everyIPv6 = '\0'.repeat(32);
  return {
    id: NAME_CONSTRAINTS_OID,
    critical: true,
    value: asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
      asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, permittedDnsNames.map((name) => subtree(DNS_NAME, name))),
      asn1.create(asn1.Class.CONTEXT_SPECIFIC, 1, true, [subtree(IP_ADDRESS, everyIPv4), subtree(IP_ADDRESS, everyIPv6)]),
    ]),
  };
}

const NAME_CONSTRAINTS_OID_DER = Buffer.from([0x55, 0x1d, 0x1e]); // 2.5.29.30

/**
 * The permitted DNS names of a certificate's Name Constraints (its DER, e.g. X509Certificate's
 * `raw`); `null` if it has none. Certificate → tbsCertificate → [3] extensions → the extension
 * whose OID is 2.5.29.30 → its OCTET STRING's NameConstraints → [0] permittedSubtrees → each
 * GeneralSubtree's base when it is a dNSName ([2]).
 */
export function permittedDnsNames(der: Uint8Array): string[] | null {
  const certificate = readTlv(der, 0);
  const tbs = childrenOf(der, certificate)[0];
  const extensions = tbs && childrenOf(der, tbs).find((part) => part.tag === DER.context(3));
  if (!extensions) return null;
  const list = childrenOf(der, extensions)[0];
  for (const extension of list ? childrenOf(der, list) : []) {
    const [oid, ...rest] = childrenOf(der, extension);
    if (oid?.tag !== DER.OID || !NAME_CONSTRAINTS_OID_DER.equals(contentOf(der, oid))) continue;
    const value = rest.find((part) => part.tag === DER.OCTET_STRING);
    if (!value) return null;
    const constraints = readTlv(der, value.start);
    const permitted = childrenOf(der, constraints).find((part) => part.tag === DER.context(0));
    if (!permitted) return [];
    const names: string[] = [];
    for (const generalSubtree of childrenOf(der, permitted)) {
      const base = childrenOf(der, generalSubtree)[0];
      if (base?.tag === DER.contextPrimitive(DNS_NAME)) names.push(Buffer.from(contentOf(der, base)).toString('latin1'));
    }
    return names;
  }
  return null;
}

/**
 * Whether `host` falls under a permitted DNS name: `api.github.com` permits itself and its
 * subdomains; `.atlassian.net` (a host pattern's suffix) only its subdomains, as OpenSSL, Go and
 * BoringSSL read a leading dot.
 */
export function permits(permitted: readonly string[], host: string): boolean {
  const lower = host.toLowerCase();
  return permitted.some((name) => {
    const base = name.toLowerCase();
    if (base.startsWith('.')) return lower.endsWith(base) && lower.length > base.length;
    return lower === base || lower.endsWith(`.${base}`);
  });
}

/** Whether the constraints permit every host `name` stands for (a host, or `.suffix` for all its subdomains). */
export function covers(permitted: readonly string[], name: string): boolean {
  if (!name.startsWith('.')) return permits(permitted, name);
  const lower = name.toLowerCase();
  return permitted.some((p) => p.toLowerCase() === lower) || permits(permitted, lower.slice(1));
}

/** `.suffix` names stand for a host pattern's subdomains: they get no leaf of their own. */
export function isSuffixName(name: string): boolean {
  return name.startsWith('.');
}
