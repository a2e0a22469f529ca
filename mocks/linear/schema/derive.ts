/**
 * Derives mocks/linear/schema/linear.graphql: the part of Linear's GraphQL schema that the pinned
 * server (@tacticlaunch/mcp-linear 1.4.3 with its own @linear/sdk 88) can send. Not used at run
 * time; rerun it when the server's pin changes:
 *
 *   node --import tsx mocks/linear/schema/derive.ts
 *
 * Where the facts come from (all inside the pinned package, nothing fetched):
 * - which root fields: the SDK methods the server calls (`this.client.X(`), the raw documents it
 *   sends itself (`requestGraphQL(\`…\`)`), and every single-entity root query of a type it
 *   reaches (the SDK's lazy getters, `await issue.state`, call those);
 * - which fields of each type: the SDK's generated documents (its fragments select what the
 *   SDK's models read), plus the connection fields its model methods query (`issue.comments()`);
 * - each field's type, nullability and arguments: the SDK's generated TypeScript types
 *   (`type Issue = Node & {…}`, `IssueCommentsArgs`, `declare enum …`), which codegen writes from
 *   Linear's schema one to one.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Kind, parse, type DocumentNode, type SelectionSetNode } from 'graphql';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '../../..');
const server = join(root, 'node_modules/@tacticlaunch/mcp-linear');
const serverSdk = join(server, 'node_modules/@linear/sdk/dist');
// The held-out client the tests use (@linear/sdk 98, a devDependency) sends newer fragments: the
// schema covers what it sends for the same methods too.
const testSdk = join(root, 'node_modules/@linear/sdk/dist');
function codegenTypes(dir: string): string {
  const file = readdirSync(dir).find((f) => /^index-.*\.d\.mts$/.test(f))!;
  const all = readFileSync(join(dir, file), 'utf8');
  // Only the codegen region: the schema's types one to one (the rest is the SDK's own classes).
  const start = all.indexOf('//#region src/_generated_documents.d.ts');
  return all.slice(start, all.indexOf('//#endregion', start));
}
const serverJs = readFileSync(join(server, 'dist/services/linear-service.js'), 'utf8');

// ---- the SDK's types, read from its d.ts ----
interface FieldType { name: string; nonNull: boolean; list: null | { itemNonNull: boolean } }
interface TypeDef { kind: 'object' | 'interface' | 'input' | 'enum' | 'union' | 'scalar'; name: string; fields: Map<string, FieldType>; implements: string[]; values: string[]; members: string[] }
const types = new Map<string, TypeDef>();
const BUILTIN = new Set(['ID', 'String', 'Boolean', 'Int', 'Float']);

function fieldType(text: string): FieldType {
  let t = text.trim();
  let nonNull = true;
  const maybe = /^(?:InputMaybe|Maybe)<([\s\S]*)>$/.exec(t);
  if (maybe) { nonNull = false; t = maybe[1]!.trim(); }
  const array = /^Array<([\s\S]*)>$/.exec(t);
  if (array) {
    let inner = array[1]!.trim();
    let itemNonNull = true;
    const innerMaybe = /^(?:InputMaybe|Maybe)<([\s\S]*)>$/.exec(inner);
    if (innerMaybe) { itemNonNull = false; inner = innerMaybe[1]!.trim(); }
    return { name: baseName(inner), nonNull, list: { itemNonNull } };
  }
  return { name: baseName(t), nonNull, list: null };
}
function baseName(t: string): string {
  const scalar = /^Scalars\["(\w+)"\]$/.exec(t);
  if (scalar) return scalar[1]!;
  t = t.replace(/\$\d+$/, ''); // the bundler's rename of a clashing declaration
  if (!/^\w+$/.test(t)) throw new Error(`unexpected type expression ${t}`);
  return t;
}

/** Reads one SDK's codegen types into `types`: objects, inputs, interfaces, unions, enums, scalars. */
function readTypes(dts: string): void {
  const scalarBlock = /^type Scalars = \{([\s\S]*?)^\};/m.exec(dts)![1]!;
  for (const m of scalarBlock.matchAll(/^  (\w+):/gm)) if (!BUILTIN.has(m[1]!)) types.set(m[1]!, { kind: 'scalar', name: m[1]!, fields: new Map(), implements: [], values: [], members: [] });

  for (const m of dts.matchAll(/^type ([\w$]+) = ((?:[\w$]+ & )*)\{\n([\s\S]*?)^\};/gm)) {
    const [, rawName, rawHeads, body] = m as unknown as [string, string, string, string];
    const name = rawName.replace(/\$\d+$/, '');
    const heads = rawHeads.replace(/\$\d+/g, '');
    if (name === 'Scalars' || /^(Exact|MakeOptional|MakeMaybe|Incremental)$/.test(name)) continue;
    // The documents' result and variable types (`IssueQuery`, `IssueFragment`) are not schema types.
    if (/(QueryVariables|MutationVariables|Fragment|Query|Mutation)$/.test(name) && name !== 'Query' && name !== 'Mutation') continue;
    const fields = new Map<string, FieldType>();
    let typename: string | null = null;
    for (const f of body.matchAll(/^  (\w+)(\??): ([^;\n]*);$/gm)) {
      if (f[1] === '__typename') { typename = /"(\w+)"/.exec(f[3]!)?.[1] ?? null; continue; }
      const ft = fieldType(f[3]!);
      if (f[2] === '?' && /^(InputMaybe|Maybe)</.test(f[3]!.trim()) === false) ft.nonNull = false;
      fields.set(f[1]!, ft);
    }
    const kind: TypeDef['kind'] = typename ? 'object' : 'input';
    types.set(name, { kind, name, fields, implements: heads.split('&').map((s) => s.trim()).filter(Boolean), values: [], members: [] });
  }
  // Interfaces are what object types are intersected with (`type IssueNotification = Entity & Node & Notification & {`).
  for (const def of types.values()) for (const i of def.implements) { const t = types.get(i); if (t && t.kind === 'input') t.kind = 'interface'; }
  for (const m of dts.matchAll(/^type (\w+) = (\w+(?: \| \w+)+);$/gm)) types.set(m[1]!, { kind: 'union', name: m[1]!, fields: new Map(), implements: [], values: [], members: m[2]!.split(' | ') });
  for (const m of dts.matchAll(/^declare enum (\w+) \{\n([\s\S]*?)^\}/gm)) {
    const values = [...m[2]!.matchAll(/^  \w+ = "([^"]+)",?$/gm)].map((v) => v[1]!);
    types.set(m[1]!, { kind: 'enum', name: m[1]!, fields: new Map(), implements: [], values, members: [] });
  }
}
// The test SDK first, then the server's: the server's (older) view of a type wins where they differ, fields only the newer SDK has are added.
const merged = new Map<string, TypeDef>();
for (const dir of [testSdk, serverSdk]) {
  types.clear();
  readTypes(codegenTypes(dir));
  for (const [name, def] of types) {
    const old = merged.get(name);
    if (!old || old.kind !== def.kind) { merged.set(name, def); continue; }
    for (const [f, t] of def.fields) old.fields.set(f, t);
    old.values = [...new Set([...old.values, ...def.values])];
    old.members = [...new Set([...old.members, ...def.members])];
    old.implements = [...new Set([...old.implements, ...def.implements])];
  }
}
types.clear();
for (const [name, def] of merged) types.set(name, def);

