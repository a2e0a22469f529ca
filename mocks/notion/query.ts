import { flatValue, validation, type Obj } from './model.js';

/**
 * The data source query's filter and sorts (POST /v1/data_sources/{id}/query), the subset of
 * Notion's filter language the mock keeps (docs/notion-mock.md): `and`/`or` compounds, property
 * conditions by type, and created/last-edited time conditions. Anything else is Notion's 400.
 */

type Predicate = (page: Obj) => boolean;

export function compileFilter(filter: unknown, schema: Record<string, Obj>, depth = 0): Predicate {
  if (typeof filter !== 'object' || filter === null || Array.isArray(filter)) throw validation('body failed validation: body.filter should be an object.');
  const f = filter as Obj;
  for (const op of ['and', 'or'] as const) {
    if (op in f) {
      if (depth >= 2) throw validation('body failed validation: body.filter can nest compound filters at most two levels deep.');
      if (!Array.isArray(f[op])) throw validation(`body failed validation: body.filter.${op} should be an array.`);
      const parts = (f[op] as unknown[]).map((part) => compileFilter(part, schema, depth + 1));
      return op === 'and' ? (page) => parts.every((p) => p(page)) : (page) => parts.some((p) => p(page));
    }
  }
  if (f.timestamp === 'created_time' || f.timestamp === 'last_edited_time') {
    const field = f.timestamp;
    const cond = dateCondition(f[field] ?? f.date, `body.filter.${field}`);
    return (page) => cond(String(page[field]));
  }
  if (typeof f.property !== 'string') throw validation('body failed validation: body.filter.property should be defined, instead was `undefined`.');
  const name = propertyName(f.property, schema);
  if (name === null) throw validation(`Could not find property with name or id: ${f.property}`);
  const type = schema[name]!.type as string;
  const key = Object.keys(f).find((k) => k !== 'property' && k !== 'type');
  if (key === undefined) throw validation(`body failed validation: body.filter should have a condition for ${f.property}.`);
  const condition = f[key];
  const valueOf = (page: Obj) => flatValue(((page.properties as Record<string, Obj>)[name]) ?? { type, [type]: null });
  const cond = conditionFor(key, type, condition);
  return (page) => cond(valueOf(page));
}

function propertyName(nameOrId: string, schema: Record<string, Obj>): string | null {
  if (nameOrId in schema) return nameOrId;
  return Object.entries(schema).find(([, s]) => s.id === nameOrId)?.[0] ?? null;
}

type Cond = (value: unknown) => boolean;

function conditionFor(key: string, type: string, condition: unknown): Cond {
  const aliases: Record<string, string[]> = {
    title: ['title', 'rich_text'], rich_text: ['title', 'rich_text', 'url', 'email'], url: ['url', 'rich_text'], email: ['email', 'rich_text'],
    number: ['number'], checkbox: ['checkbox'], select: ['select'], status: ['status'], multi_select: ['multi_select'],
    people: ['people'], date: ['date', 'created_time', 'last_edited_time'],
  };
  if (!(aliases[key] ?? []).includes(type)) throw validation(`body failed validation: a ${type} property cannot be filtered with \`${key}\`.`);
  if (typeof condition !== 'object' || condition === null) throw validation(`body failed validation: body.filter.${key} should be an object.`);
  const entries = Object.entries(condition as Obj);
  if (entries.length !== 1) throw validation(`body failed validation: body.filter.${key} should have exactly one condition.`);
  const [op, operand] = entries[0]!;
  const path = `body.filter.${key}.${op}`;
  if (op === 'is_empty') return isEmpty;
  if (op === 'is_not_empty') return (v) => !isEmpty(v);
  switch (key) {
    case 'title': case 'rich_text': case 'url': case 'email': {
      const s = str(operand, path);
      const text = (v: unknown) => String(v ?? '');
      switch (op) {
        case 'equals': return (v) => text(v) === s;
        case 'does_not_equal': return (v) => text(v) !== s;
        case 'contains': return (v) => text(v).toLowerCase().includes(s.toLowerCase());
        case 'does_not_contain': return (v) => !text(v).toLowerCase().includes(s.toLowerCase());
        case 'starts_with': return (v) => text(v).toLowerCase().startsWith(s.toLowerCase());
        case 'ends_with': return (v) => text(v).toLowerCase().endsWith(s.toLowerCase());
      }
      break;
    }
    case 'number': {
      if (typeof operand !== 'number') throw validation(`body failed validation: ${path} should be a number.`);
      const n = (v: unknown) => (typeof v === 'number' ? v : NaN);
      const ops: Record<string, Cond> = {
        equals: (v) => n(v) === operand, does_not_equal: (v) => n(v) !== operand, greater_than: (v) => n(v) > operand,
        less_than: (v) => n(v) < operand, greater_than_or_equal_to: (v) => n(v) >= operand, less_than_or_equal_to: (v) => n(v) <= operand,
      };
      if (ops[op]) return ops[op]!;
      break;
    }
    case 'checkbox':
      if (typeof operand !== 'boolean') throw validation(`body failed validation: ${path} should be a boolean.`);
      if (op === 'equals') return (v) => v === operand;
      if (op === 'does_not_equal') return (v) => v !== operand;
      break;
    case 'select': case 'status': {
      const s = str(operand, path);
      if (op === 'equals') return (v) => v === s;
      if (op === 'does_not_equal') return (v) => v !== s;
      break;
    }
    case 'multi_select': case 'people': {
      const s = str(operand, path);
      if (op === 'contains') return (v) => Array.isArray(v) && v.includes(s);
      if (op === 'does_not_contain') return (v) => !Array.isArray(v) || !v.includes(s);
      break;
    }
    case 'date':
      return dateCondition({ [op]: operand }, `body.filter.${key}`);
  }
  throw validation(`body failed validation: \`${op}\` is not a supported ${key} filter condition.`);
}

