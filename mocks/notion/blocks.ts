import { z } from 'zod';
import { jsonResponse } from '../core/http.js';
import { operation, rest, uuidId } from '../kit/index.js';
import { BLOCK_TYPES } from './dataset.js';
import { iso, normalizeId, notFound, parseRichText, plainText, richText, userRef, validation, type Obj } from './model.js';
import { pageOf } from './query.js';
import { blockContent, childrenOf, insertBlocks, lookup, render, touch, type NotionContext } from './store.js';

/** Blocks and their children, comments, and a page's content as Markdown. */

export const Body = z.record(z.unknown()).default({});
export type Body = z.infer<typeof Body>;
type Query = Record<string, string | string[]>;
const one = (q: string | string[] | undefined) => (Array.isArray(q) ? q[0] : q);

type Tree = { type: string; content: Obj; children: unknown[] };

/** A block of a request (`{type: "to_do", to_do: {rich_text, checked}}`), checked as Notion does. */
export function parseBlock(value: unknown, path: string): Tree {
  if (typeof value !== 'object' || value === null) throw validation(`body failed validation: ${path} should be an object, instead was \`${JSON.stringify(value)}\`.`);
  const block = value as Obj;
  const type = typeof block.type === 'string' ? block.type : (BLOCK_TYPES as readonly string[]).find((t) => t in block);
  if (type === undefined || !(BLOCK_TYPES as readonly string[]).includes(type)) {
    throw validation(`body failed validation: ${path}.type should be one of ${BLOCK_TYPES.map((t) => `\`"${t}"\``).join(', ')}, instead was \`${JSON.stringify(block.type)}\`.`);
  }
  const given = (block[type] ?? {}) as Obj;
  if (typeof given !== 'object') throw validation(`body failed validation: ${path}.${type} should be an object.`);
  const content = blockContent(type, '', given.checked === true);
  if (type !== 'divider') {
    content.rich_text = given.rich_text === undefined ? [] : parseRichText(given.rich_text, `${path}.${type}.rich_text`);
    if (typeof given.color === 'string') content.color = given.color;
    if (type === 'code' && typeof given.language === 'string') content.language = given.language;
  }
  const children = Array.isArray(given.children) ? given.children : [];
  if (children.length > 100) throw validation(`body failed validation: ${path}.${type}.children.length should be ≤ \`100\`.`);
  return { type, content, children };
}
const treeOf = (child: unknown) => parseBlock(child, 'body.children[]');

/** The page or block a block ID names (a page is the parent of its top-level blocks). */
function container(c: NotionContext, id: string): { doc: Obj; kind: 'page_id' | 'block_id'; page: string } {
  const key = normalizeId(id);
  const page = key === null ? undefined : c.pages.get(key);
  if (page) return { doc: page, kind: 'page_id', page: String(page.id) };
  const block = lookup(c.blocks, id, 'block');
  return { doc: block, kind: 'block_id', page: String(block._page) };
}

/** Appends blocks to a page or block; marks the parent as having children and the page as edited. */
export function appendChildren(c: NotionContext, id: string, children: unknown, after?: unknown): Obj[] {
  const target = container(c, id);
  if (target.doc.in_trash === true) throw validation(`Can't edit block that is archived. You must unarchive the block before editing.`);
  if (!Array.isArray(children)) throw validation('body failed validation: body.children should be an array, instead was `undefined`.');
  if (children.length > 100) throw validation(`body failed validation: body.children.length should be ≤ \`100\`, instead was \`${children.length}\`.`);
  const trees = children.map((child, i) => parseBlock(child, `body.children[${i}]`));
  let afterId: string | undefined;
  if (after !== undefined) {
    afterId = normalizeId(String(after)) ?? '';
    if (!childrenOf(c, String(target.doc.id)).some((b) => b.id === afterId)) throw validation(`body failed validation: body.after should be the ID of a child of ${String(target.doc.id)}.`);
  }
  const by = c.caller!;
  const added = insertBlocks(c, String(target.doc.id), target.kind, target.page, trees, c.ctx.nowMs, by, afterId, treeOf);
  if (target.kind === 'block_id') c.blocks.put(String(target.doc.id), { ...touch(target.doc, c.ctx.nowMs, by), has_children: true });
  const page = c.pages.get(target.page);
  if (page) c.pages.put(target.page, touch(page, c.ctx.nowMs, by));
  return added;
}

