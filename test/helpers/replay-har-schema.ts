/**
 * HAR 1.2 as a JSON schema, written from the spec (http://www.softwareishard.com/blog/har-12-spec/),
 * with the same required fields as the widely used `har-schema` package. Custom fields are
 * allowed (the spec reserves names starting with `_` for them).
 */
const nameValue = {
  type: 'object', required: ['name', 'value'],
  properties: { name: { type: 'string' }, value: { type: 'string' }, comment: { type: 'string' } },
};

const cookie = {
  type: 'object', required: ['name', 'value'],
  properties: {
    name: { type: 'string' }, value: { type: 'string' }, path: { type: 'string' }, domain: { type: 'string' },
    expires: { type: ['string', 'null'], format: 'date-time' }, httpOnly: { type: 'boolean' }, secure: { type: 'boolean' }, comment: { type: 'string' },
  },
};

const postData = {
  type: 'object', required: ['mimeType'],
  properties: {
    mimeType: { type: 'string' }, text: { type: 'string' }, comment: { type: 'string' },
    params: { type: 'array', items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, value: { type: 'string' }, fileName: { type: 'string' }, contentType: { type: 'string' }, comment: { type: 'string' } } } },
  },
};

const content = {
  type: 'object', required: ['size', 'mimeType'],
  properties: {
    size: { type: 'integer' }, compression: { type: 'integer' }, mimeType: { type: 'string' },
    text: { type: 'string' }, encoding: { type: 'string' }, comment: { type: 'string' },
  },
};

const request = {
  type: 'object', required: ['method', 'url', 'httpVersion', 'cookies', 'headers', 'queryString', 'headersSize', 'bodySize'],
  properties: {
    method: { type: 'string' }, url: { type: 'string', format: 'uri' }, httpVersion: { type: 'string' },
    cookies: { type: 'array', items: cookie }, headers: { type: 'array', items: nameValue }, queryString: { type: 'array', items: nameValue },
    postData, headersSize: { type: 'integer' }, bodySize: { type: 'integer' }, comment: { type: 'string' },
  },
};

const response = {
  type: 'object', required: ['status', 'statusText', 'httpVersion', 'cookies', 'headers', 'content', 'redirectURL', 'headersSize', 'bodySize'],
  properties: {
    status: { type: 'integer' }, statusText: { type: 'string' }, httpVersion: { type: 'string' },
    cookies: { type: 'array', items: cookie }, headers: { type: 'array', items: nameValue }, content,
    redirectURL: { type: 'string' }, headersSize: { type: 'integer' }, bodySize: { type: 'integer' }, comment: { type: 'string' },
  },
};

const cacheEntry = {
  type: ['object', 'null'], required: ['lastAccess', 'eTag', 'hitCount'],
  properties: { expires: { type: 'string' }, lastAccess: { type: 'string' }, eTag: { type: 'string' }, hitCount: { type: 'integer' }, comment: { type: 'string' } },
};

const timings = {
  type: 'object', required: ['send', 'wait', 'receive'],
  properties: {
    dns: { type: 'number', minimum: -1 }, connect: { type: 'number', minimum: -1 }, blocked: { type: 'number', minimum: -1 },
    send: { type: 'number', minimum: -1 }, wait: { type: 'number', minimum: -1 }, receive: { type: 'number', minimum: -1 },
    ssl: { type: 'number', minimum: -1 }, comment: { type: 'string' },
  },
};

const entry = {
  type: 'object', required: ['startedDateTime', 'time', 'request', 'response', 'cache', 'timings'],
  properties: {
    pageref: { type: 'string' }, startedDateTime: { type: 'string', format: 'date-time' }, time: { type: 'number', minimum: 0 },
    request, response, cache: { type: 'object', properties: { beforeRequest: cacheEntry, afterRequest: cacheEntry, comment: { type: 'string' } } },
    timings, serverIPAddress: { type: 'string' }, connection: { type: 'string' }, comment: { type: 'string' },
  },
};

const creator = {
  type: 'object', required: ['name', 'version'],
  properties: { name: { type: 'string' }, version: { type: 'string' }, comment: { type: 'string' } },
};

const page = {
  type: 'object', required: ['startedDateTime', 'id', 'title', 'pageTimings'],
  properties: {
    startedDateTime: { type: 'string', format: 'date-time' }, id: { type: 'string' }, title: { type: 'string' },
    pageTimings: { type: 'object', properties: { onContentLoad: { type: 'number', minimum: -1 }, onLoad: { type: 'number', minimum: -1 }, comment: { type: 'string' } } },
    comment: { type: 'string' },
  },
};

export const harSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object', required: ['log'],
  properties: {
    log: {
      type: 'object', required: ['version', 'creator', 'entries'],
      properties: {
        version: { type: 'string', const: '1.2' }, creator, browser: creator,
        pages: { type: 'array', items: page }, entries: { type: 'array', items: entry }, comment: { type: 'string' },
      },
    },
  },
} as const;
