import type { Operation } from '../kit/operation.js';
import { jsonOp } from './logs.js';
import { accountOf, awsError, epochSec, type AwsCtx, type ItemDoc, type TableDoc } from './model.js';

/**
 * Amazon DynamoDB (JSON 1.0, `X-Amz-Target: DynamoDB_20120810.<Op>`): tables and items in the
 * wire's attribute-value form; Query with key conditions (`=`, `<`, `<=`, `>`, `>=`, `BETWEEN`,
 * `begins_with`), Scan and Query with simple filter expressions (comparisons, `contains`,
 * `attribute_exists`/`attribute_not_exists`, `AND`).
 */

type AV = Record<string, unknown>;
type Item = Record<string, AV>;

const notFound = (name: string) => awsError(400, 'ResourceNotFoundException', `Requested resource not found: Table: ${name} not found`);
const invalid = (message: string) => awsError(400, 'ValidationException', message);

function tableOf(c: AwsCtx, b: Record<string, unknown>): TableDoc {
  const name = String(b.TableName ?? '');
  if (name === '') throw invalid("1 validation error detected: Value null at 'tableName' failed to satisfy constraint: Member must not be null");
  const table = c.db.tables.get(name);
  if (!table) throw notFound(name);
  return table;
}

/** A key attribute's value as text, for the item's store key and ordering. */
function scalar(av: AV | undefined): string | number | null {
  if (!av) return null;
  if ('S' in av) return String(av.S);
  if ('N' in av) return Number(av.N);
  if ('B' in av) return String(av.B);
  return null;
}

export function itemKey(table: TableDoc, item: Item): string {
  const hash = scalar(item[table.hash_key.name]);
  const range = table.range_key ? scalar(item[table.range_key.name]) : null;
  return `${table.name}|${String(hash)}${table.range_key ? `|${String(range)}` : ''}`;
}

function checkKey(table: TableDoc, key: Item, exact: boolean): void {
  const names = [table.hash_key, ...(table.range_key ? [table.range_key] : [])];
  for (const k of names) {
    const av = key[k.name];
    if (!av || !(k.type in av)) throw invalid('The provided key element does not match the schema');
  }
  if (exact && Object.keys(key).length !== names.length) throw invalid('The provided key element does not match the schema');
}

const itemsOf = (c: AwsCtx, table: TableDoc): Item[] => c.db.items.filter((doc) => doc.table === table.name).map((doc) => doc.item)
  .sort((a, b) => compare(scalar(a[table.hash_key.name]), scalar(b[table.hash_key.name])) || (table.range_key ? compare(scalar(a[table.range_key.name]), scalar(b[table.range_key.name])) : 0));

function compare(a: string | number | null, b: string | number | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return a < b ? -1 : 1;
}

/** An expression's operand: `:value`, `#name` or a bare attribute name. */
interface Names { names: Record<string, string>; values: Record<string, AV> }
function nameOf(token: string, x: Names): string {
  const t = token.trim();
  if (t.startsWith('#')) {
    const found = x.names[t];
    if (found === undefined) throw invalid(`Value provided in ExpressionAttributeNames unused in expressions: keys: {${t}}`);
    return found;
  }
  return t;
}
function valueOf(token: string, x: Names): AV {
  const found = x.values[token.trim()];
  if (found === undefined) throw invalid(`Invalid expression: An expression attribute value used in expression is not defined; attribute value: ${token.trim()}`);
  return found;
}