const list = (type: string, page: { results: Obj[]; next_cursor: string | null; has_more: boolean }) =>
  ({ object: 'list', results: page.results.map(render), next_cursor: page.next_cursor, has_more: page.has_more, type, [type]: {} });

/** Trashes a block and everything under it. */
function trash(c: NotionContext, block: Obj, inTrash: boolean): Obj {
  const updated = c.blocks.put(String(block.id), { ...touch(block, c.ctx.nowMs, c.caller!), archived: inTrash, in_trash: inTrash });
  for (const child of childrenOf(c, String(block.id), true)) trash(c, child, inTrash);
  return updated;
}

/** A page's blocks as Notion's enhanced Markdown (the subset of block types the mock keeps). */
export function markdownOf(c: NotionContext, parentId: string, depth = 0): string {
  const lines: string[] = [];
  let number = 0;
  for (const block of childrenOf(c, parentId)) {
    const type = block.type as string;
    const content = block[type] as Obj;
    const text = plainText(content.rich_text);
    number = type === 'numbered_list_item' ? number + 1 : 0;
    const prefix: Record<string, string> = {
      heading_1: '# ', heading_2: '## ', heading_3: '### ', bulleted_list_item: '- ', numbered_list_item: `${number}. `,
      to_do: content.checked === true ? '- [x] ' : '- [ ] ', quote: '> ', toggle: '▶ ', callout: '> 💡 ',
    };
    const line = type === 'divider' ? '---' : type === 'code' ? `\`\`\`${String(content.language)}\n${text}\n\`\`\`` : `${prefix[type] ?? ''}${text}`;
    lines.push('\t'.repeat(depth) + line);
    if (block.has_children === true) lines.push(markdownOf(c, String(block.id), depth + 1));
  }
  return lines.filter((l) => l !== '').join('\n');
}

