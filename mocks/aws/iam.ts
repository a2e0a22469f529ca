import type { ServiceRequest } from '../core/http.js';
import { action, type Operation } from '../kit/operation.js';
import { accountOf, awsError, el, isoSec, queryResponse, wrap, type AwsCtx, type PolicyRef, type RoleDoc, type UserDoc } from './model.js';

/** IAM (awsQuery, 2010-05-08) and STS (awsQuery, 2011-06-15): form-encoded `Action=` requests, XML answers. */

/** The query protocols' parameters: the form body, then the query string. */
export function params(req: ServiceRequest): URLSearchParams {
  const out = new URLSearchParams(req.query);
  if ((req.header('content-type') ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded')) {
    for (const [k, v] of new URLSearchParams(req.text())) out.append(k, v);
  }
  return out;
}

function queryOp(service: 'iam' | 'sts', name: string, handle: (p: URLSearchParams, c: AwsCtx) => string | null): Operation<AwsCtx> {
  return { name: `${service}.${name}`, matcher: action(name, `/_${service}/`), handle: (call, c: AwsCtx) => queryResponse(c, name, handle(params(call.req), c)) };
}

/** IAM's `MaxItems`/`Marker` pages over a sorted list: the marker is the next item's index. */
function page<T>(items: T[], p: URLSearchParams): { items: T[]; tail: string } {
  const max = Math.max(1, Math.min(1000, Number(p.get('MaxItems') ?? 100) || 100));
  const start = Number(p.get('Marker') ?? 0) || 0;
  const slice = items.slice(start, start + max);
  const more = start + max < items.length;
  return { items: slice, tail: `${el('IsTruncated', more)}${more ? el('Marker', String(start + max)) : ''}` };
}

const userXml = (u: UserDoc) => `${el('Path', u.path)}${el('UserName', u.name)}${el('UserId', u.id)}${el('Arn', u.arn)}${el('CreateDate', isoSec(u.created))}${u.password_last_used ? el('PasswordLastUsed', isoSec(u.password_last_used)) : ''}`;
const roleXml = (r: RoleDoc) => `${el('Path', r.path)}${el('RoleName', r.name)}${el('RoleId', r.id)}${el('Arn', r.arn)}${el('CreateDate', isoSec(r.created))}${el('AssumeRolePolicyDocument', encodeURIComponent(JSON.stringify(r.assume_role_policy)))}${r.description ? el('Description', r.description) : ''}${el('MaxSessionDuration', r.max_session_duration)}`;
const policiesXml = (list: PolicyRef[]) => wrap('AttachedPolicies', list.map((p) => wrap('member', `${el('PolicyName', p.name)}${el('PolicyArn', p.arn)}`)).join(''));

function roleOf(c: AwsCtx, name: string | null): RoleDoc {
  const role = name === null ? undefined : c.db.roles.get(name);
  if (!role) throw awsError(404, 'NoSuchEntity', `The role with name ${name ?? ''} cannot be found.`);
  return role;
}
function userOf(c: AwsCtx, name: string | null): UserDoc {
  const user = name === null ? undefined : c.db.users.get(name);
  if (!user) throw awsError(404, 'NoSuchEntity', `The user with name ${name ?? ''} cannot be found.`);
  return user;
}
const byPrefix = <T extends { path: string; name: string }>(list: T[], p: URLSearchParams) => list.filter((x) => x.path.startsWith(p.get('PathPrefix') ?? '/')).sort((a, b) => a.name.localeCompare(b.name));

export const iamOperations: Operation<AwsCtx>[] = [
  queryOp('iam', 'ListUsers', (p, c) => {
    const { items, tail } = page(byPrefix(c.db.users.values(), p), p);
    return `${wrap('Users', items.map((u) => wrap('member', userXml(u))).join(''))}${tail}`;
  }),
  queryOp('iam', 'GetUser', (p, c) => {
    const name = p.get('UserName');
    const user = name === null ? c.db.users.get(c.auth.kind === 'ok' ? c.auth.credential.user : '') : userOf(c, name);
    if (!user) throw awsError(404, 'NoSuchEntity', 'The user cannot be found.');
    return wrap('User', userXml(user));
  }),
  queryOp('iam', 'ListRoles', (p, c) => {
    const { items, tail } = page(byPrefix(c.db.roles.values(), p), p);
    return `${wrap('Roles', items.map((r) => wrap('member', roleXml(r))).join(''))}${tail}`;
  }),
  queryOp('iam', 'GetRole', (p, c) => wrap('Role', roleXml(roleOf(c, p.get('RoleName'))))),
  queryOp('iam', 'ListAttachedRolePolicies', (p, c) => {
    const { items, tail } = page(roleOf(c, p.get('RoleName')).attached_policies, p);
    return `${policiesXml(items)}${tail}`;
  }),
  queryOp('iam', 'ListAttachedUserPolicies', (p, c) => {
    const { items, tail } = page(userOf(c, p.get('UserName')).attached_policies, p);
    return `${policiesXml(items)}${tail}`;
  }),
  queryOp('iam', 'DetachRolePolicy', (p, c) => {
    const role = roleOf(c, p.get('RoleName'));
    const arn = p.get('PolicyArn') ?? '';
    if (!role.attached_policies.some((x) => x.arn === arn)) throw awsError(404, 'NoSuchEntity', `Policy ${arn} was not found.`);
    c.db.roles.put(role.name, { ...role, attached_policies: role.attached_policies.filter((x) => x.arn !== arn) });
    return null;
  }),
  queryOp('sts', 'GetCallerIdentity', (_p, c) => {
    if (c.auth.kind !== 'ok') throw awsError(403, 'InvalidClientTokenId', 'The security token included in the request is invalid.');
    const user = c.db.users.get(c.auth.credential.user);
    const account = accountOf(c.db).account_id;
    return `${el('Arn', user?.arn ?? `arn:aws:iam::${account}:user/${c.auth.credential.user}`)}${el('UserId', user?.id ?? c.auth.credential.access_key_id)}${el('Account', account)}`;
  }),
];
