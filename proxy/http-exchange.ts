import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Converting between Node's HTTP objects and the world's byte-exact request and response.
 * Knows no service: the caller says which service or hostname a request is for.
 */
export type RawHeaders = [name: string, value: string][];

export interface ReadRequest {
  method: string;
  target: string;
  headers: RawHeaders;
  body: Uint8Array;
  /** The body was larger than the limit and was not kept. */
  oversize: boolean;
}

/** 10 MiB: above any body the mocked APIs accept; larger bodies get the service's 413. */
export const DEFAULT_BODY_LIMIT = 10 * 1024 * 1024;

export function pairHeaders(raw: string[]): RawHeaders {
  const out: RawHeaders = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i]!, raw[i + 1]!]);
  return out;
}

/** Reads a request with its body, keeping at most `limit` bytes. */
export function readRequest(req: IncomingMessage, limit = DEFAULT_BODY_LIMIT): Promise<ReadRequest> {
  const base = { method: req.method ?? 'GET', target: req.url ?? '/', headers: pairHeaders(req.rawHeaders) };
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) {
    req.resume();
    return Promise.resolve({ ...base, body: new Uint8Array(0), oversize: true });
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let oversize = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) oversize = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolve({ ...base, body: oversize ? new Uint8Array(0) : Buffer.concat(chunks), oversize }));
    req.on('error', reject);
  });
}

export interface WrittenResponse {
  status: number;
  headers: RawHeaders;
  body: Uint8Array;
}

/** Writes exactly the world's status, headers (in order) and body; Node adds only transport headers. */
export function writeResponse(res: ServerResponse, response: WrittenResponse): void {
  res.sendDate = false;
  res.writeHead(response.status, response.headers.flat());
  res.end(response.body);
}
