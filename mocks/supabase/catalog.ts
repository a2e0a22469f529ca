import type { Json } from '../core/store.js';
import type { Relation, Row } from './sql-exec.js';
import type { ColumnDoc, ProjectDoc, TableDoc } from './model.js';
import type { Workspace } from './workspace.js';

/**
 * What the database says about itself, derived from the tables the project has: the
 * information_schema and pg_catalog views agents query, the rows of postgres-meta's table and
 * extension queries (which the MCP server's list_tables and list_extensions send verbatim), the
 * generated TypeScript types, and the database linter's findings the advisors report.
 */

const DATA_TYPE: Record<string, string> = {
  int8: 'bigint', int4: 'integer', int2: 'smallint', text: 'text', varchar: 'character varying', bpchar: 'character', bool: 'boolean', uuid: 'uuid',
  timestamptz: 'timestamp with time zone', timestamp: 'timestamp without time zone', date: 'date', time: 'time without time zone', numeric: 'numeric',
  float4: 'real', float8: 'double precision', jsonb: 'jsonb', json: 'json', bytea: 'bytea', inet: 'inet', citext: 'USER-DEFINED', interval: 'interval',
};

export function dataType(type: string): string {
  if (type.startsWith('_')) return 'ARRAY';
  return DATA_TYPE[type] ?? 'USER-DEFINED';
}
const udtName = (type: string) => (type.includes('.') ? type.split('.').pop()! : type);

function relation(schema: string, name: string, columns: string[], rows: Row[]): Relation {
  return { schema, name, columns, rows: () => rows };
}

const SYSTEM = new Set(['information_schema', 'pg_catalog']);

/** The catalog views by name (`information_schema.tables`, `pg_tables`, …), or null. */
export function catalogRelation(ws: Workspace, schema: string | null, name: string): Relation | null {
  if (schema !== null && !SYSTEM.has(schema)) return null;
  const tables = ws.allTables();
  const info = schema === 'information_schema';
  const pg = schema === null || schema === 'pg_catalog';
  if (info && name === 'tables') {
    return relation('information_schema', 'tables', ['table_catalog', 'table_schema', 'table_name', 'table_type', 'is_insertable_into'],
      tables.map((t) => ({ table_catalog: 'postgres', table_schema: t.schema, table_name: t.name, table_type: 'BASE TABLE', is_insertable_into: 'YES' })));
  }
  if (info && name === 'columns') {
    return relation('information_schema', 'columns', ['table_catalog', 'table_schema', 'table_name', 'column_name', 'ordinal_position', 'column_default', 'is_nullable', 'data_type', 'udt_name', 'is_identity', 'identity_generation'],
      tables.flatMap((t) => t.columns.map((c, i) => ({
        table_catalog: 'postgres', table_schema: t.schema, table_name: t.name, column_name: c.name, ordinal_position: i + 1, column_default: c.default,
        is_nullable: c.not_null ? 'NO' : 'YES', data_type: dataType(c.type), udt_name: udtName(c.type), is_identity: c.identity ? 'YES' : 'NO', identity_generation: c.identity,
      }))));
  }
  if (info && name === 'schemata') {
    return relation('information_schema', 'schemata', ['catalog_name', 'schema_name', 'schema_owner'], ws.project.schemas.map((s) => ({ catalog_name: 'postgres', schema_name: s, schema_owner: 'postgres' })));
  }
  if (pg && name === 'pg_tables') {
    return relation('pg_catalog', 'pg_tables', ['schemaname', 'tablename', 'tableowner', 'tablespace', 'hasindexes', 'hasrules', 'hastriggers', 'rowsecurity'],
      tables.map((t) => ({ schemaname: t.schema, tablename: t.name, tableowner: 'postgres', tablespace: null, hasindexes: t.primary_key.length > 0 || t.indexes.length > 0, hasrules: false, hastriggers: t.foreign_keys.length > 0, rowsecurity: t.rls_enabled })));
  }
  if (pg && name === 'pg_policies') {
    return relation('pg_catalog', 'pg_policies', ['schemaname', 'tablename', 'policyname', 'permissive', 'roles', 'cmd', 'qual', 'with_check'],
      tables.flatMap((t) => t.policies.map((p) => ({ schemaname: t.schema, tablename: t.name, policyname: p.name, permissive: 'PERMISSIVE', roles: `{${p.roles.join(',')}}`, cmd: p.command, qual: p.using, with_check: p.check }))));
  }
  if (pg && name === 'pg_indexes') {
    return relation('pg_catalog', 'pg_indexes', ['schemaname', 'tablename', 'indexname', 'tablespace', 'indexdef'], tables.flatMap((t) => [
      ...(t.primary_key.length ? [{ schemaname: t.schema, tablename: t.name, indexname: `${t.name}_pkey`, tablespace: null, indexdef: `CREATE UNIQUE INDEX ${t.name}_pkey ON ${t.schema}.${t.name} USING btree (${t.primary_key.join(', ')})` }] : []),
      ...t.indexes.map((i) => ({ schemaname: t.schema, tablename: t.name, indexname: i.name, tablespace: null, indexdef: `CREATE ${i.unique ? 'UNIQUE ' : ''}INDEX ${i.name} ON ${t.schema}.${t.name} USING btree (${i.columns.join(', ')})` })),
    ]));
  }
  if (pg && name === 'pg_extension') {
    return relation('pg_catalog', 'pg_extension', ['extname', 'extversion', 'extrelocatable'], ws.project.extensions.filter((e) => e.installed_version).map((e) => ({ extname: e.name, extversion: e.installed_version, extrelocatable: false })));
  }
  if (pg && name === 'pg_available_extensions') {
    return relation('pg_catalog', 'pg_available_extensions', ['name', 'default_version', 'installed_version', 'comment'], ws.project.extensions.map((e) => ({ name: e.name, default_version: e.default_version, installed_version: e.installed_version, comment: e.comment })));
  }
  if (pg && name === 'pg_namespace') {
    return relation('pg_catalog', 'pg_namespace', ['nspname', 'nspowner'], ws.project.schemas.map((s) => ({ nspname: s, nspowner: 10 })));
  }
  return null;
}

