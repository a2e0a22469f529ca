import { createHash, generateKeyPairSync } from 'node:crypto';
import forge from 'node-forge';

/** RSA key generation (Node's native code: node-forge's pure-JS generator is far slower). */
export function generateRsaKeyPem(bits: number): string {
  const { privateKey } = generateKeyPairSync('rsa', {
    modulusLength: bits,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  });
  return privateKey;
}

export function publicKeyOf(key: forge.pki.rsa.PrivateKey): forge.pki.rsa.PublicKey {
  return forge.pki.setRsaPublicKey(key.n, key.e);
}

/** sha256 of the DER SubjectPublicKeyInfo, hex: names a key without revealing it. */
export function publicKeyHash(key: forge.pki.PublicKey): string {
  const der = forge.asn1.toDer(forge.pki.publicKeyToAsn1(key)).getBytes();
  return createHash('sha256').update(Buffer.from(der, 'binary')).digest('hex');
}

/** Whether two public keys are the same key. */
export function sameKey(a: forge.pki.PublicKey, b: forge.pki.PublicKey): boolean {
  return publicKeyHash(a) === publicKeyHash(b);
}
