import { operation, rest, type Operation } from '../kit/index.js';
import { jsonBody, me, ok } from './common.js';
import { createFile } from './drive.js';
import { googleError } from './errors.js';
import { workspaceFile, writable } from './files.js';
import { PRESENTATION, type FileDoc, type GoogleCtx, type PresentationDoc, type SlideDoc, type UserDoc } from './model.js';

/**
 * Google Slides v1 (slides.googleapis.com): presentations get/create, pages get and thumbnail,
 * and batchUpdate with slides created, duplicated, moved and deleted, text boxes and shapes
 * created, text inserted, deleted and replaced (speaker notes included); styling requests are
 * checked and acknowledged. A slide is its text boxes in order; positions and sizes are fixed.
 */
export function newPresentation(id: string): PresentationDoc {
  return { presentationId: id, slides: [{ objectId: 'p', texts: [{ objectId: 'i0', text: '', placeholder: 'CENTERED_TITLE' }, { objectId: 'i1', text: '', placeholder: 'SUBTITLE' }], notes: '', notesId: 'i2' }], revision: 1 };
}

const EMU = { magnitude: 3000000, unit: 'EMU' };

function textBody(text: string): Record<string, unknown> {
  if (text === '') return { textElements: [] };
  const content = text.endsWith('\n') ? text : `${text}\n`;
  return { textElements: [{ endIndex: content.length, paragraphMarker: { style: { direction: 'LEFT_TO_RIGHT' } } }, { endIndex: content.length, textRun: { content, style: {} } }] };
}

function slideResource(s: SlideDoc): Record<string, unknown> {
  return {
    objectId: s.objectId, pageType: 'SLIDE',
    pageElements: s.texts.map((t, i) => ({
      objectId: t.objectId, size: { width: EMU, height: { magnitude: 1000000, unit: 'EMU' } },
      transform: { scaleX: 1, scaleY: 1, translateX: 311700, translateY: 744575 + i * 1200000, unit: 'EMU' },
      shape: { shapeType: 'TEXT_BOX', ...(t.placeholder ? { placeholder: { type: t.placeholder, parentObjectId: `p2_${t.placeholder.toLowerCase()}` } } : {}), text: textBody(t.text) },
    })),
    slideProperties: {
      layoutObjectId: 'p2', masterObjectId: 'p1',
      notesPage: { objectId: `${s.objectId}:notes`, pageType: 'NOTES', notesProperties: { speakerNotesObjectId: s.notesId }, pageElements: [{ objectId: s.notesId, shape: { shapeType: 'TEXT_BOX', placeholder: { type: 'BODY', index: 1 }, text: textBody(s.notes) } }] },
    },
    pageProperties: { pageBackgroundFill: { solidFill: { color: { rgbColor: { red: 1, green: 1, blue: 1 } }, alpha: 1 } } },
  };
}

function presentationResource(file: FileDoc, doc: PresentationDoc): Record<string, unknown> {
  return {
    presentationId: file.id, title: file.name, locale: 'en',
    pageSize: { width: { magnitude: 9144000, unit: 'EMU' }, height: { magnitude: 5143500, unit: 'EMU' } },
    slides: doc.slides.map(slideResource),
    masters: [{ objectId: 'p1', pageType: 'MASTER', pageElements: [] }],
    layouts: [{ objectId: 'p2', pageType: 'LAYOUT', layoutProperties: { masterObjectId: 'p1', name: 'TITLE_AND_BODY', displayName: 'Title and body' }, pageElements: [] }],
    revisionId: revisionOf(doc),
  };
}

function revisionOf(doc: PresentationDoc): string {
  return `SLD${String(doc.revision).padStart(8, '0')}`;
}

function presentationOf(c: GoogleCtx, user: UserDoc, id: string): [FileDoc, PresentationDoc] {
  const [file, doc] = workspaceFile(c, user, id, PRESENTATION, (fileId) => c.db.presentations.get(fileId));
  return [file, structuredClone(doc) as PresentationDoc];
}

function bad(i: number, kind: string, message: string): never {
  throw googleError(400, 'badRequest', `Invalid requests[${i}].${kind}: ${message}`);
}

