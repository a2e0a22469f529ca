import forge from 'node-forge';

/**
 * X.509 Name Constraints (RFC 5280 §4.2.1.10), which node-forge cannot build by itself.
 * The CA permits only the catalog's DNS names (each name and its subdomains) and excludes every
 * IP address, so trusting the CA cannot be abused to impersonate any other site.
 */
export const NAME_CONSTRAINTS_OID = '2.5.29.30';

const { asn1 } = forge;
const DNS_NAME = 2;
const IP_ADDRESS = 7;

function subtree(tag: number, value: string): forge.asn1.Asn1 {
  return asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
    asn1.create(asn1.Class.CONTEXT_SPECIFIC, tag, false, value),
  ]);
}

/** The extension for a node-forge certificate: critical, as RFC 5280 requires. */
export function nameConstraintsExtension(permittedDnsNames: readonly string[]): { id: string; critical: true; value: forge.asn1.Asn1 } {
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

/** The permitted DNS names of a certificate's Name Constraints; `null` if it has none. */
export function permittedDnsNames(cert: forge.pki.Certificate): string[] | null {
  const extension = cert.extensions.find((e: { id?: string }) => e.id === NAME_CONSTRAINTS_OID) as { value?: string } | undefined;
  if (!extension || typeof extension.value !== 'string') return null;
  const root = asn1.fromDer(extension.value);
  const permitted = (root.value as forge.asn1.Asn1[]).find((part) => part.tagClass === asn1.Class.CONTEXT_SPECIFIC && part.type === 0);
  if (!permitted) return [];
  const names: string[] = [];
  for (const generalSubtree of permitted.value as forge.asn1.Asn1[]) {
    const base = (generalSubtree.value as forge.asn1.Asn1[])[0];
    if (base && base.tagClass === asn1.Class.CONTEXT_SPECIFIC && base.type === DNS_NAME) names.push(base.value as string);
  }
  return names;
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
