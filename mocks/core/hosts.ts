/**
 * Hostnames and host patterns: `api.github.com` names one host; `{site}.atlassian.net` and
 * `{bucket}.s3.{region}.amazonaws.com` name many, each `{name}` matching exactly one DNS label.
 * One table resolves a host to what answers it (and the placeholder values), for the world and
 * the proxy alike. A concrete host wins over a pattern; two patterns that could match the same
 * host are an error naming both.
 */

/** One DNS label: lower-case letters, digits and inner dashes. */
const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
const PLACEHOLDER = /^\{([a-z][a-z0-9_]*)\}$/;

type Part = { fixed: string } | { param: string };

export interface HostPattern {
  /** As written, e.g. `{site}.atlassian.net`. */
  text: string;
  parts: readonly Part[];
  /** The fixed labels after the last placeholder (`atlassian.net`); the whole name for a concrete host. */
  suffix: string;
  concrete: boolean;
}

export class HostPatternError extends Error {
  override name = 'HostPatternError';
}

export function isHostPattern(text: string): boolean {
  return text.includes('{');
}

/** Parses a hostname or host pattern; throws HostPatternError saying what is wrong. */
export function parseHostPattern(text: string): HostPattern {
  if (text.length === 0 || text.length > 253) throw new HostPatternError(`"${text}" must be 1 to 253 characters`);
  const labels = text.split('.');
  if (labels.length < 2) throw new HostPatternError(`"${text}" must have at least two labels, such as api.github.com`);
  const seen = new Set<string>();
  const parts = labels.map((label): Part => {
    const param = PLACEHOLDER.exec(label)?.[1];
    if (param !== undefined) {
      if (seen.has(param)) throw new HostPatternError(`"${text}" uses {${param}} twice`);
      seen.add(param);
      return { param };
    }
    if (!LABEL.test(label)) {
      throw new HostPatternError(`"${text}": label "${label}" must be a lower-case DNS label or a whole-label placeholder such as {site}`);
    }
    return { fixed: label };
  });
  const last = parts.findLastIndex((part) => 'param' in part);
  const suffixParts = parts.slice(last + 1) as { fixed: string }[];
  // A pattern may not end in a public suffix alone (`{x}.com`): the CA would then permit half the web.
  if (last !== -1 && suffixParts.length < 2) {
    throw new HostPatternError(`"${text}" must end in at least two fixed labels after its last placeholder (as in {site}.atlassian.net)`);
  }
  return { text, parts, suffix: suffixParts.map((part) => part.fixed).join('.'), concrete: last === -1 };
}

/** The placeholder values when `host` matches `pattern`, else null. `host` is lower case, without a trailing dot. */
export function matchHost(pattern: HostPattern, host: string): Record<string, string> | null {
  const labels = host.split('.');
  if (labels.length !== pattern.parts.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < labels.length; i++) {
    const part = pattern.parts[i]!;
    const label = labels[i]!;
    if ('fixed' in part) {
      if (part.fixed !== label) return null;
    } else {
      if (!LABEL.test(label)) return null;
      params[part.param] = label;
    }
  }
  return params;
}

/** Whether some host matches both patterns (same number of labels, fixed labels agree). */
export function patternsOverlap(a: HostPattern, b: HostPattern): boolean {
  if (a.parts.length !== b.parts.length) return false;
  return a.parts.every((part, i) => {
    const other = b.parts[i]!;
    return !('fixed' in part) || !('fixed' in other) || part.fixed === other.fixed;
  });
}

export interface HostEntry<T> {
  /** A hostname or pattern. */
  host: string;
  value: T;
}

export interface HostMatch<T> {
  value: T;
  /** The hostname or pattern that matched, as written. */
  entry: string;
  /** Placeholder values (`{site: "acme"}`); empty for a concrete host. */
  params: Record<string, string>;
}

/** A clash between two entries: the same concrete host twice, or two overlapping patterns. */
export interface HostClash {
  a: string;
  b: string;
  /** Indexes into the entries given. */
  first: number;
  second: number;
}

/** Every pair of entries that could claim the same host. */
export function hostClashes(hosts: readonly string[]): HostClash[] {
  const parsed = hosts.map((host) => parseHostPattern(normalizeHost(host)));
  const clashes: HostClash[] = [];
  for (let j = 0; j < parsed.length; j++) {
    for (let i = 0; i < j; i++) {
      const a = parsed[i]!;
      const b = parsed[j]!;
      const clash = a.concrete && b.concrete ? a.text === b.text : !a.concrete && !b.concrete && patternsOverlap(a, b);
      if (clash) clashes.push({ a: a.text, b: b.text, first: i, second: j });
    }
  }
  return clashes;
}

/** Host → value. Concrete hosts by exact lookup, then patterns in order. */
export class HostTable<T> {
  private readonly exact = new Map<string, T>();
  private readonly patterns: { pattern: HostPattern; value: T }[] = [];

  /** Throws HostPatternError for a malformed entry or for two entries that could claim one host. */
  constructor(entries: readonly HostEntry<T>[]) {
    const clash = hostClashes(entries.map((entry) => entry.host))[0];
    if (clash) {
      throw new HostPatternError(clash.a === clash.b ? `hostname ${clash.a} is listed twice` : `host patterns ${clash.a} and ${clash.b} can match the same host`);
    }
    for (const entry of entries) {
      const pattern = parseHostPattern(normalizeHost(entry.host));
      if (pattern.concrete) this.exact.set(pattern.text, entry.value);
      else this.patterns.push({ pattern, value: entry.value });
    }
  }

  /** What answers `host` (case, a port and a trailing dot ignored), or undefined. */
  resolve(host: string): HostMatch<T> | undefined {
    const name = normalizeHost(stripPort(host));
    const exact = this.exact.get(name);
    if (exact !== undefined) return { value: exact, entry: name, params: {} };
    for (const { pattern, value } of this.patterns) {
      const params = matchHost(pattern, name);
      if (params) return { value, entry: pattern.text, params };
    }
    return undefined;
  }

  /** The concrete hostnames (their leaves can be issued up front). */
  get concreteHosts(): string[] {
    return [...this.exact.keys()];
  }

  /** The patterns' fixed suffixes (`atlassian.net`), each once. */
  get patternSuffixes(): string[] {
    return [...new Set(this.patterns.map(({ pattern }) => pattern.suffix))];
  }
}

/** Lower case, no surrounding space, no trailing dot. */
export function normalizeHost(host: string): string {
  return host.trim().toLowerCase().replace(/\.$/, '');
}

/** A Host header or authority without its port (`[v6]` brackets kept). */
export function stripPort(host: string): string {
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  const colon = host.lastIndexOf(':');
  return colon === -1 || host.indexOf(':') !== colon ? host : host.slice(0, colon);
}
