import { Buffer } from 'node:buffer';
import { jsonResponse } from '../../core/http.js';
import type { MultipartPart } from '../../kit/bodies.js';
import { operation, rest, type Operation } from '../../kit/operation.js';
import { me, type AtlassianCtx } from '../context.js';
import { jiraError } from '../errors.js';
import { issueOf, noContent } from './common.js';
import { jiraTime, type AttachmentDoc } from './model.js';
import { attachment } from './render.js';

/** Attachments: multipart uploads (`file` parts, `X-Atlassian-Token: no-check`), metadata, content, delete. */
function attachmentOf(c: AtlassianCtx, id: string): AttachmentDoc {
  const a = c.jira.attachments.get(id);
  if (!a) throw jiraError(404, [`The attachment with id '${id}' does not exist.`]);
  return a;
}

export const attachmentOperations: Operation<AtlassianCtx>[] = [
  operation('issue.attachments.add', rest('POST', '/rest/api/3/issue/:issueIdOrKey/attachments'), (call, c: AtlassianCtx) => {
    const issue = issueOf(c, call.params.issueIdOrKey);
    if ((call.req.header('x-atlassian-token') ?? '').toLowerCase() !== 'no-check') throw jiraError(403, ['XSRF check failed']);
    if (call.decoded.kind !== 'multipart') throw jiraError(415, ['The request must be multipart/form-data with a file part named "file".']);
    const raw = call.decoded.value.file;
    const parts: MultipartPart[] = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
    if (parts.length === 0) throw jiraError(400, ['No file was attached: send a part named "file".']);
    const now = jiraTime(c.ctx.nowMs);
    const docs = parts.map((part) => {
      const id = String(c.ctx.ids.next('jira-attachment', 10000));
      const data = part.bytes;
      return c.jira.attachments.put(id, {
        id, issue: issue.key, filename: part.filename ?? 'file', author: me(c).accountId, created: now, size: data.byteLength,
        mimeType: part.contentType ?? 'application/octet-stream', content: Buffer.from(data).toString('base64'),
      });
    });
    c.jira.issues.put(issue.key, { ...issue, updated: now });
    return jsonResponse(200, docs.map((a) => attachment(c.view, a)));
  }),
  operation('attachment.get', rest('GET', '/rest/api/3/attachment/:id'), (call, c: AtlassianCtx) => jsonResponse(200, attachment(c.view, attachmentOf(c, call.params.id)))),
  operation('attachment.content', rest('GET', '/rest/api/3/attachment/content/:id'), (call, c: AtlassianCtx) => {
    const a = attachmentOf(c, call.params.id);
    // Jira answers with a redirect to its media store unless `redirect=false`; here the media URL is the same resource without the redirect.
    if (call.req.query.get('redirect') !== 'false') return { status: 303, headers: [['Location', `${c.site.base_url}/rest/api/3/attachment/content/${a.id}?redirect=false`]], body: new Uint8Array() };
    return { status: 200, headers: [['Content-Type', a.mimeType], ['Content-Disposition', `attachment; filename="${a.filename}"`]], body: new Uint8Array(Buffer.from(a.content, 'base64')) };
  }),
  operation('attachment.delete', rest('DELETE', '/rest/api/3/attachment/:id'), (call, c: AtlassianCtx) => {
    attachmentOf(c, call.params.id);
    c.jira.attachments.delete(call.params.id);
    return noContent();
  }),
];