function argsOf(type: string, field: string): Map<string, FieldType> | null {
  const def = types.get(`${type}${field[0]!.toUpperCase()}${field.slice(1)}Args`);
  return def ? def.fields : null;
}

// ---- the documents ----
interface Sdk { docs: Map<string, DocumentNode>; fragments: Map<string, { on: string; set: SelectionSetNode }>; clientClass: string }
function readSdk(dir: string): Sdk {
  const js = readFileSync(join(dir, 'index.mjs'), 'utf8');
  const docs = new Map<string, DocumentNode>();
  for (const m of js.matchAll(/const (\w+)Document = new TypedDocumentString\(`([\s\S]*?)`/g)) docs.set(m[1]!, parse(m[2]!));
  const fragments = new Map<string, { on: string; set: SelectionSetNode }>();
  for (const doc of docs.values()) for (const def of doc.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, { on: def.typeCondition.name.value, set: def.selectionSet });
  return { docs, fragments, clientClass: js.slice(js.indexOf('var LinearSdk = class'), js.indexOf('var LinearClient = class')) };
}
const sdks = [readSdk(serverSdk), readSdk(testSdk)];
let sdkDocs = sdks[0]!.docs;
let fragments = sdks[0]!.fragments;

// The server's own documents: template literals, with its string constants (`${MANAGED_OAUTH_APPLICATION_FIELDS}`)
// put back; a selection it builds at run time (`nodes${selection}`) is read from its builder below.
const constants = new Map([...serverJs.matchAll(/^const (\w+) = `([^`]*)`;/gm)].map((m) => [m[1]!, m[2]!]));
const rawDocs: DocumentNode[] = [];
const unparsed: string[] = [];
for (const m of serverJs.matchAll(/`\s*((?:query|mutation) \w+[\s\S]*?)`/g)) {
  const text = m[1]!.replace(/\$\{(\w+)\}/g, (_all, name: string) => constants.get(name) ?? '').replace(/\$\{[^}]*\}/g, '');
  try { rawDocs.push(parse(text)); } catch { unparsed.push(m[1]!.slice(0, 60)); }
}
// Selections the server assembles in `build<Type>Selection()`: the base literal plus its detailed extension.
const builtSelections: [string, string][] = [];
for (const m of serverJs.matchAll(/async build(\w+?)Selection\([^)]*\) \{([\s\S]*?)\n    \}\n/g)) {
  const literals = [...m[2]!.matchAll(/`([^`]*)`/g)].map((l) => l[1]!);
  const extension = literals.find((l) => l.includes('${base}'));
  builtSelections.push([m[1]!, extension ? literals[0]! + extension.replace('${base}', '') : literals[0]!]);
}

// Which SDK documents the server reaches: LinearClient methods it calls → their Query/Mutation class → document.
const called = new Set([...serverJs.matchAll(/this\.client\.(\w+)\b/g)].map((m) => m[1]!));
function usedDocs(sdk: Sdk): DocumentNode[] {
  const used: DocumentNode[] = [];
  for (const m of sdk.clientClass.matchAll(/^\t(?:get )?(\w+)\([^)]*\) \{\n\t\treturn new (\w+?)(Query|Mutation)\(/gm)) {
    if (!called.has(m[1]!)) continue;
    const doc = sdk.docs.get(m[2]!);
    if (doc) used.push(doc);
  }
  return used;
}

// ---- what to keep ----
const EMPTY = parse('{ __typename }');
const keep = new Map<string, Set<string>>(); // type → fields kept (objects/interfaces)
const keepTypes = new Set<string>();
const missing = new Set<string>();
function keepType(name: string): void {
  if (BUILTIN.has(name) || keepTypes.has(name)) return;
  const def = types.get(name);
  if (!def) throw new Error(`unknown type ${name}`);
  keepTypes.add(name);
}
function keepField(type: string, field: string): void {
  const def = types.get(type)!;
  if (!def.fields.has(field)) {
    // A field neither SDK types: reported below (the schema would lack it).
    missing.add(`${type}.${field}`);
    return;
  }
  keepType(type);
  let set = keep.get(type);
  if (!set) keep.set(type, set = new Set());
  if (set.has(field)) return;
  set.add(field);
  keepType(def.fields.get(field)!.name);
  for (const arg of argsOf(type, field)?.values() ?? []) keepType(arg.name);
}
function walk(type: string, set: SelectionSetNode, doc: DocumentNode): void {
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) {
      if (sel.name.value.startsWith('__')) continue;
      keepField(type, sel.name.value);
      if (sel.selectionSet) walk(types.get(type)!.fields.get(sel.name.value)!.name, sel.selectionSet, doc);
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      const on = sel.typeCondition?.name.value ?? type;
      keepType(on);
      walk(on, sel.selectionSet, doc);
    } else {
      const local = doc.definitions.find((d) => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === sel.name.value);
      const frag = local && local.kind === Kind.FRAGMENT_DEFINITION ? { on: local.typeCondition.name.value, set: local.selectionSet } : fragments.get(sel.name.value)!;
      keepType(frag.on);
      walk(frag.on, frag.set, doc);
    }
  }
}
function walkDoc(doc: DocumentNode): void {
  for (const def of doc.definitions) {
    if (def.kind !== Kind.OPERATION_DEFINITION) continue;
    walk(def.operation === 'mutation' ? 'Mutation' : 'Query', def.selectionSet, doc);
  }
}
for (const doc of rawDocs) walkDoc(doc);
for (const [type, selection] of builtSelections) walk(type, parse(`{ x ${selection} }`).definitions.flatMap((d) => d.kind === Kind.OPERATION_DEFINITION ? [d.selectionSet.selections[0]!] : []).map((f) => (f as { selectionSet: SelectionSetNode }).selectionSet)[0]!, EMPTY);
// Fixpoint: every kept object type gets its SDK fragment, its single-entity root query (lazy
// getters) and the mutations its model methods send, and its connection fields (model methods);
// kept interfaces are kept with their implementers' fields below.
const queryFields = types.get('Query')!.fields;
function closeOver(sdk: Sdk): void {
  sdkDocs = sdk.docs;
  fragments = sdk.fragments;
  for (const doc of usedDocs(sdk)) walkDoc(doc);
  const size = () => keepTypes.size + [...keep.values()].reduce((n, s) => n + s.size, 0);
  let before = -1;
  while (before !== size()) {
    before = size();
    for (const name of [...keepTypes]) {
      const def = types.get(name)!;
      if (def.kind === 'input') for (const f of def.fields.values()) keepType(f.name);
      if (def.kind === 'union') for (const m of def.members) keepType(m);
      if (def.kind !== 'object' && def.kind !== 'interface') continue;
      if (name === 'Query' || name === 'Mutation') continue;
      const frag = fragments.get(name);
      if (frag && frag.on === name) walk(name, frag.set, EMPTY);
      for (const i of def.implements) if (types.get(i)?.kind === 'interface') keepType(i);
      if (def.kind !== 'object') continue;
      const lc = name[0]!.toLowerCase() + name.slice(1);
      if (queryFields.get(lc)?.name === name && argsOf('Query', lc)?.has('id')) {
        keepField('Query', lc);
        // The models' own methods (`issue.update()`, `project.archive()`) send these mutations.
        for (const verb of ['Create', 'Update', 'Archive', 'Unarchive', 'Delete']) {
          const doc = sdkDocs.get(`${verb}${name}`) ?? sdkDocs.get(`${name}${verb}`);
          if (doc) walkDoc(doc);
        }
      }
      // Model methods: the connection fields of this type (the SDK's `Type_field` documents).
      for (const [field] of def.fields) {
        const sub = sdkDocs.get(`${name}_${field[0]!.toUpperCase()}${field.slice(1)}`);
        if (sub) walkDoc(sub);
      }
    }
  }
}
for (const sdk of sdks) closeOver(sdk);
// An interface's fields must be on every kept implementer.
for (const name of keepTypes) {
  const def = types.get(name)!;
  if (def.kind !== 'object') continue;
  for (const i of def.implements) {
    if (!keepTypes.has(i)) continue;
    for (const f of keep.get(i) ?? []) if (def.fields.has(f)) keepField(name, f);
  }
}