function apply(c: GoogleCtx, doc: PresentationDoc, requests: unknown[]): unknown[] {
  const fresh = (prefix: string) => `${prefix}${c.ctx.ids.opaque(`slides:${doc.presentationId}`, c.ctx.ids.next(`slides:${doc.presentationId}`), 10)}`;
  const findText = (objectId: unknown, i: number, kind: string) => {
    for (const s of doc.slides) {
      const t = s.texts.find((x) => x.objectId === objectId);
      if (t) return { get: () => t.text, set: (v: string) => { t.text = v; } };
      if (s.notesId === objectId) return { get: () => s.notes, set: (v: string) => { s.notes = v; } };
    }
    return bad(i, kind, `The object (${String(objectId)}) could not be found.`);
  };
  return requests.map((raw, i) => {
    if (!raw || typeof raw !== 'object' || Object.keys(raw).length !== 1) throw googleError(400, 'badRequest', `Invalid requests[${i}]: exactly one request kind must be set.`);
    const kind = Object.keys(raw)[0]!;
    const req = (raw as Record<string, Record<string, unknown>>)[kind]!;
    switch (kind) {
      case 'createSlide': {
        const objectId = typeof req.objectId === 'string' ? req.objectId : fresh('g');
        if (doc.slides.some((s) => s.objectId === objectId)) bad(i, kind, `The object ID (${objectId}) should be unique among all pages and page elements.`);
        // The layout's placeholders become text boxes (ids from placeholderIdMappings, or new ones).
        const layout = String(((req.slideLayoutReference ?? {}) as Record<string, unknown>).predefinedLayout ?? 'BLANK');
        const kinds = layout === 'TITLE_AND_BODY' || layout === 'TITLE_AND_TWO_COLUMNS' ? ['TITLE', 'BODY'] : layout === 'TITLE' ? ['CENTERED_TITLE', 'SUBTITLE'] : layout === 'TITLE_ONLY' || layout === 'SECTION_HEADER' ? ['TITLE'] : [];
        const mappings = Array.isArray(req.placeholderIdMappings) ? req.placeholderIdMappings as { layoutPlaceholder?: { type?: string }; objectId?: string }[] : [];
        const texts = kinds.map((placeholder) => ({ objectId: mappings.find((m) => m.layoutPlaceholder?.type === placeholder)?.objectId ?? fresh('g'), text: '', placeholder }));
        const slide: SlideDoc = { objectId, texts, notes: '', notesId: `${objectId}_notes` };
        const at = typeof req.insertionIndex === 'number' ? req.insertionIndex : doc.slides.length;
        doc.slides.splice(at, 0, slide);
        return { createSlide: { objectId } };
      }
      case 'createShape': {
        const props = (req.elementProperties ?? {}) as Record<string, unknown>;
        const slide = doc.slides.find((s) => s.objectId === props.pageObjectId) ?? bad(i, kind, `The object (${String(props.pageObjectId)}) could not be found.`);
        const objectId = typeof req.objectId === 'string' ? req.objectId : fresh('g');
        slide.texts.push({ objectId, text: '' });
        return { createShape: { objectId } };
      }
      case 'createImage': case 'createTable': case 'createLine': case 'createVideo': case 'createSheetsChart':
        return { [kind]: { objectId: typeof req.objectId === 'string' ? req.objectId : fresh('g') } };
      case 'insertText': {
        if (typeof req.text !== 'string') bad(i, kind, 'text is required.');
        const target = findText(req.objectId, i, kind);
        const old = target.get();
        const at = typeof req.insertionIndex === 'number' ? req.insertionIndex : 0;
        if (at < 0 || at > old.length) bad(i, kind, `The insertion index (${at}) should not be greater than the length of the text (${old.length}).`);
        target.set(old.slice(0, at) + (req.text as string) + old.slice(at));
        return {};
      }
      case 'deleteText': {
        const target = findText(req.objectId, i, kind);
        const r = (req.textRange ?? {}) as Record<string, unknown>;
        const old = target.get();
        const start = r.type === 'ALL' ? 0 : Number(r.startIndex ?? 0);
        const end = r.type === 'ALL' || r.type === 'FROM_START_INDEX' ? old.length : Number(r.endIndex ?? old.length);
        target.set(old.slice(0, start) + old.slice(end));
        return {};
      }
      case 'replaceAllText': {
        const contains = (req.containsText ?? {}) as Record<string, unknown>;
        if (typeof contains.text !== 'string' || contains.text === '') bad(i, kind, 'containsText.text is required.');
        const pattern = new RegExp((contains.text as string).replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), contains.matchCase === false ? 'gi' : 'g');
        const pages = Array.isArray(req.pageObjectIds) && req.pageObjectIds.length ? req.pageObjectIds as string[] : null;
        let n = 0;
        for (const s of doc.slides) {
          if (pages && !pages.includes(s.objectId)) continue;
          for (const t of s.texts) t.text = t.text.replace(pattern, () => { n++; return String(req.replaceText ?? ''); });
        }
        return { replaceAllText: n ? { occurrencesChanged: n } : {} };
      }
      case 'deleteObject': {
        const before = doc.slides.length;
        doc.slides = doc.slides.filter((s) => s.objectId !== req.objectId);
        let found = doc.slides.length !== before;
        for (const s of doc.slides) {
          const n = s.texts.length;
          s.texts = s.texts.filter((t) => t.objectId !== req.objectId);
          found ||= s.texts.length !== n;
        }
        if (!found) bad(i, kind, `The object (${String(req.objectId)}) could not be found.`);
        return {};
      }
      case 'duplicateObject': {
        const at = doc.slides.findIndex((s) => s.objectId === req.objectId);
        if (at === -1) {
          for (const s of doc.slides) {
            const t = s.texts.find((x) => x.objectId === req.objectId);
            if (t) { const objectId = fresh('g'); s.texts.push({ objectId, text: t.text }); return { duplicateObject: { objectId } }; }
          }
          bad(i, kind, `The object (${String(req.objectId)}) could not be found.`);
        }
        const src = doc.slides[at]!;
        const objectId = fresh('g');
        doc.slides.splice(at + 1, 0, { objectId, texts: src.texts.map((t) => ({ ...t, objectId: fresh('g') })), notes: src.notes, notesId: `${objectId}_notes` });
        return { duplicateObject: { objectId } };
      }
      case 'updateSlidesPosition': {
        const ids = Array.isArray(req.slideObjectIds) ? req.slideObjectIds as string[] : [];
        const moving = ids.map((id) => doc.slides.find((s) => s.objectId === id) ?? bad(i, kind, `The object (${id}) could not be found.`));
        const rest = doc.slides.filter((s) => !moving.includes(s));
        const at = Math.min(Number(req.insertionIndex ?? 0), rest.length);
        doc.slides = [...rest.slice(0, at), ...moving, ...rest.slice(at)];
        return {};
      }
      case 'updateTextStyle': case 'updateParagraphStyle': case 'updateShapeProperties': case 'updatePageProperties': case 'updatePageElementTransform':
      case 'updateImageProperties': case 'updateLineProperties': case 'createParagraphBullets': case 'deleteParagraphBullets': case 'replaceAllShapesWithImage':
      case 'updatePageElementAltText': case 'groupObjects': case 'ungroupObjects': case 'updateSlideProperties': case 'replaceImage':
        return {};
      default:
        throw googleError(400, 'badRequest', `Invalid JSON payload received. Unknown name "${kind}" at 'requests[${i}]': Cannot find field.`);
    }
  });
}

