import { STATUS_CODES } from 'node:http';
import type { HeaderList } from '../mocks/core/http.js';
import type { JournalEntry, JournalHeader } from '../mocks/core/journal-format.js';
import { attributionLabel } from './attribution.js';
import { isSecretHeader, isSecretQueryParam, redactHeaderValue, redactTarget, REDACTED } from './redact.js';

/**
 * HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/) from a journal, for Chrome DevTools
 * and other HAR viewers. Bodies that are valid UTF-8 are exported as text, others in base64
 * with `encoding: "base64"` (on `content`, as the spec says, and on `postData`, which the spec
 * lacks). toolbench's own fields start with `_`, as the spec asks of custom fields.
 */
export interface HarOptions {
  /** Replace credentials in headers, cookies and query parameters (default true). */
  redact?: boolean;
  creatorVersion: string;
}

export interface HarNameValue { name: string; value: string }
export interface HarCookie { name: string; value: string; path?: string; domain?: string; expires?: string; httpOnly?: boolean; secure?: boolean }
export interface HarBody { size: number; mimeType: string; text?: string; encoding?: 'base64' }

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string; url: string; httpVersion: string; cookies: HarCookie[]; headers: HarNameValue[];
    queryString: HarNameValue[]; postData?: { mimeType: string; text: string; encoding?: 'base64' }; headersSize: number; bodySize: number;
  };
  response: {
    status: number; statusText: string; httpVersion: string; cookies: HarCookie[]; headers: HarNameValue[];
    content: HarBody; redirectURL: string; headersSize: number; bodySize: number;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  _seq: number;
  _kind: JournalEntry['kind'];
  _service: string | null;
  _attribution: string;
  _fault: string | null;
}

export function harEntry(entry: JournalEntry, redact: boolean): HarEntry {
  const target = redact ? redactTarget(entry.target) : entry.target;
  const requestBody = body(entry.request.body, header(entry.request.headers, 'content-type'));
  const latency = entry.fault?.latencyMs ?? 0;
  return {
    startedDateTime: entry.time,
    time: latency,
    request: {
      method: entry.method,
      url: url(entry, target),
      httpVersion: 'HTTP/1.1',
      cookies: cookies(entry.request.headers, 'cookie', redact),
      headers: headers(entry.request.headers, redact),
      queryString: queryString(entry.target, redact),
      ...(entry.request.body.length > 0
        ? { postData: { mimeType: requestBody.mimeType, text: requestBody.text ?? '', ...(requestBody.encoding ? { encoding: requestBody.encoding } : {}) } }
        : {}),
      headersSize: -1,
      bodySize: entry.request.body.length,
    },
    response: {
      status: entry.response.status,
      statusText: STATUS_CODES[entry.response.status] ?? '',
      httpVersion: 'HTTP/1.1',
      cookies: cookies(entry.response.headers, 'set-cookie', redact),
      headers: headers(entry.response.headers, redact),
      content: body(entry.response.body, header(entry.response.headers, 'content-type')),
      redirectURL: header(entry.response.headers, 'location') ?? '',
      headersSize: -1,
      bodySize: entry.response.body.length,
    },
    cache: {},
    timings: { send: 0, wait: latency, receive: 0 },
    _seq: entry.seq,
    _kind: entry.kind,
    _service: entry.service,
    _attribution: attributionLabel(entry.attribution),
    _fault: entry.fault?.kind ?? null,
  };
}

/** The HAR document as text, streamed: one entry per line, so a long journal never sits in memory whole. */
export async function* harChunks(header: JournalHeader, entries: AsyncIterable<JournalEntry>, options: HarOptions): AsyncIterable<string> {
  const redact = options.redact ?? true;
  const log = {
    version: '1.2',
    creator: { name: 'toolbench', version: options.creatorVersion },
    comment: `toolbench journal: scenario ${header.scenario}, seed ${header.seed}, recorded with toolbench ${header.toolbench}; logical times` +
      (redact ? `; credentials replaced by ${REDACTED}` : ''),
  };
  yield `{"log":${JSON.stringify(log).slice(0, -1)},"entries":[`;
  let first = true;
  for await (const entry of entries) {
    yield `${first ? '' : ','}\n${JSON.stringify(harEntry(entry, redact))}`;
    first = false;
  }
  yield '\n]}}\n';
}

function url(entry: JournalEntry, target: string): string {
  if (/^https?:\/\//i.test(target)) return target;
  // Authority form (`CONNECT host:443`, a refused tunnel): the origin it asked for.
  if (!target.startsWith('/') && /^[^/?#\s]+:\d+$/.test(target)) return `https://${target}/`;
  const path = target.startsWith('/') ? target : `/${target}`;
  return entry.kind === 'reset' ? `http://${entry.host}${path}` : `https://${entry.host}${path}`;
}

function headers(list: HeaderList, redact: boolean): HarNameValue[] {
  return list.map(([name, value]) => ({ name, value: redact && isSecretHeader(name) ? redactHeaderValue(name, value) : value }));
}

function header(list: HeaderList, name: string): string | undefined {
  return list.find(([key]) => key.toLowerCase() === name)?.[1];
}

function queryString(target: string, redact: boolean): HarNameValue[] {
  const q = target.indexOf('?');
  if (q === -1) return [];
  return [...new URLSearchParams(target.slice(q + 1).split('#')[0])].map(([name, value]) =>
    ({ name, value: redact && isSecretQueryParam(name) ? REDACTED : value }));
}

function cookies(list: HeaderList, which: 'cookie' | 'set-cookie', redact: boolean): HarCookie[] {
  const out: HarCookie[] = [];
  for (const [name, value] of list) {
    if (name.toLowerCase() !== which) continue;
    const pairs = which === 'cookie' ? value.split(';') : [value.split(';')[0]!];
    for (const pair of pairs) {
      const eq = pair.indexOf('=');
      if (eq === -1) continue;
      const cookie: HarCookie = { name: pair.slice(0, eq).trim(), value: redact ? REDACTED : pair.slice(eq + 1).trim() };
      if (which === 'set-cookie') Object.assign(cookie, cookieAttributes(value));
      out.push(cookie);
    }
  }
  return out;
}

function cookieAttributes(setCookie: string): Partial<HarCookie> {
  const out: Partial<HarCookie> = {};
  for (const attribute of setCookie.split(';').slice(1)) {
    const [key = '', ...rest] = attribute.trim().split('=');
    const value = rest.join('=');
    switch (key.toLowerCase()) {
      case 'path': out.path = value; break;
      case 'domain': out.domain = value; break;
      case 'expires': {
        const time = Date.parse(value);
        if (!Number.isNaN(time)) out.expires = new Date(time).toISOString();
        break;
      }
      case 'httponly': out.httpOnly = true; break;
      case 'secure': out.secure = true; break;
    }
  }
  return out;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A body as HAR carries it: text when it is valid UTF-8 (so it round-trips), else base64. */
function body(bytes: Uint8Array, contentType: string | undefined): HarBody {
  const mimeType = contentType ?? (bytes.length > 0 ? 'application/octet-stream' : '');
  if (bytes.length === 0) return { size: 0, mimeType, text: '' };
  try {
    return { size: bytes.length, mimeType, text: utf8.decode(bytes) };
  } catch {
    return { size: bytes.length, mimeType, text: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('base64'), encoding: 'base64' };
  }
}
