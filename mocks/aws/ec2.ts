import { action, type Operation } from '../kit/operation.js';
import { params } from './iam.js';
import { accountOf, awsError, ec2Response, el, isoMs, wrap, type AwsCtx, type IngressRule, type InstanceDoc, type IpRange, type SecurityGroupDoc } from './model.js';

/**
 * Amazon EC2 (its query dialect, 2016-11-15): instances with filters, start and stop, security
 * groups and their ingress rules. State changes settle at once (a started instance is `running`
 * on the next describe), since the world has no background time.
 */

const STATE_CODE: Record<string, number> = { 'pending': 0, 'running': 16, 'shutting-down': 32, 'terminated': 48, 'stopping': 64, 'stopped': 80 };

/** `Name.1`, `Name.2`, … in order. */
function list(p: URLSearchParams, prefix: string): string[] {
  const out: string[] = [];
  for (let i = 1; p.has(`${prefix}.${i}`); i++) out.push(p.get(`${prefix}.${i}`)!);
  return out;
}

function filters(p: URLSearchParams): { name: string; values: string[] }[] {
  const out: { name: string; values: string[] }[] = [];
  for (let i = 1; p.has(`Filter.${i}.Name`); i++) out.push({ name: p.get(`Filter.${i}.Name`)!, values: list(p, `Filter.${i}.Value`) });
  return out;
}

