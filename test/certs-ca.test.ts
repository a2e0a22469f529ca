import test from 'ava';
import { X509Certificate } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import forge from 'node-forge';
import { createCa, ensureCa, LeafCache, loadCa, openCertificates, signLeaf } from '../certs/index.js';
import { writeAtomic } from '../certs/files.js';
import { generateRsaKeyPem } from '../certs/keys.js';
import { leafSerial } from '../certs/leaf.js';
import { permits, permittedDnsNames } from '../certs/name-constraints.js';
import { run } from './helpers/proxy-processes.js';
import { tempDir } from './helpers/journal.js';

const HOSTS = ['api.github.com', 'slack.com'];
const temp = () => join(tempDir('toolbench-certs-'), 'ca');

// One CA for most tests: key generation is the slow part.
let dir: string;
test.before(() => {
  dir = temp();
  openCertificates(dir, HOSTS);
});

test('the CA key and the leaf key are written 0600; the certificate is readable', (t) => {
  t.is(statSync(join(dir, 'ca-key.pem')).mode & 0o777, 0o600);
  t.is(statSync(join(dir, 'leaf-key.pem')).mode & 0o777, 0o600);
  t.is(statSync(join(dir, 'ca.pem')).mode & 0o777, 0o644);
  t.regex(readFileSync(join(dir, 'ca-bundle.pem'), 'utf8'), /-----END CERTIFICATE-----\n$/);
});

test('a CA key readable by the group or others is refused with the fix', (t) => {
  const other = temp();
  createCa(other, HOSTS, { keyBits: 1024 });
  chmodSync(join(other, 'ca-key.pem'), 0o640);
  const error = t.throws(() => loadCa(other), { code: 'TB_ERR_CERTS' } as never);
  t.regex(error!.message, /readable by other users \(mode 0640\).*chmod 600/);
});

test('the CA permits only the catalog hostnames (Name Constraints, critical) and no IP address', async (t) => {
  const ca = loadCa(dir);
  t.deepEqual(ca.permitted, ['api.github.com', 'slack.com']);
  t.true(permits(ca.permitted, 'uploads.api.github.com'));
  t.false(permits(ca.permitted, 'github.com'));
  t.false(permits(ca.permitted, 'evilapi.github.com'));
  const text = await run('openssl', ['x509', '-in', ca.certPath, '-noout', '-text']);
  t.regex(text.stdout, /X509v3 Name Constraints: critical\s+Permitted:\s+DNS:api\.github\.com\s+DNS:slack\.com\s+Excluded:\s+IP:0\.0\.0\.0\/0\.0\.0\.0\s+IP:0:0:0:0:0:0:0:0\/0:0:0:0:0:0:0:0/);
  t.regex(text.stdout, /CA:TRUE, pathlen:0/);
});

test('openssl verify accepts a catalog leaf and rejects one for a hostname outside the constraints', async (t) => {
  const ca = loadCa(dir);
  const leaves = LeafCache.open(ca);
  leaves.prepare(HOSTS);
  const out = tempDir('toolbench-leaves-');
  const good = join(out, 'good.pem');
  writeFileSync(good, leaves.get('api.github.com')!.certPem);
  const ok = await run('openssl', ['verify', '-CAfile', ca.certPath, '-purpose', 'sslserver', good]);
  t.is(ok.code, 0, ok.stderr);
  t.regex(ok.stdout, /good\.pem: OK/);

  // The CA's key can sign anything; the constraints make clients refuse it.
  const key = forge.pki.privateKeyFromPem(leaves.get('api.github.com')!.keyPem) as forge.pki.rsa.PrivateKey;
  const bad = join(out, 'bad.pem');
  writeFileSync(bad, signLeaf(ca, key, 'www.example.com'));
  const refused = await run('openssl', ['verify', '-CAfile', ca.certPath, bad]);
  t.not(refused.code, 0);
  t.regex(refused.stdout + refused.stderr, /permitted subtree violation/);
});

test('leaves: one shared key, issued up front, cached on disk by CA fingerprint and host; a warm start signs nothing', (t) => {
  const ca = loadCa(dir);
  const warm = LeafCache.open(ca);
  t.deepEqual(warm.prepare(HOSTS), { signed: 0, loaded: 2 });
  const github = warm.get('API.GitHub.com')!;
  const slack = warm.get('slack.com')!;
  t.is(github.keyPem, slack.keyPem);
  t.is(github.certPem, readFileSync(join(dir, 'leaves', ca.fingerprint.slice(0, 32), 'api.github.com.pem'), 'utf8'));
  t.is(warm.get('example.com'), undefined);
  t.throws(() => warm.prepare(['example.com']), { code: 'TB_ERR_CERTS', message: /does not permit example\.com/ } as never);
});

