import { Buffer } from 'node:buffer';
import { ToolbenchError } from '../../core/errors.js';
import type { LoadContext } from '../../core/service.js';
import type { ConfluenceDataset } from './dataset.js';
import { confluenceDb, confluenceTime } from './model.js';

function datasetError(where: string, message: string): ToolbenchError {
  return new ToolbenchError('TB_ERR_DATASET', `atlassian dataset, confluence.${where}: ${message}`);
}

/** Loads spaces, then pages in file order (a parent before its children), their comments and attachments. */
export function loadConfluence(data: ConfluenceDataset, ctx: LoadContext, user: (ref: string, where: string) => string): void {
  const db = confluenceDb(ctx.store);
  data.spaces.forEach((s, i) => {
    if (db.spaces.has(s.key)) throw datasetError(`spaces[${i}].key`, `${s.key} is used twice`);
    db.spaces.put(s.key, { id: 98300 + i, key: s.key, name: s.name, description: s.description, type: s.type, status: s.status, homepage: null });
  });
  let next = 65000;
  const ms = (iso: string) => Date.parse(iso);
  const byTitle = new Map<string, string>();
  data.pages.forEach((p, i) => {
    const where = `pages[${i}]`;
    if (!db.spaces.has(p.space)) throw datasetError(`${where}.space`, `no space ${p.space}`);
    const id = p.id ?? String(++next);
    next = Math.max(next, Number(id));
    if (db.content.has(id)) throw datasetError(`${where}.id`, `${id} is used twice`);
    const key = `${p.space}\u0000${p.title}`;
    if (byTitle.has(key) && p.status !== 'trashed') throw datasetError(`${where}.title`, `a page titled ${JSON.stringify(p.title)} already exists in ${p.space}`);
    let parent: string | null = null;
    if (p.parent !== undefined) {
      parent = byTitle.get(`${p.space}\u0000${p.parent}`) ?? null;
      if (parent === null) throw datasetError(`${where}.parent`, `no earlier page ${JSON.stringify(p.parent)} in ${p.space}`);
    }
    byTitle.set(key, id);
    const author = user(p.author, `${where}.author`);
    const editor = p.last_editor ? user(p.last_editor, `${where}.last_editor`) : author;
    const when = confluenceTime(ms(p.updated ?? p.created));
    db.content.put(id, {
      id, type: p.type, status: p.status, title: p.title, space: p.space, parent, container: null, body: p.body, creator: author, created: confluenceTime(ms(p.created)),
      version: { number: p.version, when, by: editor, message: '', minorEdit: false }, labels: [...new Set(p.labels)], mediaType: null, data: null, position: i,
    });
    p.comments.forEach((c, j) => {
      const cid = String(++next);
      const by = user(c.author, `${where}.comments[${j}].author`);
      db.content.put(cid, {
        id: cid, type: 'comment', status: 'current', title: `Re: ${p.title}`, space: p.space, parent: null, container: id, body: c.body, creator: by, created: confluenceTime(ms(c.created)),
        version: { number: 1, when: confluenceTime(ms(c.created)), by, message: '', minorEdit: false }, labels: [], mediaType: null, data: null, position: j,
      });
    });
    p.attachments.forEach((a, j) => {
      const aid = String(++next);
      const by = a.author ? user(a.author, `${where}.attachments[${j}].author`) : author;
      db.content.put(aid, {
        id: aid, type: 'attachment', status: 'current', title: a.filename, space: p.space, parent: null, container: id, body: '', creator: by, created: confluenceTime(ms(p.created)),
        version: { number: 1, when: confluenceTime(ms(p.created)), by, message: '', minorEdit: false }, labels: [], mediaType: a.media_type, data: Buffer.from(a.text).toString('base64'), position: j,
      });
    });
  });
  data.spaces.forEach((s) => {
    if (s.homepage === undefined) return;
    const home = byTitle.get(`${s.key}\u0000${s.homepage}`);
    if (!home) throw datasetError(`spaces.${s.key}.homepage`, `no page ${JSON.stringify(s.homepage)} in ${s.key}`);
    db.spaces.put(s.key, { ...db.spaces.get(s.key)!, homepage: home });
  });
  ctx.ids.reserve('confluence-content', next);
}