/** One condition of an `AND`-joined expression, as a predicate on an item. */
function condition(text: string, x: Names): (item: Item) => boolean {
  const t = text.trim().replace(/^\((.*)\)$/, '$1');
  let m = /^begins_with\s*\(\s*([^,]+),\s*(:\w+)\s*\)$/i.exec(t);
  if (m) { const n = nameOf(m[1]!, x); const v = scalar(valueOf(m[2]!, x)); return (i) => String(scalar(i[n]) ?? '').startsWith(String(v)); }
  m = /^contains\s*\(\s*([^,]+),\s*(:\w+)\s*\)$/i.exec(t);
  if (m) {
    const n = nameOf(m[1]!, x); const v = valueOf(m[2]!, x);
    return (i) => { const a = i[n]; if (!a) return false; if ('S' in a) return String(a.S).includes(String(scalar(v))); if ('SS' in a || 'L' in a) return JSON.stringify(a).includes(JSON.stringify(scalar(v))); return false; };
  }
  m = /^attribute_(not_)?exists\s*\(\s*([^)]+)\)$/i.exec(t);
  if (m) { const n = nameOf(m[2]!, x); const not = m[1] !== undefined; return (i) => (n in i) !== not; }
  m = /^(\S+)\s+BETWEEN\s+(:\w+)\s+AND\s+(:\w+)$/i.exec(t);
  if (m) { const n = nameOf(m[1]!, x); const lo = scalar(valueOf(m[2]!, x)); const hi = scalar(valueOf(m[3]!, x)); return (i) => { const v = scalar(i[n]); return v !== null && compare(v, lo) >= 0 && compare(v, hi) <= 0; }; }
  m = /^(\S+)\s*(=|<>|<=|>=|<|>)\s*(:\w+)$/.exec(t);
  if (m) {
    const n = nameOf(m[1]!, x); const op = m[2]!; const want = valueOf(m[3]!, x);
    return (i) => {
      const a = i[n];
      if (op === '=') return a !== undefined && JSON.stringify(a) === JSON.stringify(want);
      if (op === '<>') return a === undefined || JSON.stringify(a) !== JSON.stringify(want);
      const v = scalar(a);
      if (v === null) return false;
      const d = compare(v, scalar(want));
      return op === '<' ? d < 0 : op === '<=' ? d <= 0 : op === '>' ? d > 0 : d >= 0;
    };
  }
  throw invalid(`Invalid ${'expression'}: Syntax error; token: "${t.split(/\s+/)[0] ?? ''}"`);
}

/** `a AND b AND …` (BETWEEN's own AND kept with its operands). */
function conjunction(expression: string, x: Names): (item: Item) => boolean {
  const parts: string[] = [];
  for (const piece of expression.split(/\s+AND\s+/i)) {
    const last = parts.at(-1);
    if (last !== undefined && /\sBETWEEN\s+:\w+$/i.test(last)) parts[parts.length - 1] = `${last} AND ${piece}`;
    else parts.push(piece);
  }
  const tests = parts.map((p) => condition(p, x));
  return (item) => tests.every((test) => test(item));
}

function names(b: Record<string, unknown>): Names {
  return { names: (b.ExpressionAttributeNames ?? {}) as Record<string, string>, values: (b.ExpressionAttributeValues ?? {}) as Record<string, AV> };
}

function describe(c: AwsCtx, table: TableDoc): Record<string, unknown> {
  const items = itemsOf(c, table);
  const keys = [{ AttributeName: table.hash_key.name, KeyType: 'HASH' }, ...(table.range_key ? [{ AttributeName: table.range_key.name, KeyType: 'RANGE' }] : [])];
  const attrs = [table.hash_key, ...(table.range_key ? [table.range_key] : [])].map((k) => ({ AttributeName: k.name, AttributeType: k.type }));
  return {
    AttributeDefinitions: attrs, TableName: table.name, KeySchema: keys, TableStatus: 'ACTIVE', CreationDateTime: epochSec(table.created),
    ProvisionedThroughput: { NumberOfDecreasesToday: 0, ReadCapacityUnits: 0, WriteCapacityUnits: 0 },
    TableSizeBytes: items.reduce((n, i) => n + JSON.stringify(i).length, 0), ItemCount: items.length, TableArn: table.arn, TableId: table.id,
    BillingModeSummary: { BillingMode: table.billing_mode, LastUpdateToPayPerRequestDateTime: epochSec(table.created) },
    DeletionProtectionEnabled: false, TableClassSummary: { TableClass: 'STANDARD' },
  };
}

