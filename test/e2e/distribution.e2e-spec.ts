import { DISTRIBUTION_COLUMN, GLOBAL_TABLES } from '@workbase/shared/persistence';
import type { Client } from 'pg';
import { useTestDatabase } from '../support/suite';

interface TableRow {
  oid: number;
  schema: string;
  name: string;
  column_attnum: number | null;
  column_not_null: boolean | null;
}
interface KeyRow {
  table_oid: number;
  name: string;
  kind: 'primary key' | 'unique constraint' | 'unique index' | 'exclusion constraint';
  attnums: number[];
  columns: string;
}
interface ForeignKeyRow {
  table_oid: number;
  name: string;
  target_oid: number;
  attnums: number[];
  target_attnums: number[];
  definition: string;
}

const SYSTEM_SCHEMAS = ['pg_catalog', 'information_schema', 'pg_toast'];

function globalEntry(table: { schema: string; name: string }) {
  return GLOBAL_TABLES[table.schema === 'public' ? table.name : `${table.schema}.${table.name}`] ?? GLOBAL_TABLES[`${table.schema}.*`];
}

/**
 * What Citus needs to distribute every workspace table by `workspace_id`, co-located: every table
 * not listed in GLOBAL_TABLES has the column (NOT NULL), and its primary key, every unique
 * constraint or index, every exclusion constraint and every foreign key to another workspace table
 * include it (the foreign key pairing it with the target's). Global tables: reference tables may
 * be referenced, local ones not; a reference table references no workspace table.
 * Returns one line per violation, naming the table, the constraint and what is missing.
 */
