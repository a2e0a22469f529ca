import { GraphQLError } from 'graphql';
import { jsonResponse } from '../core/http.js';
import { executeGraphQL, graphqlOperation, schemaFromSDL } from '../kit/graphql.js';
import type { Operation } from '../kit/operation.js';
import type { CfCtx } from './context.js';
import { iso, type InvocationDoc, type TrafficDoc } from './model.js';

/**
 * The GraphQL Analytics API (`POST /client/v4/graphql`): the part of its schema the pinned
 * server's tools query, daily zone traffic (`httpRequests1dGroups`) and Worker invocations
 * (`workersInvocationsAdaptive`), answered from the dataset. Answers are HTTP 200 with
 * `{data, errors}` (`errors: null` on success), as Cloudflare's GraphQL endpoint sends them.
 */

const SDL = `
scalar Date
scalar Time
scalar uint64
type Query { viewer: Viewer }
type Viewer {
  zones(filter: ZoneFilter_InputObject, limit: Int): [Zone!]!
  accounts(filter: AccountFilter_InputObject, limit: Int): [Account!]!
}
input ZoneFilter_InputObject { zoneTag: String, zoneTag_in: [String!] }
input AccountFilter_InputObject { accountTag: String, accountTag_in: [String!] }
type Zone {
  zoneTag: String!
  httpRequests1dGroups(limit: Int!, filter: ZoneHttpRequests1dGroupsFilter_InputObject, orderBy: [ZoneHttpRequests1dGroupsOrderBy!]): [ZoneHttpRequests1dGroups!]!
}
input ZoneHttpRequests1dGroupsFilter_InputObject { date: Date, date_geq: Date, date_leq: Date, date_gt: Date, date_lt: Date }
enum ZoneHttpRequests1dGroupsOrderBy { date_ASC date_DESC sum_requests_ASC sum_requests_DESC }
type ZoneHttpRequests1dGroups { dimensions: ZoneHttpRequests1dGroupsDimensions sum: ZoneHttpRequests1dGroupsSum uniq: ZoneHttpRequests1dGroupsUniq }
type ZoneHttpRequests1dGroupsDimensions { date: Date }
type ZoneHttpRequests1dGroupsSum { requests: uint64 bytes: uint64 threats: uint64 pageViews: uint64 cachedRequests: uint64 cachedBytes: uint64 }
type ZoneHttpRequests1dGroupsUniq { uniques: uint64 }
type Account {
  accountTag: String!
  workersInvocationsAdaptive(limit: Int!, filter: WorkersInvocationsAdaptiveFilter_InputObject, orderBy: [WorkersInvocationsAdaptiveOrderBy!]): [AccountWorkersInvocationsAdaptive!]!
}
input WorkersInvocationsAdaptiveFilter_InputObject {
  datetime_geq: Time, datetime_leq: Time, datetime_gt: Time, datetime_lt: Time, datetime: Time,
  scriptName: String, scriptName_in: [String!], status: String, status_in: [String!]
}
enum WorkersInvocationsAdaptiveOrderBy { datetime_ASC datetime_DESC sum_requests_ASC sum_requests_DESC sum_errors_ASC sum_errors_DESC }
type AccountWorkersInvocationsAdaptive { sum: WorkersSum quantiles: WorkersQuantiles dimensions: WorkersDimensions }
type WorkersSum { requests: uint64 errors: uint64 subrequests: uint64 }
type WorkersQuantiles { cpuTimeP50: Float cpuTimeP99: Float }
type WorkersDimensions { datetime: Time date: Date scriptName: String status: String }
`;

type Args = Record<string, unknown>;
type Filter = Record<string, unknown> | undefined;

const access = (what: string, tag: string) => new GraphQLError(`${what} '${tag}' does not exist or you do not have access to it`);

function dateWithin(value: string, f: Filter, key: string): boolean {
  if (!f) return true;
  const eq = f[key] as string | undefined;
  const geq = f[`${key}_geq`] as string | undefined;
  const leq = f[`${key}_leq`] as string | undefined;
  const gt = f[`${key}_gt`] as string | undefined;
  const lt = f[`${key}_lt`] as string | undefined;
  const at = Date.parse(value);
  const ms = (s: string) => Date.parse(s);
  return (eq === undefined || at === ms(eq)) && (geq === undefined || at >= ms(geq)) && (leq === undefined || at <= ms(leq))
    && (gt === undefined || at > ms(gt)) && (lt === undefined || at < ms(lt));
}