function dateCondition(condition: unknown, path: string): Cond {
  if (typeof condition !== 'object' || condition === null) throw validation(`body failed validation: ${path} should be an object.`);
  const [op, operand] = Object.entries(condition as Obj)[0] ?? [];
  if (op === 'is_empty') return isEmpty;
  if (op === 'is_not_empty') return (v) => !isEmpty(v);
  const at = Date.parse(String(operand));
  if (typeof operand !== 'string' || Number.isNaN(at)) throw validation(`body failed validation: ${path}.${String(op)} should be an ISO 8601 date.`);
  // A date without a time compares by day, as Notion does.
  const dayOnly = operand.length === 10;
  const t = (v: unknown) => (typeof v === 'string' ? (dayOnly ? Date.parse(v.slice(0, 10)) : Date.parse(v)) : NaN);
  const ops: Record<string, Cond> = {
    equals: (v) => t(v) === at, before: (v) => t(v) < at, after: (v) => t(v) > at,
    on_or_before: (v) => t(v) <= at, on_or_after: (v) => t(v) >= at,
  };
  const cond = ops[op ?? ''];
  if (!cond) throw validation(`body failed validation: \`${String(op)}\` is not a supported date filter condition.`);
  return cond;
}

const isEmpty = (v: unknown) => v === null || v === '' || (Array.isArray(v) && v.length === 0);

function str(operand: unknown, path: string): string {
  if (typeof operand !== 'string') throw validation(`body failed validation: ${path} should be a string, instead was \`${JSON.stringify(operand)}\`.`);
  return operand;
}

/** Sorts: by property or by timestamp, in order; ties keep the earlier order (stable). Empty values last. */
export function sortPages(pages: Obj[], sorts: unknown, schema: Record<string, Obj>): Obj[] {
  if (sorts === undefined) return pages;
  if (!Array.isArray(sorts)) throw validation('body failed validation: body.sorts should be an array.');
  const keys = sorts.map((sort, i) => {
    const s = sort as Obj;
    const direction = s?.direction ?? 'ascending';
    if (direction !== 'ascending' && direction !== 'descending') throw validation(`body failed validation: body.sorts[${i}].direction should be \`"ascending"\` or \`"descending"\`.`);
    let get: (page: Obj) => unknown;
    if (s.timestamp === 'created_time' || s.timestamp === 'last_edited_time') {
      const field = s.timestamp;
      get = (page) => page[field];
    } else if (typeof s.property === 'string') {
      const name = propertyName(s.property, schema);
      if (name === null) throw validation(`Could not find sort property with name or id: ${s.property}`);
      get = (page) => {
        const v = flatValue(((page.properties as Record<string, Obj>)[name]) ?? { type: 'x', x: null });
        return Array.isArray(v) ? v.join(',') : v;
      };
    } else {
      throw validation(`body failed validation: body.sorts[${i}] should have a \`property\` or a \`timestamp\`.`);
    }
    return { get, sign: direction === 'ascending' ? 1 : -1 };
  });
  return [...pages].sort((a, b) => {
    for (const { get, sign } of keys) {
      const x = get(a);
      const y = get(b);
      if (isEmpty(x) && isEmpty(y)) continue;
      if (isEmpty(x)) return 1;
      if (isEmpty(y)) return -1;
      const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x) < String(y) ? -1 : String(x) > String(y) ? 1 : 0;
      if (c !== 0) return c * sign;
    }
    return 0;
  });
}

/** Notion's cursor pages: the cursor is the ID of the page's first result. */
export function pageOf<T extends Obj>(items: T[], startCursor: unknown, pageSize: unknown): { results: T[]; next_cursor: string | null; has_more: boolean } {
  const size = pageSize === undefined ? 100 : Number(pageSize);
  if (!Number.isInteger(size) || size < 1 || size > 100) throw validation(`body failed validation: page_size should be ≤ \`100\` and ≥ \`1\`, instead was \`${String(pageSize)}\`.`);
  let start = 0;
  if (startCursor !== undefined && startCursor !== null && startCursor !== '') {
    start = items.findIndex((item) => item.id === startCursor);
    if (start < 0) throw validation(`start_cursor provided is invalid: ${String(startCursor)}`);
  }
  const results = items.slice(start, start + size);
  const next = items[start + size];
  return { results, next_cursor: next ? String(next.id) : null, has_more: next !== undefined };
}