function estimateBytes(rows: number): number { return 16384 + 8192 * Math.ceil(rows / 60); }

/** postgres-meta's table rows (tables.sql + columns.sql), filtered by schema as list_tables asks. */
export function pgMetaTables(ws: Workspace, schemas: string[], exclude: boolean): Row[] {
  const tables = ws.allTables().filter((t) => schemas.includes(t.schema) !== exclude);
  const all = ws.allTables();
  return tables.map((t) => {
    const rows = ws.rowsOf(`${t.schema}.${t.name}`).size;
    const bytes = estimateBytes(rows);
    const relationships = all.flatMap((s) => s.foreign_keys.map((fk, i) => ({ s, fk, i })))
      .filter(({ s, fk }) => (s.schema === t.schema && s.name === t.name) || (fk.target_schema === t.schema && fk.target_table === t.name))
      .map(({ s, fk, i }) => ({
        id: s.oid * 100 + i + 1, constraint_name: fk.name, source_schema: s.schema, source_table_name: s.name, source_columns: fk.columns,
        target_table_schema: fk.target_schema, target_table_name: fk.target_table, target_columns: fk.target_columns,
      }));
    return {
      id: t.oid, schema: t.schema, name: t.name, rls_enabled: t.rls_enabled, rls_forced: t.rls_forced, replica_identity: 'DEFAULT',
      bytes, size: `${bytes / 1024} kB`, live_rows_estimate: rows, dead_rows_estimate: 0, comment: t.comment,
      primary_keys: t.primary_key.map((name) => ({ schema: t.schema, table_name: t.name, name, table_id: t.oid })),
      relationships,
      columns: t.columns.map((c, i) => pgMetaColumn(ws.project, t, c, i)),
    } as Row;
  });
}