test('serial numbers come from a hash of the host (and validity start), positive and distinct per host', (t) => {
  const day = new Date('2026-01-01T00:00:00Z');
  t.is(leafSerial('api.github.com', day), leafSerial('api.github.com', day));
  t.not(leafSerial('api.github.com', day), leafSerial('slack.com', day));
  t.not(leafSerial('api.github.com', day), leafSerial('api.github.com', new Date('2026-01-02T00:00:00Z')));
  t.regex(leafSerial('api.github.com', day), /^[4-7][0-9a-f]{31}$/);
  const leaves = LeafCache.open(loadCa(dir));
  leaves.prepare(['api.github.com']);
  const cert = forge.pki.certificateFromPem(leaves.get('api.github.com')!.certPem);
  t.is(cert.serialNumber, leafSerial('api.github.com', cert.validity.notBefore));
});

test('a leaf is renewed when it nears expiry; one signed for another leaf key is replaced', (t) => {
  const own = temp();
  const { ca } = openCertificates(own, HOSTS, { keyBits: 1024 });
  const later = new Date(Date.now() + 380 * 24 * 3600 * 1000);
  t.deepEqual(LeafCache.open(ca).prepare(['slack.com'], later), { signed: 1, loaded: 0 });
  t.deepEqual(LeafCache.open(ca).prepare(['slack.com'], later), { signed: 0, loaded: 1 });
  writeAtomic(join(own, 'leaf-key.pem'), generateRsaKeyPem(1024), 0o600);
  t.deepEqual(LeafCache.open(ca).prepare(HOSTS, later), { signed: 2, loaded: 0 });
});

test('an existing CA that does not cover a catalog host is an error, not silently replaced', (t) => {
  const error = t.throws(() => ensureCa(dir, [...HOSTS, 'api.stripe.com']), { code: 'TB_ERR_CERTS' } as never);
  t.regex(error!.message, /does not permit api\.stripe\.com.*certs init --dir .* --force/);
  const fingerprint = loadCa(dir).fingerprint;
  t.is(ensureCa(dir, HOSTS).created, false);
  t.is(loadCa(dir).fingerprint, fingerprint);
});

test('openCertificates checks every host now and reads or signs a leaf only on its first use', (t) => {
  const own = temp();
  const { ca, leaves } = openCertificates(own, HOSTS, { keyBits: 1024 });
  const leafDir = join(own, 'leaves', ca.fingerprint.slice(0, 32));
  t.false(existsSync(join(leafDir, 'slack.com.pem')));
  const slack = leaves.get('Slack.com')!;
  t.is(slack.certPem, readFileSync(join(leafDir, 'slack.com.pem'), 'utf8'));
  t.false(existsSync(join(leafDir, 'api.github.com.pem')));
  t.is(leaves.get('example.com'), undefined);
  t.throws(() => openCertificates(own, [...HOSTS, 'example.com']), { code: 'TB_ERR_CERTS', message: /does not permit example\.com/ } as never);
});

test('loading a CA refuses a key of another CA and a certificate without Name Constraints, naming the fix', async (t) => {
  const other = temp();
  createCa(other, HOSTS, { keyBits: 1024 });
  writeAtomic(join(other, 'ca-key.pem'), generateRsaKeyPem(1024), 0o600);
  t.throws(() => loadCa(other), { code: 'TB_ERR_CERTS', message: /do not belong together.*--force/ } as never);

  // An unconstrained CA made by openssl (not by toolbench).
  const plain = temp();
  mkdirSync(plain, { recursive: true });
  const made = await run('openssl', ['req', '-x509', '-newkey', 'rsa:1024', '-nodes', '-subj', '/CN=plain', '-days', '2',
    '-keyout', join(plain, 'ca-key.pem'), '-out', join(plain, 'ca.pem')]);
  t.is(made.code, 0, made.stderr);
  chmodSync(join(plain, 'ca-key.pem'), 0o600);
  t.throws(() => loadCa(plain), { code: 'TB_ERR_CERTS', message: /has no Name Constraints/ } as never);

  writeFileSync(join(plain, 'ca.pem'), '-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----\n');
  t.throws(() => loadCa(plain), { code: 'TB_ERR_CERTS', message: /cannot be read/ } as never);
});

test("Name Constraints read natively agree with node-forge's parse; a leaf has none", (t) => {
  const ca = loadCa(dir);
  const cert = forge.pki.certificateFromPem(ca.certPem);
  const extension = cert.extensions.find((e: { id?: string }) => e.id === '2.5.29.30') as { value: string };
  const permitted = forge.asn1.fromDer(extension.value).value[0] as forge.asn1.Asn1;
  const names = (permitted.value as forge.asn1.Asn1[]).map((subtree) => ((subtree.value as forge.asn1.Asn1[])[0]!.value as string));
  t.deepEqual(ca.permitted, names);
  const leaves = LeafCache.open(ca);
  leaves.prepare(['slack.com']);
  t.is(permittedDnsNames(new X509Certificate(leaves.get('slack.com')!.certPem).raw), null);
});
