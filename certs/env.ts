import type { LoadedCa } from './ca.js';

/**
 * The environment that makes common clients trust the CA. Node adds NODE_EXTRA_CA_CERTS to its
 * roots; the others replace their store, so they get the bundle (public roots plus the CA),
 * which keeps passthrough hosts reachable.
 */
export function caTrustEnvironment(ca: Pick<LoadedCa, 'certPath' | 'bundlePath'>): Record<string, string> {
  return {
    NODE_EXTRA_CA_CERTS: ca.certPath,
    // Python's ssl, OpenSSL-based tools and Go (crypto/x509 on Linux) read SSL_CERT_FILE.
    SSL_CERT_FILE: ca.bundlePath,
    REQUESTS_CA_BUNDLE: ca.bundlePath,
    CURL_CA_BUNDLE: ca.bundlePath,
  };
}