/** EC2's filter values take `*` and `?` wildcards. */
function like(value: string | null | undefined, patterns: string[]): boolean {
  if (value === undefined || value === null) return false;
  return patterns.some((pattern) => new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`).test(value));
}

function instanceField(i: InstanceDoc, name: string): string | string[] | null | undefined {
  if (name.startsWith('tag:')) return i.tags[name.slice(4)];
  switch (name) {
    case 'instance-id': return i.id;
    case 'instance-state-name': return i.state;
    case 'instance-type': return i.type;
    case 'vpc-id': return i.vpc_id;
    case 'subnet-id': return i.subnet_id;
    case 'image-id': return i.image_id;
    case 'availability-zone': return i.az;
    case 'private-ip-address': return i.private_ip;
    case 'ip-address': return i.public_ip;
    case 'key-name': return i.key_name;
    case 'tag-key': return Object.keys(i.tags);
    case 'instance.group-id': return i.security_groups;
    default: throw awsError(400, 'InvalidParameterValue', `The filter '${name}' is invalid`);
  }
}

const tagSet = (tags: Record<string, string>) => wrap('tagSet', Object.entries(tags).map(([k, v]) => wrap('item', `${el('key', k)}${el('value', v)}`)).join(''));
const stateXml = (name: string, state: string) => wrap(name, `${el('code', STATE_CODE[state])}${el('name', state)}`);

function instanceXml(c: AwsCtx, i: InstanceDoc): string {
  const groups = wrap('groupSet', i.security_groups.map((id) => wrap('item', `${el('groupId', id)}${el('groupName', c.db.security_groups.get(id)?.name ?? id)}`)).join(''));
  return wrap('item', `${el('instanceId', i.id)}${el('imageId', i.image_id)}${stateXml('instanceState', i.state)}${el('privateDnsName', `ip-${i.private_ip.replace(/\./g, '-')}.ec2.internal`)}`
    + `${el('dnsName', i.public_ip ? `ec2-${i.public_ip.replace(/\./g, '-')}.compute-1.amazonaws.com` : '')}${i.key_name ? el('keyName', i.key_name) : ''}${el('amiLaunchIndex', 0)}`
    + `${el('instanceType', i.type)}${el('launchTime', isoMs(i.launched))}${wrap('placement', `${el('availabilityZone', i.az)}${el('tenancy', 'default')}`)}`
    + `${wrap('monitoring', el('state', 'disabled'))}${el('subnetId', i.subnet_id)}${el('vpcId', i.vpc_id)}${el('privateIpAddress', i.private_ip)}${i.public_ip ? el('ipAddress', i.public_ip) : ''}`
    + `${groups}${el('architecture', 'x86_64')}${el('rootDeviceType', 'ebs')}${el('rootDeviceName', '/dev/xvda')}${el('virtualizationType', 'hvm')}${tagSet(i.tags)}`);
}

function ec2Op(name: string, handle: (p: URLSearchParams, c: AwsCtx) => string): Operation<AwsCtx> {
  return { name: `ec2.${name}`, matcher: action(name, '/_ec2/'), handle: (call, c: AwsCtx) => ec2Response(c, name, handle(params(call.req), c)) };
}

function instancesOf(c: AwsCtx, ids: string[]): InstanceDoc[] {
  const missing = ids.filter((id) => !c.db.instances.has(id));
  if (missing.length > 0) {
    const malformed = missing.find((id) => !/^i-[0-9a-f]{8,17}$/.test(id));
    if (malformed) throw awsError(400, 'InvalidInstanceID.Malformed', `Invalid id: "${malformed}"`);
    throw awsError(400, 'InvalidInstanceID.NotFound', `The instance ID${missing.length > 1 ? 's' : ''} '${missing.join(', ')}' ${missing.length > 1 ? 'do' : 'does'} not exist`);
  }
  return ids.map((id) => c.db.instances.get(id)!);
}

function transition(c: AwsCtx, p: URLSearchParams, to: 'running' | 'stopped', shown: string): string {
  const items = instancesOf(c, list(p, 'InstanceId')).map((i) => {
    const previous = i.state;
    if (to === 'running' && previous === 'terminated') throw awsError(400, 'IncorrectInstanceState', `The instance '${i.id}' is not in a state from which it can be started.`);
    if (p.get('DryRun') !== 'true') c.db.instances.put(i.id, { ...i, state: to });
    const current = previous === to ? to : shown;
    return wrap('item', `${el('instanceId', i.id)}${stateXml('currentState', current)}${stateXml('previousState', previous)}`);
  });
  if (p.get('DryRun') === 'true') throw awsError(412, 'DryRunOperation', 'Request would have succeeded, but DryRun flag is set.');
  return wrap('instancesSet', items.join(''));
}

function permissions(p: URLSearchParams): IngressRule[] {
  const out: IngressRule[] = [];
  for (let i = 1; p.has(`IpPermissions.${i}.IpProtocol`); i++) {
    const ranges: IpRange[] = [];
    for (let j = 1; p.has(`IpPermissions.${i}.IpRanges.${j}.CidrIp`); j++) {
      const description = p.get(`IpPermissions.${i}.IpRanges.${j}.Description`);
      ranges.push({ cidr: p.get(`IpPermissions.${i}.IpRanges.${j}.CidrIp`)!, ...(description ? { description } : {}) });
    }
    const from = p.get(`IpPermissions.${i}.FromPort`);
    const to = p.get(`IpPermissions.${i}.ToPort`);
    out.push({ protocol: p.get(`IpPermissions.${i}.IpProtocol`)!, ...(from === null ? {} : { from_port: Number(from) }), ...(to === null ? {} : { to_port: Number(to) }), ranges });
  }
  // The flat form (IpProtocol, FromPort, ToPort, CidrIp at the top level).
  if (out.length === 0 && p.has('IpProtocol')) {
    out.push({ protocol: p.get('IpProtocol')!, ...(p.has('FromPort') ? { from_port: Number(p.get('FromPort')) } : {}), ...(p.has('ToPort') ? { to_port: Number(p.get('ToPort')) } : {}), ranges: p.has('CidrIp') ? [{ cidr: p.get('CidrIp')! }] : [] });
  }
  if (out.length === 0) throw awsError(400, 'MissingParameter', 'The request must contain the parameter ipPermissions');
  return out;
}

const sameRule = (a: IngressRule, b: IngressRule) => a.protocol === b.protocol && a.from_port === b.from_port && a.to_port === b.to_port;

function groupOf(c: AwsCtx, p: URLSearchParams): SecurityGroupDoc {
  const id = p.get('GroupId');
  const name = p.get('GroupName');
  const group = id !== null ? c.db.security_groups.get(id) : c.db.security_groups.find((g) => g.name === name);
  if (!group) throw awsError(400, 'InvalidGroup.NotFound', `The security group '${id ?? name ?? ''}' does not exist`);
  return group;
}

function groupXml(c: AwsCtx, g: SecurityGroupDoc): string {
  const rules = g.ingress.map((r) => wrap('item', `${el('ipProtocol', r.protocol)}${r.from_port === undefined ? '' : el('fromPort', r.from_port)}${r.to_port === undefined ? '' : el('toPort', r.to_port)}`
    + `${wrap('groups', '')}${wrap('ipRanges', r.ranges.map((range) => wrap('item', `${el('cidrIp', range.cidr)}${range.description ? el('description', range.description) : ''}`)).join(''))}${wrap('ipv6Ranges', '')}${wrap('prefixListIds', '')}`)).join('');
  const egress = wrap('item', `${el('ipProtocol', '-1')}${wrap('groups', '')}${wrap('ipRanges', wrap('item', el('cidrIp', '0.0.0.0/0')))}`);
  return wrap('item', `${el('ownerId', accountOf(c.db).account_id)}${el('groupId', g.id)}${el('groupName', g.name)}${el('groupDescription', g.description)}${el('vpcId', g.vpc_id)}`
    + `${wrap('ipPermissions', rules)}${wrap('ipPermissionsEgress', egress)}${tagSet(g.tags)}`);
}

export const ec2Operations: Operation<AwsCtx>[] = [
  ec2Op('DescribeInstances', (p, c) => {
    const ids = list(p, 'InstanceId');
    let found = ids.length > 0 ? instancesOf(c, ids) : c.db.instances.values();
    for (const f of filters(p)) {
      found = found.filter((i) => {
        const value = instanceField(i, f.name);
        return Array.isArray(value) ? value.some((v) => like(v, f.values)) : like(value, f.values);
      });
    }
    const max = Number(p.get('MaxResults') ?? 1000) || 1000;
    const start = Number(p.get('NextToken') ?? 0) || 0;
    const slice = found.slice(start, start + max);
    const reservations = new Map<string, InstanceDoc[]>();
    for (const i of slice) reservations.set(i.reservation_id, [...(reservations.get(i.reservation_id) ?? []), i]);
    const items = [...reservations].map(([rid, instances]) => wrap('item', `${el('reservationId', rid)}${el('ownerId', accountOf(c.db).account_id)}${wrap('groupSet', '')}${wrap('instancesSet', instances.map((i) => instanceXml(c, i)).join(''))}`)).join('');
    return `${wrap('reservationSet', items)}${start + max < found.length ? el('nextToken', String(start + max)) : ''}`;
  }),
  ec2Op('StartInstances', (p, c) => transition(c, p, 'running', 'pending')),
  ec2Op('StopInstances', (p, c) => transition(c, p, 'stopped', 'stopping')),
  ec2Op('DescribeSecurityGroups', (p, c) => {
    const ids = list(p, 'GroupId');
    const names = list(p, 'GroupName');
    let found = c.db.security_groups.values();
    if (ids.length > 0) {
      const missing = ids.find((id) => !c.db.security_groups.has(id));
      if (missing) throw awsError(400, 'InvalidGroup.NotFound', `The security group '${missing}' does not exist`);
      found = found.filter((g) => ids.includes(g.id));
    }
    if (names.length > 0) found = found.filter((g) => names.includes(g.name));
    for (const f of filters(p)) {
      found = found.filter((g) => {
        if (f.name.startsWith('tag:')) return like(g.tags[f.name.slice(4)], f.values);
        if (f.name === 'group-name') return like(g.name, f.values);
        if (f.name === 'group-id') return like(g.id, f.values);
        if (f.name === 'vpc-id') return like(g.vpc_id, f.values);
        if (f.name === 'ip-permission.from-port') return g.ingress.some((r) => like(String(r.from_port), f.values));
        if (f.name === 'ip-permission.cidr') return g.ingress.some((r) => r.ranges.some((range) => like(range.cidr, f.values)));
        throw awsError(400, 'InvalidParameterValue', `The filter '${f.name}' is invalid`);
      });
    }
    return wrap('securityGroupInfo', found.map((g) => groupXml(c, g)).join(''));
  }),
  ec2Op('AuthorizeSecurityGroupIngress', (p, c) => {
    const group = groupOf(c, p);
    const ingress = [...group.ingress];
    const added: string[] = [];
    for (const rule of permissions(p)) {
      const existing = ingress.findIndex((r) => sameRule(r, rule));
      const have = existing === -1 ? [] : ingress[existing]!.ranges.map((range) => range.cidr);
      const dup = rule.ranges.find((range) => have.includes(range.cidr));
      if (dup) throw awsError(400, 'InvalidPermission.Duplicate', `the specified rule "peer: ${dup.cidr}, ${rule.protocol.toUpperCase()}, from port: ${rule.from_port}, to port: ${rule.to_port}, ALLOW" already exists`);
      if (existing === -1) ingress.push(rule);
      else ingress[existing] = { ...ingress[existing]!, ranges: [...ingress[existing]!.ranges, ...rule.ranges] };
      for (const range of rule.ranges) added.push(wrap('item', `${el('securityGroupRuleId', `sgr-${c.ctx.ids.opaque('sgr', `${group.id}/${rule.protocol}/${rule.from_port}/${range.cidr}`, 17)}`)}${el('groupId', group.id)}${el('groupOwnerId', accountOf(c.db).account_id)}${el('isEgress', false)}${el('ipProtocol', rule.protocol)}${el('fromPort', rule.from_port)}${el('toPort', rule.to_port)}${el('cidrIpv4', range.cidr)}${range.description ? el('description', range.description) : ''}`));
    }
    c.db.security_groups.put(group.id, { ...group, ingress });
    return `${el('return', true)}${wrap('securityGroupRuleSet', added.join(''))}`;
  }),
  ec2Op('RevokeSecurityGroupIngress', (p, c) => {
    const group = groupOf(c, p);
    let ingress = [...group.ingress];
    for (const rule of permissions(p)) {
      const cidrs = rule.ranges.map((range) => range.cidr);
      const existing = ingress.findIndex((r) => sameRule(r, rule) && cidrs.every((cidr) => r.ranges.some((range) => range.cidr === cidr)));
      if (existing === -1) throw awsError(400, 'InvalidPermission.NotFound', 'The specified rule does not exist in this security group.');
      const left = ingress[existing]!.ranges.filter((range) => !cidrs.includes(range.cidr));
      ingress = left.length === 0 ? ingress.filter((_r, i) => i !== existing) : ingress.map((r, i) => (i === existing ? { ...r, ranges: left } : r));
    }
    c.db.security_groups.put(group.id, { ...group, ingress });
    return el('return', true);
  }),
];
