/**
 * Dates as Elasticsearch reads them: `strict_date_optional_time||epoch_millis` values, and date
 * math in range queries (`now-7d/d`, `2025-03-01||+1M`), with `now` the world's logical time.
 */

/** Epoch milliseconds of a date value, or null when it does not parse. */
export function parseDate(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return Math.trunc(value);
  if (typeof value !== 'string') return null;
  if (/^-?\d+$/.test(value)) return Number(value);
  const m = /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:[T ](\d{2})(?::(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?)?)?)?(Z|[+-]\d{2}:?\d{2})?$/.exec(value);
  if (!m) return null;
  const [, y, mo = '01', d = '01', h = '00', mi = '00', s = '00', frac = '0', zone] = m;
  const ms = Number(frac.padEnd(3, '0').slice(0, 3));
  let t = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), ms);
  if (zone && zone !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    t -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
  }
  return Number.isNaN(t) ? null : t;
}

/** `2025-03-01T09:00:00.000Z`: how Elasticsearch prints a date it computed (`key_as_string`, `value_as_string`). */
export function formatDate(ms: number): string {
  return new Date(ms).toISOString();
}

const UNITS = new Set(['y', 'M', 'w', 'd', 'h', 'H', 'm', 's']);

/**
 * A date-math expression to epoch milliseconds. `roundUp` is how `lte`/`gt` round (`/d` to the
 * last millisecond of the day), as Elasticsearch does; null when it does not parse.
 */
export function dateMath(expression: unknown, nowMs: number, roundUp = false): number | null {
  if (typeof expression === 'number') return Math.trunc(expression);
  if (typeof expression !== 'string') return null;
  let anchor: number | null;
  let math: string;
  if (expression.startsWith('now')) {
    anchor = nowMs;
    math = expression.slice(3);
  } else {
    const split = expression.indexOf('||');
    anchor = parseDate(split === -1 ? expression : expression.slice(0, split));
    math = split === -1 ? '' : expression.slice(split + 2);
  }
  if (anchor === null) return null;
  let t = anchor;
  let i = 0;
  while (i < math.length) {
    const op = math[i]!;
    if (op === '/') {
      const unit = math[i + 1];
      if (!unit || !UNITS.has(unit)) return null;
      t = roundUp ? add(startOf(t, unit), 1, unit) - 1 : startOf(t, unit);
      i += 2;
      continue;
    }
    if (op !== '+' && op !== '-') return null;
    const m = /^(\d*)([yMwdhHms])/.exec(math.slice(i + 1));
    if (!m) return null;
    t = add(t, (op === '-' ? -1 : 1) * (m[1] === '' ? 1 : Number(m[1])), m[2]!);
    i += 1 + m[0].length;
  }
  return t;
}

function add(t: number, n: number, unit: string): number {
  const d = new Date(t);
  switch (unit) {
    case 'y': d.setUTCFullYear(d.getUTCFullYear() + n); return d.getTime();
    case 'M': d.setUTCMonth(d.getUTCMonth() + n); return d.getTime();
    case 'w': return t + n * 7 * 86_400_000;
    case 'd': return t + n * 86_400_000;
    case 'h': case 'H': return t + n * 3_600_000;
    case 'm': return t + n * 60_000;
    default: return t + n * 1000;
  }
}

/** The start of the calendar unit containing `t` (UTC; weeks start on Monday, as ISO's). */
export function startOf(t: number, unit: string): number {
  const d = new Date(t);
  switch (unit) {
    case 'y': return Date.UTC(d.getUTCFullYear(), 0, 1);
    case 'q': return Date.UTC(d.getUTCFullYear(), Math.floor(d.getUTCMonth() / 3) * 3, 1);
    case 'M': return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    case 'w': {
      const day = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
      return day - ((d.getUTCDay() + 6) % 7) * 86_400_000;
    }
    case 'd': return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
    case 'h': case 'H': return t - (t % 3_600_000 + 3_600_000) % 3_600_000;
    case 'm': return t - (t % 60_000 + 60_000) % 60_000;
    default: return t - (t % 1000 + 1000) % 1000;
  }
}

/** The next calendar bucket's start after `start` (`calendar_interval`). */
export function nextCalendar(start: number, unit: string): number {
  if (unit === 'q') return add(start, 3, 'M');
  return add(start, 1, unit);
}
