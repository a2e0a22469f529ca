import { ensureCa, type CaOptions, type LoadedCa } from './ca.js';
import { LeafCache } from './leaves.js';

export { caPaths, createCa, ensureCa, loadCa, DEFAULT_KEY_BITS, type LoadedCa } from './ca.js';
export { LeafCache, type Leaf, type PrepareStats } from './leaves.js';
export { signLeaf } from './leaf.js';

/** `.toolbench/ca` under the working directory: where a world keeps its CA unless told otherwise. */
export const DEFAULT_CA_DIR = '.toolbench/ca';

export interface Certificates {
  ca: LoadedCa;
  leaves: LeafCache;
  /** The CA was made now (clients must be told to trust the new ca.pem). */
  created: boolean;
}

/**
 * Everything TLS termination needs for `hostnames`: the CA (made if missing) and the leaf cache,
 * every hostname checked against the CA's constraints now and its leaf loaded (or signed) on its
 * first handshake.
 */
export function openCertificates(dir: string, hostnames: readonly string[], options: CaOptions = {}): Certificates {
  const { ca, created } = ensureCa(dir, hostnames, options);
  const leaves = LeafCache.open(ca, options);
  leaves.permit(hostnames, options.now);
  return { ca, leaves, created };
}