function pgMetaColumn(project: ProjectDoc, t: TableDoc, c: ColumnDoc, i: number): Json {
  return {
    table_id: t.oid, schema: t.schema, table: t.name, id: `${t.oid}.${i + 1}`, ordinal_position: i + 1, name: c.name,
    default_value: c.default, data_type: dataType(c.type), format: udtName(c.type), is_identity: c.identity !== null, identity_generation: c.identity,
    is_generated: false, is_nullable: !c.not_null, is_updatable: true, is_unique: c.unique || t.uniques.some((u) => u.length === 1 && u[0] === c.name),
    enums: project.enums[c.type] ?? [], check: c.check, comment: c.comment,
  };
}

/** postgres-meta's extension rows: every available extension, installed or not. */
export function pgMetaExtensions(project: ProjectDoc): Row[] {
  return project.extensions.map((e) => ({ name: e.name, schema: e.schema, default_version: e.default_version, installed_version: e.installed_version, comment: e.comment }));
}

// ---- TypeScript types, as `supabase gen types typescript` writes them

function tsType(project: ProjectDoc, type: string): string {
  if (type.startsWith('_')) return `${tsType(project, type.slice(1))}[]`;
  if (['int2', 'int4', 'int8', 'numeric', 'float4', 'float8'].includes(type)) return 'number';
  if (type === 'bool') return 'boolean';
  if (type === 'json' || type === 'jsonb') return 'Json';
  if (project.enums[type]) return `Database["${type.split('.')[0]}"]["Enums"]["${udtName(type)}"]`;
  return 'string';
}

export function typescriptTypes(ws: Workspace, schemas: string[]): string {
  const project = ws.project;
  const lines: string[] = [
    'export type Json =', '  | string', '  | number', '  | boolean', '  | null', '  | { [key: string]: Json | undefined }', '  | Json[]', '',
    'export type Database = {',
  ];
  const never = '{\n      [_ in never]: never\n    }';
  for (const schema of schemas) {
    const tables = ws.allTables().filter((t) => t.schema === schema).sort((a, b) => a.name.localeCompare(b.name));
    lines.push(`  ${schema}: {`, '    Tables: {');
    if (tables.length === 0) lines.push('      [_ in never]: never');
    for (const t of tables) {
      lines.push(`      ${t.name}: {`);
      const cols = [...t.columns].sort((a, b) => a.name.localeCompare(b.name));
      for (const [part, optional] of [['Row', false], ['Insert', true], ['Update', true]] as const) {
        lines.push(`        ${part}: {`);
        for (const c of cols) {
          const opt = part === 'Update' || (optional && (!c.not_null || c.default !== null || c.identity !== null)) ? '?' : '';
          lines.push(`          ${c.name}${opt}: ${tsType(project, c.type)}${c.not_null ? '' : ' | null'}`);
        }
        lines.push('        }');
      }
      if (t.foreign_keys.length === 0) lines.push('        Relationships: []');
      else {
        lines.push('        Relationships: [');
        for (const fk of t.foreign_keys) {
          lines.push('          {', `            foreignKeyName: "${fk.name}"`, `            columns: [${fk.columns.map((c) => `"${c}"`).join(', ')}]`, '            isOneToOne: false',
            `            referencedRelation: "${fk.target_table}"`, `            referencedColumns: [${fk.target_columns.map((c) => `"${c}"`).join(', ')}]`, '          },');
        }
        lines.push('        ]');
      }
      lines.push('      }');
    }
    lines.push('    }', `    Views: ${never}`, `    Functions: ${never}`);
    const enums = Object.entries(project.enums).filter(([name]) => name.startsWith(`${schema}.`));
    if (enums.length === 0) lines.push(`    Enums: ${never}`);
    else {
      lines.push('    Enums: {');
      for (const [name, labels] of enums) lines.push(`      ${udtName(name)}: ${labels.map((l) => `"${l}"`).join(' | ')}`);
      lines.push('    }');
    }
    lines.push(`    CompositeTypes: ${never}`, '  }');
  }
  lines.push('}', '',
    'type DatabaseWithoutInternals = Omit<Database, "__InternalSupabase">', '',
    'type DefaultSchema = DatabaseWithoutInternals[Extract<keyof Database, "public">]', '',
    'export type Tables<T extends keyof DefaultSchema["Tables"]> = DefaultSchema["Tables"][T]["Row"]',
    'export type TablesInsert<T extends keyof DefaultSchema["Tables"]> = DefaultSchema["Tables"][T]["Insert"]',
    'export type TablesUpdate<T extends keyof DefaultSchema["Tables"]> = DefaultSchema["Tables"][T]["Update"]',
    'export type Enums<T extends keyof DefaultSchema["Enums"]> = DefaultSchema["Enums"][T]', '');
  return lines.join('\n');
}