/** Query and Scan page with `Limit` and `ExclusiveStartKey` (the last evaluated item's key). */
function page(table: TableDoc, all: Item[], b: Record<string, unknown>, filter: ((i: Item) => boolean) | null) {
  const start = b.ExclusiveStartKey ? all.findIndex((i) => itemKey(table, i) === itemKey(table, b.ExclusiveStartKey as Item)) + 1 : 0;
  const limit = b.Limit === undefined ? Infinity : Number(b.Limit);
  if (!(limit >= 1)) throw invalid("1 validation error detected: Value at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1");
  const scanned = all.slice(start, start + limit);
  const items = filter ? scanned.filter(filter) : scanned;
  const last = start + limit < all.length ? scanned.at(-1) : undefined;
  const keyOf = (i: Item): Item => ({ [table.hash_key.name]: i[table.hash_key.name]!, ...(table.range_key ? { [table.range_key.name]: i[table.range_key.name]! } : {}) });
  const projected = b.Select === 'COUNT' ? {} : { Items: items };
  return { ...projected, Count: items.length, ScannedCount: scanned.length, ...(last ? { LastEvaluatedKey: keyOf(last) } : {}) };
}

export const dynamodbOperations: Operation<AwsCtx>[] = [
  jsonOp('dynamodb', 'ListTables', (b, c) => {
    const all = c.db.tables.values().map((t) => t.name).sort();
    const after = b.ExclusiveStartTableName === undefined ? null : String(b.ExclusiveStartTableName);
    const rest = after === null ? all : all.filter((n) => n > after);
    const limit = b.Limit === undefined ? 100 : Number(b.Limit);
    const names = rest.slice(0, limit);
    return { TableNames: names, ...(rest.length > limit ? { LastEvaluatedTableName: names.at(-1) } : {}) };
  }),
  jsonOp('dynamodb', 'DescribeTable', (b, c) => ({ Table: describe(c, tableOf(c, b)) })),
  jsonOp('dynamodb', 'GetItem', (b, c) => {
    const table = tableOf(c, b);
    const key = (b.Key ?? {}) as Item;
    checkKey(table, key, true);
    const doc = c.db.items.get(itemKey(table, key));
    return doc ? { Item: doc.item } : {};
  }),
  jsonOp('dynamodb', 'PutItem', (b, c) => {
    const table = tableOf(c, b);
    const item = (b.Item ?? {}) as Item;
    checkKey(table, item, false);
    const k = itemKey(table, item);
    const old = c.db.items.get(k);
    if (typeof b.ConditionExpression === 'string' && !conjunction(b.ConditionExpression, names(b))(old?.item ?? {})) {
      throw awsError(400, 'ConditionalCheckFailedException', 'The conditional request failed');
    }
    c.db.items.put(k, { table: table.name, item } satisfies ItemDoc);
    return b.ReturnValues === 'ALL_OLD' && old ? { Attributes: old.item } : {};
  }),
  jsonOp('dynamodb', 'Query', (b, c) => {
    const table = tableOf(c, b);
    if (typeof b.KeyConditionExpression !== 'string') throw invalid('Either the KeyConditions or KeyConditionExpression parameter must be specified in the request.');
    const x = names(b);
    const keyTest = conjunction(b.KeyConditionExpression, x);
    let all = itemsOf(c, table).filter(keyTest);
    if (b.ScanIndexForward === false) all = all.reverse();
    return page(table, all, b, typeof b.FilterExpression === 'string' ? conjunction(b.FilterExpression, x) : null);
  }),
  jsonOp('dynamodb', 'Scan', (b, c) => {
    const table = tableOf(c, b);
    return page(table, itemsOf(c, table), b, typeof b.FilterExpression === 'string' ? conjunction(b.FilterExpression, names(b)) : null);
  }),
];

export const tableArn = (c: { db: AwsCtx['db'] }, region: string, name: string) => `arn:aws:dynamodb:${region}:${accountOf(c.db).account_id}:table/${name}`;