async function distributionProblems(client: Client): Promise<string[]> {
  const tables = (
    await client.query<TableRow>(
      `SELECT c.oid::int AS oid, n.nspname AS schema, c.relname AS name, a.attnum::int AS column_attnum, a.attnotnull AS column_not_null
         FROM pg_class c
         JOIN pg_namespace n ON n.oid = c.relnamespace
         LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = $1 AND NOT a.attisdropped
        WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition AND n.nspname <> ALL ($2::text[]) AND n.nspname NOT LIKE 'pg_temp%'
        ORDER BY 2, 3`,
      [DISTRIBUTION_COLUMN, SYSTEM_SCHEMAS],
    )
  ).rows;
  const keys = (
    await client.query<KeyRow>(
      `SELECT i.indrelid::int AS table_oid, ic.relname AS name,
              CASE WHEN con.contype = 'p' THEN 'primary key' WHEN con.contype = 'u' THEN 'unique constraint'
                   WHEN con.contype = 'x' THEN 'exclusion constraint' ELSE 'unique index' END AS kind,
              i.indkey::int[] AS attnums,
              pg_get_indexdef(i.indexrelid) AS columns
         FROM pg_index i
         JOIN pg_class ic ON ic.oid = i.indexrelid
         LEFT JOIN pg_constraint con ON con.conindid = i.indexrelid AND con.conrelid = i.indrelid
        WHERE i.indisunique OR con.contype = 'x'`,
    )
  ).rows;
  const foreignKeys = (
    await client.query<ForeignKeyRow>(
      `SELECT conrelid::int AS table_oid, conname AS name, confrelid::int AS target_oid, conkey::int[] AS attnums, confkey::int[] AS target_attnums,
              pg_get_constraintdef(oid) AS definition
         FROM pg_constraint WHERE contype = 'f'`,
    )
  ).rows;

  const byOid = new Map(tables.map((table) => [table.oid, table]));
  const label = (table: TableRow) => (table.schema === 'public' ? table.name : `${table.schema}.${table.name}`);
  const problems: string[] = [];

  for (const name of Object.keys(GLOBAL_TABLES)) {
    const [schema, relation] = name.includes('.') ? name.split('.') : ['public', name];
    if (relation !== '*' && !tables.some((table) => table.schema === schema && table.name === relation)) {
      problems.push(`GLOBAL_TABLES lists "${name}", which the migrated schema does not have: remove the stale entry`);
    }
  }

  for (const table of tables) {
    const global = globalEntry(table);
    if (global) {
      if (global.kind === 'reference') {
        for (const fk of foreignKeys.filter((key) => key.table_oid === table.oid)) {
          const target = byOid.get(fk.target_oid);
          if (target && !globalEntry(target)) {
            problems.push(`${label(table)} (reference table): foreign key ${fk.name} points at the workspace table ${label(target)}; a reference table may reference only reference tables`);
          }
        }
      }
      continue;
    }
    const where = `${label(table)} (workspace data; not in GLOBAL_TABLES)`;
    if (table.column_attnum === null) {
      problems.push(`${where}: has no ${DISTRIBUTION_COLUMN} column (add it, or list the table in GLOBAL_TABLES in libs/shared/persistence/src/distribution.ts)`);
      continue;
    }
    if (!table.column_not_null) problems.push(`${where}: ${DISTRIBUTION_COLUMN} is nullable`);
    const ownKeys = keys.filter((key) => key.table_oid === table.oid);
    const primaryKey = ownKeys.find((key) => key.kind === 'primary key');
    if (!primaryKey) problems.push(`${where}: has no primary key`);
    else if (primaryKey.attnums[0] !== table.column_attnum) {
      problems.push(
        primaryKey.attnums.includes(table.column_attnum)
          ? `${where}: primary key ${primaryKey.name} has ${DISTRIBUTION_COLUMN} but not first: ${primaryKey.columns}`
          : `${where}: primary key ${primaryKey.name} lacks ${DISTRIBUTION_COLUMN}: ${primaryKey.columns}`,
      );
    }
    for (const key of ownKeys.filter((candidate) => candidate.kind !== 'primary key')) {
      if (!key.attnums.includes(table.column_attnum)) problems.push(`${where}: ${key.kind} ${key.name} lacks ${DISTRIBUTION_COLUMN}: ${key.columns}`);
    }
    for (const fk of foreignKeys.filter((key) => key.table_oid === table.oid)) {
      const target = byOid.get(fk.target_oid);
      if (!target) continue;
      const targetGlobal = globalEntry(target);
      if (targetGlobal) {
        if (targetGlobal.kind !== 'reference') problems.push(`${where}: foreign key ${fk.name} points at ${label(target)}, a local table; only reference tables can be referenced: ${fk.definition}`);
        continue;
      }
      const position = fk.attnums.indexOf(table.column_attnum);
      if (position < 0 || fk.target_attnums[position] !== target.column_attnum) {
        problems.push(`${where}: foreign key ${fk.name} to the workspace table ${label(target)} does not pair ${DISTRIBUTION_COLUMN} with ${label(target)}.${DISTRIBUTION_COLUMN}: ${fk.definition}`);
      }
    }
  }
  return problems;
}