export const slidesOperations: Operation<GoogleCtx>[] = [
  operation('slides.presentations.get', rest('GET', '/v1/presentations/:presentationId'), (call, c: GoogleCtx) => {
    const [file, doc] = presentationOf(c, me(c), call.params.presentationId);
    return ok(call.req, presentationResource(file, doc));
  }),

  operation('slides.presentations.create', rest('POST', '/v1/presentations'), (call, c: GoogleCtx) => {
    const user = me(c);
    const body = jsonBody(call.req);
    const file = createFile(c, user, { name: typeof body.title === 'string' && body.title ? body.title : 'Untitled presentation', mimeType: PRESENTATION, parents: ['root'] });
    return ok(call.req, presentationResource(file, c.db.presentations.get(file.id)!));
  }),

  operation('slides.presentations.pages.get', rest('GET', '/v1/presentations/:presentationId/pages/:pageObjectId'), (call, c: GoogleCtx) => {
    const [, doc] = presentationOf(c, me(c), call.params.presentationId);
    const slide = doc.slides.find((s) => s.objectId === call.params.pageObjectId);
    if (!slide) throw googleError(404, 'notFound', `The page (${call.params.pageObjectId}) could not be found.`);
    return ok(call.req, slideResource(slide));
  }),

  operation('slides.presentations.pages.getThumbnail', rest('GET', '/v1/presentations/:presentationId/pages/:pageObjectId/thumbnail'), (call, c: GoogleCtx) => {
    const [file, doc] = presentationOf(c, me(c), call.params.presentationId);
    if (!doc.slides.some((s) => s.objectId === call.params.pageObjectId)) throw googleError(404, 'notFound', `The page (${call.params.pageObjectId}) could not be found.`);
    return ok(call.req, { width: 1600, height: 900, contentUrl: `https://lh7-us.googleusercontent.com/slides/${file.id}/${call.params.pageObjectId}=s1600` });
  }),

  operation('slides.presentations.batchUpdate', rest('POST', '/v1/presentations/:presentationId/@batchUpdate'), (call, c: GoogleCtx) => {
    const user = me(c);
    const [file, doc] = presentationOf(c, user, call.params.presentationId);
    writable(c, user, file);
    const body = jsonBody(call.req);
    if (!Array.isArray(body.requests)) throw googleError(400, 'badRequest', 'Invalid JSON payload received. requests must be a list.');
    const replies = apply(c, doc, body.requests);
    doc.revision += 1;
    c.db.presentations.put(file.id, doc);
    c.db.files.put(file.id, { ...file, modifiedTime: c.now, version: file.version + 1 });
    return ok(call.req, { presentationId: file.id, replies, writeControl: { requiredRevisionId: revisionOf(doc) } });
  }),
];
