import { createReadStream, createWriteStream, promises as fs } from 'node:fs';
import { once } from 'node:events';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { PassThrough } from 'node:stream';
import { createGunzip, createGzip } from 'node:zlib';
import { MIGRATIONS, standaloneClient } from '@workbase/shared/persistence';
import type { Client } from 'pg';
import PgBoss from 'pg-boss';
import { DataSource } from 'typeorm';
import { UsageError } from './commands';

/**
 * Logical backups of the service's database, made with the client alone: the embedded cluster
 * ships `postgres`, `initdb` and `pg_ctl` but no `pg_dump`, and a Debian `pg_dump` older than the
 * embedded PostgreSQL 18 refuses to dump it.
 *
 * The file (gzip, JSON lines) holds the names of the applied migrations and every row of every
 * table of the `public` schema and of pg-boss's `pgboss` schema (the delivery queue), read in one
 * REPEATABLE READ snapshot, plus the positions of their sequences. A restore rebuilds the schema
 * by running the same migrations (and pg-boss's own construction plan), loads the rows with
 * triggers and foreign-key checks off (`session_replication_role = replica`), restores the
 * sequences, then applies any migration newer than the backup.
 */
const FORMAT = 'workbase-backup';
const VERSION = 1;
const SCHEMAS = ['public', 'pgboss'];
const BATCH_ROWS = 500;
/** A restore also sends a batch once its rows hold this many bytes (of JSON), so that wide rows do not pile up. */
const BATCH_BYTES = 16 * 1024 * 1024;
const FETCH_ROWS = 1000;
/** Tables of wide rows, fetched a few at a time: a file chunk is 1 MiB, 2 MiB as JSON (hex). */
const FETCH_ROWS_OF: Readonly<Record<string, number>> = { 'public.file_chunks': 4 };

interface Header {
  format: typeof FORMAT;
  version: number;
  created_at: string;
  server_version: string;
  migrations: string[];
  schemas: string[];
}

interface TableLine {
  table: string;
  columns: string[];
}

interface SequenceLine {
  sequences: Array<{ name: string; last_value: string; is_called: boolean }>;
}

export interface BackupSummary {
  file: string;
  tables: number;
  rows: number;
  migrations: number;
}