/** Markdown lines back to blocks (headings, lists, to-dos, quotes, dividers, paragraphs). */
export function blocksOfMarkdown(markdown: string): Tree[] {
  const out: Tree[] = [];
  for (const raw of markdown.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    const rules: [RegExp, string, boolean?][] = [
      [/^### (.*)$/, 'heading_3'], [/^## (.*)$/, 'heading_2'], [/^# (.*)$/, 'heading_1'],
      [/^- \[x\] (.*)$/i, 'to_do', true], [/^- \[ \] (.*)$/, 'to_do', false], [/^[-*] (.*)$/, 'bulleted_list_item'],
      [/^\d+\. (.*)$/, 'numbered_list_item'], [/^> (.*)$/, 'quote'],
    ];
    if (line === '---') {
      out.push({ type: 'divider', content: {}, children: [] });
      continue;
    }
    const rule = rules.find(([re]) => re.test(line));
    const [type, text] = rule ? [rule[1], rule[0].exec(line)![1]!] : ['paragraph', line];
    out.push({ type, content: blockContent(type, text, rule?.[2]), children: [] });
  }
  return out;
}

function markdownAnswer(c: NotionContext, pageId: string) {
  return { object: 'page_markdown', id: pageId, markdown: markdownOf(c, pageId), truncated: false, unknown_block_ids: [] };
}

export const blockOperations = [
  operation<NotionContext, '/v1/blocks/:block_id'>('blocks.retrieve', rest('GET', '/v1/blocks/:block_id'), (call, c) =>
    jsonResponse(200, render(lookup(c.blocks, call.params.block_id, 'block')))),

  operation<NotionContext, '/v1/blocks/:block_id', Query, Body>('blocks.update', rest('PATCH', '/v1/blocks/:block_id'), (call, c) => {
    const block = lookup(c.blocks, call.params.block_id, 'block');
    // The MCP server's tool sends the content under `type` ({type: {paragraph: {...}}}): read it as Notion's own form.
    const body = typeof call.body.type === 'object' && call.body.type !== null ? { ...call.body, ...(call.body.type as Obj), type: undefined } : call.body;
    const inTrash = typeof body.in_trash === 'boolean' ? body.in_trash : typeof body.archived === 'boolean' ? body.archived : undefined;
    if (block.in_trash === true && inTrash !== false) throw validation(`Can't edit block that is archived. You must unarchive the block before editing.`);
    const type = block.type as string;
    let updated: Obj = touch(block, c.ctx.nowMs, c.caller!);
    for (const key of Object.keys(body)) {
      if (key === 'archived' || key === 'in_trash' || key === 'type') continue;
      if (key !== type) throw validation(`body failed validation: body.${key} is not a property of a ${type} block.`);
    }
    if (body[type] !== undefined) {
      const given = body[type] as Obj;
      if (typeof given !== 'object' || given === null) throw validation(`body failed validation: body.${type} should be an object.`);
      const content = { ...(block[type] as Obj) };
      if (given.rich_text !== undefined) content.rich_text = parseRichText(given.rich_text, `body.${type}.rich_text`);
      if (type === 'to_do' && given.checked !== undefined) {
        if (typeof given.checked !== 'boolean') throw validation(`body failed validation: body.to_do.checked should be a boolean.`);
        content.checked = given.checked;
      }
      if (typeof given.color === 'string') content.color = given.color;
      updated = { ...updated, [type]: content };
    }
    c.blocks.put(String(block.id), updated);
    if (inTrash !== undefined) updated = trash(c, c.blocks.get(String(block.id))!, inTrash);
    const page = c.pages.get(String(block._page));
    if (page) c.pages.put(String(page.id), touch(page, c.ctx.nowMs, c.caller!));
    return jsonResponse(200, render(updated));
  }, { input: { body: Body } }),

  operation<NotionContext, '/v1/blocks/:block_id'>('blocks.delete', rest('DELETE', '/v1/blocks/:block_id'), (call, c) => {
    const block = lookup(c.blocks, call.params.block_id, 'block');
    if (block.in_trash === true) throw validation(`Can't edit block that is archived. You must unarchive the block before editing.`);
    const deleted = trash(c, block, true);
    const page = c.pages.get(String(block._page));
    if (page) c.pages.put(String(page.id), touch(page, c.ctx.nowMs, c.caller!));
    return jsonResponse(200, render(deleted));
  }),

  operation<NotionContext, '/v1/blocks/:block_id/children', Query>('blocks.children.list', rest('GET', '/v1/blocks/:block_id/children'), (call, c) => {
    const target = container(c, call.params.block_id);
    const page = pageOf(childrenOf(c, String(target.doc.id)), one(call.query.start_cursor), one(call.query.page_size));
    return jsonResponse(200, list('block', page));
  }),

  operation<NotionContext, '/v1/blocks/:block_id/children', Query, Body>('blocks.children.append', rest('PATCH', '/v1/blocks/:block_id/children'), (call, c) => {
    const added = appendChildren(c, call.params.block_id, call.body.children, call.body.after);
    return jsonResponse(200, list('block', { results: added, next_cursor: null, has_more: false }));
  }, { input: { body: Body } }),

  operation<NotionContext, '/v1/comments', Query>('comments.list', rest('GET', '/v1/comments'), (call, c) => {
    const id = one(call.query.block_id);
    if (id === undefined) throw validation('body failed validation: block_id should be defined, instead was `undefined`.');
    const target = container(c, id);
    const all = c.comments.filter((m) => { const p = m.parent as Obj; return (p.page_id ?? p.block_id) === target.doc.id; });
    return jsonResponse(200, list('comment', pageOf(all, one(call.query.start_cursor), one(call.query.page_size))));
  }),

  operation<NotionContext, '/v1/comments', Query, Body>('comments.create', rest('POST', '/v1/comments'), (call, c) => {
    const body = call.body;
    const rt = parseRichText(body.rich_text, 'body.rich_text');
    if (rt.length === 0) throw validation('body failed validation: body.rich_text should not be empty.');
    let parent: Obj;
    let discussion: string;
    if (typeof body.discussion_id === 'string') {
      const thread = c.comments.find((m) => m.discussion_id === normalizeId(String(body.discussion_id)));
      if (!thread) throw notFound('discussion', String(body.discussion_id));
      parent = thread.parent as Obj;
      discussion = String(thread.discussion_id);
    } else {
      const p = body.parent as Obj | undefined;
      const id = typeof p?.page_id === 'string' ? p.page_id : typeof p?.block_id === 'string' ? p.block_id : undefined;
      if (id === undefined) throw validation('body failed validation: body.parent should be defined, instead was `undefined`.');
      const target = container(c, id);
      parent = target.kind === 'page_id' ? { type: 'page_id', page_id: target.doc.id } : { type: 'block_id', block_id: target.doc.id };
      discussion = uuidId(c.ctx, 'discussion');
    }
    const id = uuidId(c.ctx, 'comment');
    const time = iso(c.ctx.nowMs);
    const doc = { object: 'comment', id, parent, discussion_id: discussion, created_time: time, last_edited_time: time, created_by: userRef(c.caller!), rich_text: rt };
    return jsonResponse(200, c.comments.put(id, doc));
  }, { input: { body: Body } }),

  operation<NotionContext, '/v1/pages/:page_id/markdown'>('pages.retrieveMarkdown', rest('GET', '/v1/pages/:page_id/markdown'), (call, c) => {
    const page = lookup(c.pages, call.params.page_id, 'page');
    return jsonResponse(200, markdownAnswer(c, String(page.id)));
  }),

  operation<NotionContext, '/v1/pages/:page_id/markdown', Query, Body>('pages.updateMarkdown', rest('PATCH', '/v1/pages/:page_id/markdown'), (call, c) => {
    const page = lookup(c.pages, call.params.page_id, 'page');
    const pageId = String(page.id);
    if (page.in_trash === true) throw validation(`Can't edit page that is archived. You must unarchive the page before editing.`);
    const body = call.body;
    const op = body[String(body.type)] as Obj | undefined;
    if (typeof op !== 'object' || op === null) throw validation(`body failed validation: body.${String(body.type)} should be defined, instead was \`undefined\`.`);
    const replaceAll = (markdown: string) => {
      for (const block of childrenOf(c, pageId)) trash(c, block, true);
      insertBlocks(c, pageId, 'page_id', pageId, blocksOfMarkdown(markdown), c.ctx.nowMs, c.caller!);
    };
    switch (body.type) {
      case 'replace_content':
        if (typeof op.new_str !== 'string') throw validation('body failed validation: body.replace_content.new_str should be a string.');
        replaceAll(op.new_str);
        break;
      case 'update_content': {
        if (!Array.isArray(op.content_updates)) throw validation('body failed validation: body.update_content.content_updates should be an array.');
        let markdown = markdownOf(c, pageId);
        for (const [i, edit] of (op.content_updates as Obj[]).entries()) {
          if (typeof edit?.old_str !== 'string' || typeof edit.new_str !== 'string') throw validation(`body failed validation: body.update_content.content_updates[${i}] should have old_str and new_str strings.`);
          if (!markdown.includes(edit.old_str)) throw validation(`Could not find \`${edit.old_str}\` in the page content.`);
          markdown = edit.replace_all_matches === true ? markdown.split(edit.old_str).join(edit.new_str) : markdown.replace(edit.old_str, () => String(edit.new_str));
        }
        replaceAll(markdown);
        break;
      }
      case 'insert_content': {
        if (typeof op.content !== 'string') throw validation('body failed validation: body.insert_content.content should be a string.');
        const atStart = (op.position as Obj | undefined)?.type === 'start';
        const first = childrenOf(c, pageId)[0];
        const trees = blocksOfMarkdown(op.content);
        if (atStart && first) {
          // Before the first block: positions below it.
          const base = first._position as number;
          trees.forEach((tree, i) => insertBlocks(c, pageId, 'page_id', pageId, [tree], c.ctx.nowMs, c.caller!).forEach((b) =>
            c.blocks.put(String(b.id), { ...b, _position: base - (trees.length - i) })));
        } else {
          insertBlocks(c, pageId, 'page_id', pageId, trees, c.ctx.nowMs, c.caller!);
        }
        break;
      }
      default:
        throw validation(`body failed validation: body.type should be \`"replace_content"\` or \`"update_content"\`, instead was \`${JSON.stringify(body.type)}\`.`);
    }
    c.pages.put(pageId, touch(c.pages.get(pageId)!, c.ctx.nowMs, c.caller!));
    return jsonResponse(200, markdownAnswer(c, pageId));
  }, { input: { body: Body } }),
];