// ---- print ----
function typeRef(t: FieldType): string {
  const base = t.name;
  const inner = t.list ? `[${base}${t.list.itemNonNull ? '!' : ''}]` : base;
  return `${inner}${t.nonNull ? '!' : ''}`;
}
const out: string[] = [
  '# Linear\'s GraphQL schema, the part @tacticlaunch/mcp-linear@1.4.3 (with @linear/sdk 88) can send.',
  '# Derived by mocks/linear/schema/derive.ts from that SDK\'s generated documents and types; do not edit by hand.',
  '',
];
const order = [...keepTypes].sort();
for (const name of order) {
  const def = types.get(name)!;
  if (def.kind === 'scalar') { out.push(`scalar ${name}`, ''); continue; }
  if (def.kind === 'enum') { out.push(`enum ${name} {`, ...def.values.map((v) => `  ${v}`), '}', ''); continue; }
  if (def.kind === 'union') { out.push(`union ${name} = ${def.members.filter((m) => keepTypes.has(m)).join(' | ')}`, ''); continue; }
  if (def.kind === 'input') {
    out.push(`input ${name} {`, ...[...def.fields].map(([f, t]) => `  ${f}: ${typeRef(t)}`), '}', '');
    continue;
  }
  const fields = [...(keep.get(name) ?? [])].sort();
  if (fields.length === 0) fields.push(def.fields.has('id') ? 'id' : [...def.fields.keys()][0]!);
  const impl = def.implements.filter((i) => keepTypes.has(i) && types.get(i)!.kind === 'interface');
  out.push(`${def.kind === 'interface' ? 'interface' : 'type'} ${name}${impl.length ? ` implements ${impl.join(' & ')}` : ''} {`);
  for (const f of fields) {
    const args = argsOf(name, f);
    const argText = args && args.size ? `(${[...args].map(([a, t]) => `${a}: ${typeRef(t)}`).join(', ')})` : '';
    out.push(`  ${f}${argText}: ${typeRef(def.fields.get(f)!)}`);
  }
  out.push('}', '');
}
const sdl = out.join('\n');
if (sdl.includes('`') || sdl.includes('${')) throw new Error('the SDL would break its template literal');
// A module, not a .graphql file: tsc carries it into dist/ and no file is read at run time.
writeFileSync(join(here, 'sdl.ts'), `/* eslint-disable */\n// Generated by mocks/linear/schema/derive.ts; do not edit.\nexport const linearSDL = \`\n${sdl}\`;\n`);
// Documents the server assembles from introspection at run time (favorites, custom fields) pick
// fields of the schema they find, so they need nothing beyond it.
if (unparsed.length) console.log(`server documents built at run time (from introspection): ${unparsed.join(' | ')}`);
if (missing.size) throw new Error(`fields the server sends that neither SDK types: ${[...missing].sort().join(', ')}`);
console.log(`${keepTypes.size} types, ${keep.get('Query')?.size} queries, ${keep.get('Mutation')?.size} mutations`);
