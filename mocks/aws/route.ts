import { ServiceRequest } from '../core/http.js';
import { parseAuthorization } from './sigv4.js';
import type { Target } from './model.js';

/**
 * Which AWS service a request addresses, from its host as the SDKs build it:
 * `{bucket}.s3.{region}.amazonaws.com` (S3 virtual-host style), `{service}.{region}.amazonaws.com`
 * (S3 path style, EC2, Lambda, Logs, DynamoDB, regional STS), and the global `iam.amazonaws.com`,
 * `sts.amazonaws.com`, `s3.amazonaws.com`. A host that names none (a test talking to the plain
 * port) falls back to the service of the signature's credential scope.
 */
export function targetOf(req: ServiceRequest): Target {
  const host = (req.header('host') ?? '').toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
  let m = /^([a-z0-9][a-z0-9-]*)\.s3\.([a-z0-9-]+)\.amazonaws\.com$/.exec(host);
  if (m) return { service: 's3', region: m[2]!, bucket: m[1]! };
  m = /^(iam|sts|s3)\.amazonaws\.com$/.exec(host);
  if (m) return { service: m[1]!, region: 'us-east-1', bucket: null };
  m = /^([a-z0-9-]+)\.([a-z0-9-]+)\.amazonaws\.com$/.exec(host);
  if (m) {
    // `{bucket}.s3.amazonaws.com`: the legacy global virtual-host form.
    if (m[2] === 's3') return { service: 's3', region: 'us-east-1', bucket: m[1]! };
    return { service: m[1]!, region: m[2]!, bucket: null };
  }
  const scope = parseAuthorization(req.header('authorization') ?? '');
  return { service: scope?.service ?? 'unknown', region: scope?.region ?? 'us-east-1', bucket: null };
}

/** S3's subresources that pick the bucket- or object-level operation (`?policy`, `?acl`, …). */
const BUCKET_SUBRESOURCES = ['policy', 'publicAccessBlock', 'acl', 'tagging', 'location'] as const;

/**
 * Every AWS service shares paths (`POST /` for EC2, IAM, STS, Logs and DynamoDB; `GET /` for S3's
 * ListBuckets), so the mock rewrites each request into a namespace of its service before matching:
 * `/_ec2/`, `/_lambda/2015-03-31/functions/…`, and for S3, whose operations differ only by
 * subresource, `/_s3/b/<sub>/<bucket>` and `/_s3/o/<sub>/<bucket>/<key>` (`-` for none; the
 * bucket from the host or the path's first segment). Query and body are kept.
 */
export function rewrite(req: ServiceRequest): ServiceRequest {
  const target = targetOf(req);
  const q = req.target.indexOf('?');
  const query = q === -1 ? '' : req.target.slice(q);
  if (target.service !== 's3') return new ServiceRequest(req.method, `/_${target.service}${req.path}${query}`, req.headers, req.body);
  let bucket = target.bucket;
  let key = req.path.slice(1);
  if (bucket === null) {
    const slash = key.indexOf('/');
    bucket = slash === -1 ? key : key.slice(0, slash);
    key = slash === -1 ? '' : key.slice(slash + 1);
  }
  if (bucket === '') return new ServiceRequest(req.method, `/_s3${query}`, req.headers, req.body);
  if (key === '') {
    const sub = BUCKET_SUBRESOURCES.find((name) => req.query.has(name)) ?? (req.query.get('list-type') === '2' ? 'list-v2' : '-');
    return new ServiceRequest(req.method, `/_s3/b/${sub}/${bucket}${query}`, req.headers, req.body);
  }
  const sub = req.query.has('tagging') ? 'tagging' : '-';
  return new ServiceRequest(req.method, `/_s3/o/${sub}/${bucket}/${key}${query}`, req.headers, req.body);
}