export async function backupDatabase(url: string, file: string): Promise<BackupSummary> {
  const target = path.resolve(file);
  const client = standaloneClient({ connectionString: url, application_name: 'workbase-backup' });
  await client.connect();
  const gzip = createGzip();
  const out = createWriteStream(`${target}.partial`, { mode: 0o600 });
  const written = pipeline(gzip, out);
  const write = async (value: unknown) => {
    if (!gzip.write(`${JSON.stringify(value)}\n`)) await once(gzip, 'drain');
  };
  let rows = 0;
  let tables = 0;
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const migrations = (await client.query<{ name: string }>(`SELECT name FROM migrations ORDER BY id`).catch(() => ({ rows: [] }))).rows.map((row) => row.name);
    if (migrations.length === 0) throw new UsageError('the database has no Workbase schema (no migrations applied): nothing to back up');
    const schemas = (await client.query<{ nspname: string }>(`SELECT nspname FROM pg_namespace WHERE nspname = ANY ($1)`, [SCHEMAS])).rows.map((row) => row.nspname);
    const header: Header = { format: FORMAT, version: VERSION, created_at: new Date().toISOString(), server_version: (await client.query('SHOW server_version')).rows[0].server_version, migrations, schemas };
    await write(header);
    for (const table of await listTables(client)) {
      if (table.name === 'public.migrations') continue; // rebuilt by running the same migrations
      await write({ table: table.name, columns: table.columns } satisfies TableLine);
      tables++;
      await client.query(`DECLARE rows_cursor NO SCROLL CURSOR FOR SELECT to_json(t)::text AS row FROM ${table.name} t`);
      const fetchRows = FETCH_ROWS_OF[table.name] ?? FETCH_ROWS;
      for (;;) {
        const batch = await client.query<{ row: string }>(`FETCH ${fetchRows} FROM rows_cursor`);
        for (const { row } of batch.rows) {
          if (!gzip.write(`${row}\n`)) await once(gzip, 'drain');
        }
        rows += batch.rows.length;
        if (batch.rows.length < fetchRows) break;
      }
      await client.query('CLOSE rows_cursor');
    }
    await write({ sequences: await readSequences(client) } satisfies SequenceLine);
    await client.query('COMMIT');
    gzip.end();
    await written;
    await fs.rename(`${target}.partial`, target);
    return { file: target, tables, rows, migrations: migrations.length };
  } catch (error) {
    gzip.destroy();
    await written.catch(() => undefined);
    await fs.rm(`${target}.partial`, { force: true });
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export interface RestoreSummary {
  file: string;
  tables: number;
  rows: number;
  migrations_applied_after: string[];
}

export async function restoreDatabase(url: string, file: string, options: { replace: boolean }): Promise<RestoreSummary> {
  const source = path.resolve(file);
  await fs.access(source).catch(() => {
    throw new UsageError(`backup file ${source} does not exist or cannot be read`);
  });
  const handle = await fs.open(source, 'r');
  const magic = Buffer.alloc(2);
  await handle.read(magic, 0, 2, 0).finally(() => handle.close());
  if (magic[0] !== 0x1f || magic[1] !== 0x8b) throw new UsageError(`${source} is not a Workbase backup (not a gzip file made by "cli backup")`);
  const gunzip = createGunzip();
  const text = new PassThrough();
  let broken: Error | null = null;
  gunzip.on('error', (error) => {
    broken = error;
    text.end();
  });
  createReadStream(source).pipe(gunzip).pipe(text);
  const lines = createInterface({ input: text, crlfDelay: Infinity });
  const iterator = lines[Symbol.asyncIterator]();
  const next = async (): Promise<string | null> => {
    const { value, done } = await iterator.next();
    if (broken) throw new UsageError(`${source} is damaged: ${(broken as Error).message}`);
    return done ? null : (value as string);
  };
  const header = parseHeader(await next(), source);
  const known = new Set(MIGRATIONS.map((migration) => migration.name));
  const unknown = header.migrations.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new UsageError(`the backup was made by another version of Workbase: its migrations ${unknown.slice(0, 3).join(', ')} are not this version's (restore it with the version that made it, then upgrade)`);
  }

  const client = standaloneClient({ connectionString: url, application_name: 'workbase-restore' });
  await client.connect();
  let tables = 0;
  let rows = 0;
  try {
    const others = await client.query<{ application_name: string }>(
      `SELECT DISTINCT application_name FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name LIKE 'workbase%'`,
    );
    if (others.rows.length > 0) throw new UsageError(`the database is in use by running Workbase processes (${others.rows.map((row) => row.application_name).join(', ')}): stop the API and the workers first`);
    const hasData = await client.query(`SELECT 1 FROM workspaces LIMIT 1`).then((result) => (result.rowCount ?? 0) > 0, () => false);
    if (hasData && !options.replace) throw new UsageError('the database already holds workspaces: pass --replace to overwrite everything in it with the backup');

    // The schema the backup was made on: the same migrations, then pg-boss's own tables.
    await client.query('DROP SCHEMA IF EXISTS pgboss CASCADE');
    await client.query('DROP SCHEMA IF EXISTS public CASCADE');
    await client.query('CREATE SCHEMA public');
    await runMigrationsNamed(url, new Set(header.migrations));
    if (header.schemas.includes('pgboss')) await client.query(PgBoss.getConstructionPlans('pgboss'));

    await client.query('BEGIN');
    await client.query(`SET LOCAL session_replication_role = replica`);
    const seeded = await listTables(client);
    // Rows the migrations seeded (the dispatch cursor, pg-boss's version) give way to the backup's.
    const toEmpty = seeded.filter((table) => table.name !== 'public.migrations').map((table) => table.name);
    if (toEmpty.length > 0) await client.query(`TRUNCATE ${toEmpty.join(', ')}`);

    let current: TableLine | null = null;
    let batch: string[] = [];
    let batchBytes = 0;
    const flush = async () => {
      if (!current || batch.length === 0) return;
      await insertRows(client, current, batch);
      rows += batch.length;
      batch = [];
      batchBytes = 0;
    };
    for (let line = await next(); line !== null; line = await next()) {
      if (line === '') continue;
      const value = JSON.parse(line) as Partial<TableLine & SequenceLine>;
      if (typeof value.table === 'string' && Array.isArray(value.columns) && Object.keys(value).length === 2) {
        await flush();
        current = { table: value.table, columns: value.columns };
        tables++;
        if (current.table === 'pgboss.queue') continue;
      } else if (Array.isArray(value.sequences) && Object.keys(value).length === 1) {
        await flush();
        current = null;
        for (const sequence of value.sequences) await client.query(`SELECT setval($1::regclass, $2::bigint, $3)`, [sequence.name, sequence.last_value, sequence.is_called]);
      } else {
        if (!current) throw new UsageError(`${source} is not a Workbase backup (a row outside any table)`);
        if (current.table === 'pgboss.queue') {
          // A queue is its partition of pgboss.job: create_queue makes both, then the row gets the backup's values.
          await client.query(`SELECT pgboss.create_queue($1, '{}'::json)`, [(value as { name: string }).name]);
          await client.query(`DELETE FROM pgboss.queue WHERE name = $1`, [(value as { name: string }).name]);
        }
        batch.push(line);
        batchBytes += line.length;
        if (batch.length >= BATCH_ROWS || batchBytes >= BATCH_BYTES) await flush();
      }
    }
    await flush();
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
  const after = await runMigrationsNamed(url, known);
  return { file: source, tables, rows, migrations_applied_after: after };
}

function parseHeader(line: string | null, source: string): Header {
  let header: Partial<Header> | null = null;
  try {
    header = line ? (JSON.parse(line) as Partial<Header>) : null;
  } catch {
    header = null;
  }
  if (!header || header.format !== FORMAT || !Array.isArray(header.migrations) || !Array.isArray(header.schemas)) {
    throw new UsageError(`${source} is not a Workbase backup (made by "cli backup")`);
  }
  if (header.version !== VERSION) throw new UsageError(`${source} is a backup of format version ${header.version}; this version reads ${VERSION}`);
  return header as Header;
}

/** Runs the named migrations (the ones a backup was made on, or all of them), in TypeORM's order. */
async function runMigrationsNamed(url: string, names: ReadonlySet<string>): Promise<string[]> {
  const migrations = MIGRATIONS.filter((migration) => names.has(migration.name));
  const dataSource = new DataSource({ type: 'postgres', url, migrations, migrationsTransactionMode: 'all', logging: false });
  await dataSource.initialize();
  try {
    return (await dataSource.runMigrations({ transaction: 'all' })).map((migration) => migration.name);
  } finally {
    await dataSource.destroy();
  }
}

/** Ordinary and partitioned tables of the backed-up schemas (partitions are read and written through their parent), with their writable columns. */
async function listTables(client: Client): Promise<Array<{ name: string; columns: string[] }>> {
  const result = await client.query<{ name: string; columns: string[] }>(
    `SELECT format('%I.%I', n.nspname, c.relname) AS name,
            array_agg(a.attname::text ORDER BY a.attnum) AS columns
       FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
      WHERE n.nspname = ANY ($1) AND c.relkind IN ('r', 'p') AND NOT c.relispartition
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = c.oid AND d.deptype = 'e')
      GROUP BY n.nspname, c.relname
      ORDER BY n.nspname DESC, c.relname <> 'queue', c.relname`,
    [SCHEMAS],
  );
  return result.rows;
}

async function readSequences(client: Client): Promise<SequenceLine['sequences']> {
  const sequences = (
    await client.query<{ name: string }>(
      `SELECT format('%I.%I', n.nspname, c.relname) AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relkind = 'S' AND n.nspname = ANY ($1) AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = c.oid AND d.deptype = 'e') ORDER BY 1`,
      [SCHEMAS],
    )
  ).rows;
  const values: SequenceLine['sequences'] = [];
  for (const { name } of sequences) {
    const { last_value, is_called } = (await client.query<{ last_value: string; is_called: boolean }>(`SELECT last_value::text, is_called FROM ${name}`)).rows[0];
    values.push({ name, last_value, is_called });
  }
  return values;
}

async function insertRows(client: Client, table: TableLine, rows: string[]): Promise<void> {
  const columns = table.columns.map((column) => client.escapeIdentifier(column)).join(', ');
  await client.query(
    `INSERT INTO ${table.table} (${columns}) OVERRIDING SYSTEM VALUE
     SELECT ${columns} FROM json_populate_recordset(NULL::${table.table}, $1::json)`,
    [`[${rows.join(',')}]`],
  );
}