// ---- the database linter (splinter) findings the advisors endpoints report

const LINT_DOCS = 'https://supabase.com/docs/guides/database/database-linter?lint=';

export function computedLints(ws: Workspace, type: 'security' | 'performance'): Row[] {
  const out: Row[] = [];
  for (const t of ws.allTables()) {
    if (t.schema !== 'public') continue;
    const metadata = { schema: t.schema, name: t.name, type: 'table' };
    if (type === 'security' && !t.rls_enabled) {
      out.push(t.policies.length > 0 ? {
        name: 'policy_exists_rls_disabled', title: 'Policy Exists RLS Disabled', level: 'ERROR', facing: 'EXTERNAL', categories: ['SECURITY'],
        description: 'Detects cases where row level security (RLS) policies have been created, but RLS has not been enabled for the underlying table.',
        detail: `Table \`${t.schema}.${t.name}\` has RLS policies but RLS is not enabled on the table. Policies include {${t.policies.map((p) => p.name).join(',')}}.`,
        remediation: `${LINT_DOCS}0007_policy_exists_rls_disabled`, metadata, cache_key: `policy_exists_rls_disabled_${t.schema}_${t.name}`,
      } : {
        name: 'rls_disabled_in_public', title: 'RLS Disabled in Public', level: 'ERROR', facing: 'EXTERNAL', categories: ['SECURITY'],
        description: 'Detects cases where row level security (RLS) has not been enabled on tables in schemas exposed to PostgREST',
        detail: `Table \`${t.schema}.${t.name}\` is public, but RLS has not been enabled.`,
        remediation: `${LINT_DOCS}0013_rls_disabled_in_public`, metadata, cache_key: `rls_disabled_in_public_${t.schema}_${t.name}`,
      });
    }
    if (type === 'security' && t.rls_enabled && t.policies.length === 0) {
      out.push({
        name: 'rls_enabled_no_policy', title: 'RLS Enabled No Policy', level: 'INFO', facing: 'EXTERNAL', categories: ['SECURITY'],
        description: 'Detects cases where row level security (RLS) has been enabled on a table but no RLS policies have been created.',
        detail: `Table \`${t.schema}.${t.name}\` has RLS enabled, but no policies exist`,
        remediation: `${LINT_DOCS}0008_rls_enabled_no_policy`, metadata, cache_key: `rls_enabled_no_policy_${t.schema}_${t.name}`,
      });
    }
    if (type === 'performance') {
      for (const fk of t.foreign_keys) {
        const covered = [t.primary_key, ...t.indexes.map((i) => i.columns)].some((cols) => fk.columns.every((c, i) => cols[i] === c));
        if (covered) continue;
        out.push({
          name: 'unindexed_foreign_keys', title: 'Unindexed foreign keys', level: 'INFO', facing: 'EXTERNAL', categories: ['PERFORMANCE'],
          description: 'Identifies foreign key constraints without a covering index, which can impact database performance.',
          detail: `Table \`${t.schema}.${t.name}\` has a foreign key \`${fk.name}\` without a covering index. This can lead to suboptimal query performance.`,
          remediation: `${LINT_DOCS}0001_unindexed_foreign_keys`, metadata: { ...metadata, fkey_name: fk.name, fkey_columns: fk.columns.map((c) => t.columns.findIndex((x) => x.name === c) + 1) },
          cache_key: `unindexed_foreign_keys_${t.schema}_${t.name}_${fk.name}`,
        });
      }
    }
  }
  return out;
}
