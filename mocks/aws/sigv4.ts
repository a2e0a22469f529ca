import { createHash, createHmac } from 'node:crypto';
import type { ServiceRequest } from '../core/http.js';

/**
 * AWS Signature Version 4, checked as AWS checks it: the canonical request rebuilt from the bytes
 * the client sent (method, path, sorted query, the signed headers, the payload hash), the string to
 * sign over the credential scope, the signing key derived from the secret of the access key the
 * scenario's credential table names. What is deliberately not checked: the distance between
 * `X-Amz-Date` and the world's logical clock (AWS's `RequestTimeTooSkewed`). The SDK signs with
 * its own wall clock while the world runs on logical time, and a journal replayed a year later
 * re-sends the same dated signature; the signature still covers the date, so tampering with it
 * fails (docs/aws-mock.md, "Signatures").
 */

export interface ParsedAuthorization {
  keyId: string;
  date: string;
  region: string;
  service: string;
  signedHeaders: string[];
  signature: string;
}

const AUTH = /^AWS4-HMAC-SHA256\s+Credential=([^/,\s]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request,\s*SignedHeaders=([^,\s]+),\s*Signature=([0-9a-f]{64})\s*$/;

export function parseAuthorization(value: string): ParsedAuthorization | null {
  const m = AUTH.exec(value);
  if (!m) return null;
  return { keyId: m[1]!, date: m[2]!, region: m[3]!, service: m[4]!, signedHeaders: m[5]!.split(';'), signature: m[6]! };
}

/** RFC 3986 encoding as the SDKs do it (`encodeURIComponent` plus `!'()*`). */
export function uriEscape(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

const sha256 = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string): Buffer => createHmac('sha256', key).update(data).digest();

/** The canonical request of `req` for the headers `signed`; `s3` keeps the path as sent (S3 does not double-encode). */
export function canonicalRequest(req: ServiceRequest, signed: readonly string[], s3: boolean): string {
  const q = req.target.indexOf('?');
  const rawPath = q === -1 ? req.target : req.target.slice(0, q);
  const rawQuery = q === -1 ? '' : req.target.slice(q + 1);
  const path = s3 ? rawPath : rawPath.split('/').map((segment) => uriEscape(segment)).join('/');
  const pairs = rawQuery === '' ? [] : rawQuery.split('&').filter((p) => p !== '').map((pair) => {
    const eq = pair.indexOf('=');
    const key = safeDecode(eq === -1 ? pair : pair.slice(0, eq));
    const value = eq === -1 ? '' : safeDecode(pair.slice(eq + 1));
    return [uriEscape(key), uriEscape(value)] as const;
  }).filter(([key]) => key !== 'X-Amz-Signature');
  pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  const query = pairs.map(([k, v]) => `${k}=${v}`).join('&');
  const headers = signed.map((name) => {
    const values = req.headers.filter(([key]) => key.toLowerCase() === name).map(([, value]) => value.trim().replace(/\s+/g, ' '));
    return `${name}:${values.join(',')}\n`;
  }).join('');
  const payload = req.header('x-amz-content-sha256') ?? sha256(req.body);
  return `${req.method}\n${path}\n${query}\n${headers}\n${signed.join(';')}\n${payload}`;
}

/** The signature `secret` gives `req` under the parsed Authorization's scope. */
export function expectedSignature(req: ServiceRequest, auth: ParsedAuthorization, secret: string): string {
  const amzDate = req.header('x-amz-date') ?? '';
  const scope = `${auth.date}/${auth.region}/${auth.service}/aws4_request`;
  const stringToSign = `AWS4-HMAC-SHA256\n${amzDate}\n${scope}\n${sha256(canonicalRequest(req, auth.signedHeaders, auth.service === 's3'))}`;
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, auth.date), auth.region), auth.service), 'aws4_request');
  return createHmac('sha256', key).update(stringToSign).digest('hex');
}

/**
 * Signs a request the way the SDKs do (used by tests and the conformance sequence, never by the
 * mock's handlers): adds `X-Amz-Date`, `X-Amz-Content-Sha256` for S3, and `Authorization`.
 */
export function signRequest(input: { method: string; target: string; headers: [string, string][]; body: Uint8Array; keyId: string; secret: string; region: string; service: string; amzDate: string }): [string, string][] {
  const headers: [string, string][] = [...input.headers, ['X-Amz-Date', input.amzDate]];
  if (input.service === 's3') headers.push(['X-Amz-Content-Sha256', sha256(input.body)]);
  const signed = [...new Set(headers.map(([name]) => name.toLowerCase()))].sort();
  const date = input.amzDate.slice(0, 8);
  const auth: ParsedAuthorization = { keyId: input.keyId, date, region: input.region, service: input.service, signedHeaders: signed, signature: '' };
  const req = { method: input.method, target: input.target, headers, body: input.body, header: (name: string) => headers.find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1] } as unknown as ServiceRequest;
  const signature = expectedSignature(req, auth, input.secret);
  return [...headers, ['Authorization', `AWS4-HMAC-SHA256 Credential=${input.keyId}/${date}/${input.region}/${input.service}/aws4_request, SignedHeaders=${signed.join(';')}, Signature=${signature}`]];
}
