import { createHash, createPublicKey, generateKeyPairSync } from 'node:crypto';

/** RSA key generation (Node's native code: node-forge's pure-JS generator is far slower). */
export function generateRsaKeyPem(bits: number): string {
  const { privateKey } = generateKeyPairSync('rsa', {
    modulusLength: bits,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  });
  return privateKey;
}

/** sha256 of the key's DER SubjectPublicKeyInfo, hex: names a key without revealing it. */
export function publicKeyHash(privateKeyPem: string): string {
  return createHash('sha256').update(createPublicKey(privateKeyPem).export({ type: 'spki', format: 'der' })).digest('hex');
}