function zoneGroups(rows: TrafficDoc[], args: Args) {
  const filter = args.filter as Filter;
  const order = (args.orderBy as string[] | undefined)?.[0] ?? 'date_ASC';
  const sorted = rows.filter((r) => dateWithin(r.date, filter, 'date')).sort((a, b) => {
    const d = order.startsWith('sum_requests') ? a.requests - b.requests : a.date < b.date ? -1 : a.date > b.date ? 1 : 0;
    return order.endsWith('DESC') ? -d : d;
  });
  return sorted.slice(0, Number(args.limit)).map((r) => ({
    dimensions: { date: r.date },
    sum: { requests: r.requests, bytes: r.bytes, threats: r.threats, pageViews: r.pageViews, cachedRequests: Math.floor(r.requests * 0.42), cachedBytes: Math.floor(r.bytes * 0.55) },
    uniq: { uniques: r.uniques },
  }));
}

function invocationGroups(rows: InvocationDoc[], args: Args) {
  const f = args.filter as Filter;
  const order = (args.orderBy as string[] | undefined)?.[0] ?? 'datetime_ASC';
  const matches = rows.filter((r) => dateWithin(r.datetime, f, 'datetime')
    && (!f?.scriptName || r.script === f.scriptName) && (!f?.scriptName_in || (f.scriptName_in as string[]).includes(r.script))
    && (!f?.status || r.status === f.status) && (!f?.status_in || (f.status_in as string[]).includes(r.status)));
  const key = order.replace(/_(ASC|DESC)$/, '');
  const sorted = matches.sort((a, b) => {
    const d = key === 'sum_requests' ? a.requests - b.requests : key === 'sum_errors' ? a.errors - b.errors : a.datetime < b.datetime ? -1 : a.datetime > b.datetime ? 1 : 0;
    return order.endsWith('DESC') ? -d : d;
  });
  return sorted.slice(0, Number(args.limit)).map((r) => ({
    sum: { requests: r.requests, errors: r.errors, subrequests: r.subrequests },
    quantiles: { cpuTimeP50: r.cpuTimeP50, cpuTimeP99: r.cpuTimeP99 },
    dimensions: { datetime: r.datetime, date: r.datetime.slice(0, 10), scriptName: r.script, status: r.status },
  }));
}

function viewer(c: CfCtx) {
  const mine = c.auth.kind === 'ok' ? c.auth.accounts : [];
  return {
    zones: (args: Args) => {
      const f = (args.filter ?? {}) as { zoneTag?: string; zoneTag_in?: string[] };
      const tags = f.zoneTag ? [f.zoneTag] : f.zoneTag_in ?? [];
      return tags.map((tag) => {
        const zone = c.db.zones.get(tag);
        if (!zone || !mine.includes(zone.account_id)) throw access('zone', tag);
        return { zoneTag: tag, httpRequests1dGroups: (a: Args) => zoneGroups(c.db.zone_traffic.filter((t) => t.zone_id === tag), a) };
      });
    },
    accounts: (args: Args) => {
      const f = (args.filter ?? {}) as { accountTag?: string; accountTag_in?: string[] };
      const tags = f.accountTag ? [f.accountTag] : f.accountTag_in ?? [];
      return tags.map((tag) => {
        if (!c.db.accounts.get(tag) || !mine.includes(tag)) throw access('account', tag);
        return { accountTag: tag, workersInvocationsAdaptive: (a: Args) => invocationGroups(c.db.worker_invocations.filter((w) => w.account_id === tag), a) };
      });
    },
  };
}

export const analyticsOperations: Operation<CfCtx>[] = [
  graphqlOperation<CfCtx>('/client/v4/graphql', (call, c) => {
    if (call.decoded.kind !== 'graphql') return jsonResponse(200, { data: null, errors: [{ message: 'failed to parse the request body: a GraphQL request needs a "query"', extensions: { code: 'bad_request', timestamp: iso(c.ctx.nowMs) } }] });
    const outcome = executeGraphQL(schemaFromSDL(SDL), call.decoded.value, { contextValue: c, rootValue: { viewer: () => viewer(c) } });
    const stamp = iso(c.ctx.nowMs);
    const render = (errors: readonly GraphQLError[]) => errors.map((e) => ({
      message: e.message, ...(e.path ? { path: e.path } : {}), extensions: { code: 'bad_request', timestamp: stamp },
    }));
    if (outcome.kind !== 'executed') return jsonResponse(200, { data: null, errors: render(outcome.errors) });
    const { data, errors } = outcome.result;
    return jsonResponse(200, { data: data ?? null, errors: errors && errors.length > 0 ? render(errors) : null });
  }),
];