describe('the schema is ready to be distributed by workspace_id (Citus)', () => {
  const database = useTestDatabase();

  it('holds for every table of the migrated schema, with the global tables named in GLOBAL_TABLES', async () => {
    const tables = (await database.client.query<{ name: string }>(`SELECT relname AS name FROM pg_class WHERE relkind IN ('r', 'p') AND relnamespace = 'public'::regnamespace`)).rows.map((row) => row.name);
    // Guard against a vacuous pass: the schema really was migrated, and most of it is workspace data.
    expect(tables).toEqual(expect.arrayContaining(['workspaces', 'records', 'record_values', 'webhooks', 'api_tokens']));
    expect(tables.filter((name) => !GLOBAL_TABLES[name]).length).toBeGreaterThan(15);
    expect(await distributionProblems(database.client)).toEqual([]);
  });

  it('names the table, the constraint and what is missing for each kind of violation', async () => {
    await database.client.query('BEGIN');
    await database.client.query(`CREATE TABLE dist_probe_parent (workspace_id uuid NOT NULL, id uuid NOT NULL, PRIMARY KEY (workspace_id, id))`);
    await database.client.query(`CREATE TABLE dist_probe_no_column (id uuid PRIMARY KEY)`);
    await database.client.query(`
      CREATE TABLE dist_probe_bad (
        id uuid NOT NULL,
        workspace_id uuid,
        parent_id uuid,
        slug text,
        consumer text REFERENCES webhook_dispatch_cursor (consumer),
        CONSTRAINT dist_probe_bad_pkey PRIMARY KEY (id, workspace_id),
        CONSTRAINT dist_probe_bad_slug UNIQUE (slug),
        CONSTRAINT dist_probe_bad_parent FOREIGN KEY (parent_id, workspace_id) REFERENCES dist_probe_parent (workspace_id, id)
      )`);
    await database.client.query(`CREATE TABLE dist_probe_nullable (workspace_id uuid, id uuid, UNIQUE (workspace_id, id))`);
    await database.client.query(`CREATE UNIQUE INDEX dist_probe_bad_lower_slug ON dist_probe_bad (lower(slug))`);
    await database.client.query(`CREATE TABLE migrations_cursor_probe (consumer text PRIMARY KEY, workspace_id uuid NOT NULL, record_id uuid NOT NULL)`);
    await database.client.query(`ALTER TABLE oauth_apps ADD COLUMN probe_workspace_id uuid, ADD COLUMN probe_id uuid, ADD CONSTRAINT oauth_apps_probe FOREIGN KEY (probe_workspace_id, probe_id) REFERENCES dist_probe_parent (workspace_id, id)`);
    try {
      const problems = await distributionProblems(database.client);
      const about = (table: string) => problems.filter((line) => line.startsWith(`${table} `));
      expect(about('dist_probe_no_column')).toEqual([expect.stringMatching(/^dist_probe_no_column \(workspace data; not in GLOBAL_TABLES\): has no workspace_id column \(add it, or list the table in GLOBAL_TABLES/)]);
      expect(about('dist_probe_bad')).toEqual(
        expect.arrayContaining([
          expect.stringContaining('primary key dist_probe_bad_pkey has workspace_id but not first'),
          expect.stringMatching(/unique constraint dist_probe_bad_slug lacks workspace_id: .*\(slug\)/),
          expect.stringMatching(/unique index dist_probe_bad_lower_slug lacks workspace_id: .*lower\(slug\)/),
          expect.stringMatching(/foreign key dist_probe_bad_parent to the workspace table dist_probe_parent does not pair workspace_id with dist_probe_parent\.workspace_id/),
          expect.stringMatching(/foreign key dist_probe_bad_consumer_fkey points at webhook_dispatch_cursor, a local table; only reference tables can be referenced/),
        ]),
      );
      expect(about('dist_probe_parent')).toEqual([]);
      expect(about('dist_probe_nullable')).toEqual([
        'dist_probe_nullable (workspace data; not in GLOBAL_TABLES): workspace_id is nullable',
        'dist_probe_nullable (workspace data; not in GLOBAL_TABLES): has no primary key',
      ]);
      expect(about('migrations_cursor_probe')).toEqual([expect.stringContaining('primary key migrations_cursor_probe_pkey lacks workspace_id: CREATE UNIQUE INDEX migrations_cursor_probe_pkey')]);
      expect(about('oauth_apps')).toEqual([expect.stringContaining('oauth_apps (reference table): foreign key oauth_apps_probe points at the workspace table dist_probe_parent')]);
      expect(problems.filter((line) => !/^(dist_probe_\w+|migrations_cursor_probe|oauth_apps) /.test(line))).toEqual([]);
    } finally {
      await database.client.query('ROLLBACK');
    }
  });

  it('flags a GLOBAL_TABLES entry for a table the schema no longer has', async () => {
    await database.client.query('BEGIN');
    try {
      await database.client.query(`ALTER TABLE webhook_dispatch_cursor RENAME TO webhook_dispatch_cursor_renamed`);
      const problems = await distributionProblems(database.client);
      expect(problems).toContain('GLOBAL_TABLES lists "webhook_dispatch_cursor", which the migrated schema does not have: remove the stale entry');
      // Renamed, the table is no longer listed, so it counts as workspace data without the column.
      expect(problems).toContainEqual(expect.stringMatching(/^webhook_dispatch_cursor_renamed \(workspace data; not in GLOBAL_TABLES\): has no workspace_id column/));
    } finally {
      await database.client.query('ROLLBACK');
    }
  });
});
