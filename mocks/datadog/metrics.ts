import { ServiceError } from '../kit/index.js';
import type { SeriesRecord } from './dataset.js';

/**
 * GET /api/v1/query over the dataset's series: `[aggr:]metric{scope}[ by {tag,…}]`, with the
 * aggregators avg, sum, min and max across the series the scope selects. A series' value at a
 * point is deterministic (`values[(t / interval) mod n]`, or a covering spike), so the same query
 * answers the same points in every replay. Points are rolled up (averaged) so a query answers at
 * most 300 of them, as Datadog's own rollup does.
 */
const AGGREGATORS = { avg: (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length, sum: (v: number[]) => v.reduce((a, b) => a + b, 0), min: (v: number[]) => Math.min(...v), max: (v: number[]) => Math.max(...v) } as const;
type Aggregator = keyof typeof AGGREGATORS;

interface ParsedQuery { aggr: Aggregator; metric: string; scope: string[]; by: string[] }

function parseQuery(query: string): ParsedQuery {
  const m = /^\s*(?:(avg|sum|min|max):)?([\w.]+)\{([^}]*)\}(?:\s+by\s+\{([^}]*)\})?\s*$/.exec(query);
  if (!m) throw new ServiceError(400, 'bad_request', `Error parsing query: unable to parse ${query}: Rule 'scope_expr' didn't match`);
  const list = (text: string | undefined) => (text ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '' && s !== '*');
  return { aggr: (m[1] ?? 'avg') as Aggregator, metric: m[2]!, scope: list(m[3]), by: list(m[4]) };
}

function valueAt(series: SeriesRecord, tSec: number): number {
  for (const spike of series.spikes) {
    if (tSec * 1000 >= Date.parse(spike.from) && tSec * 1000 < Date.parse(spike.to)) return spike.value;
  }
  return series.values[Math.floor(tSec / series.interval) % series.values.length]!;
}

const round = (n: number) => Math.round(n * 1e6) / 1e6;

export function queryMetrics(all: readonly SeriesRecord[], query: string, fromSec: number, toSec: number): Record<string, unknown> {
  if (toSec <= fromSec) throw new ServiceError(400, 'bad_request', "The value provided for parameter 'to' is before 'from'");
  const q = parseQuery(query);
  const selected = all.filter((s) => s.metric === q.metric && q.scope.every((tag) => tag.startsWith('!') ? !s.tags.includes(tag.slice(1)) : s.tags.includes(tag)));
  const base = selected[0]?.interval ?? 60;
  const interval = Math.max(base, Math.ceil((toSec - fromSec) / 300 / base) * base);
  const groups = new Map<string, SeriesRecord[]>();
  for (const s of selected) {
    const key = q.by.map((tag) => s.tags.find((t) => t.startsWith(`${tag}:`)) ?? `${tag}:N/A`).join(',');
    groups.set(key, [...(groups.get(key) ?? []), s]);
  }
  const series = [...groups.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([key, members]) => {
    const pointlist: [number, number][] = [];
    for (let t = Math.ceil(fromSec / interval) * interval; t <= toSec; t += interval) {
      const perSeries = members.map((s) => {
        const samples: number[] = [];
        for (let u = t; u < t + interval; u += s.interval) samples.push(valueAt(s, u));
        return AGGREGATORS.avg(samples);
      });
      pointlist.push([t * 1000, round(AGGREGATORS[q.aggr](perSeries))]);
    }
    const tagSet = key === '' ? [] : key.split(',');
    const scope = [...q.scope, ...tagSet].join(',') || '*';
    return {
      metric: q.metric, display_name: q.metric, aggr: q.aggr, scope, tag_set: tagSet,
      expression: `${q.aggr}:${q.metric}{${scope}}`, pointlist, start: pointlist[0]?.[0] ?? fromSec * 1000,
      end: (pointlist.at(-1)?.[0] ?? toSec * 1000) + interval * 1000 - 1000, interval, length: pointlist.length,
      unit: null, query_index: 0,
    };
  });
  return {
    status: 'ok', res_type: 'time_series', resp_version: 1, query, message: '', error: '',
    from_date: fromSec * 1000, to_date: toSec * 1000, group_by: q.by, series,
  };
}
