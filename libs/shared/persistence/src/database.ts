import { DataSource } from 'typeorm';
import { MIGRATIONS } from './migrations';
import { startEmbeddedPostgres, type RunningDatabase } from './embedded-postgres';
import { standaloneClient } from './standalone-client';

export interface DatabaseHandle {
  /** URL of the application database. */
  readonly url: string;
  readonly embedded: boolean;
  close(): Promise<void>;
  /**
   * Calls `onLost` when the database can no longer be followed: only for an embedded cluster that
   * another process started, restarted elsewhere or gone for longer than `rejoinWithinMs`.
   */
  watch(onLost: (reason: string) => void, rejoinWithinMs?: number): () => void;
}

export interface OpenDatabaseOptions {
  readonly databaseUrl: string | null;
  readonly dataDir: string;
  readonly log?: (line: string) => void;
  /** Lines for a person about first-start work that takes seconds. */
  readonly progress?: (line: string) => void;
}

const APP_DATABASE = 'workbase';

/**
 * The database the process works on: the server named by DATABASE_URL, or else the embedded
 * cluster in DATA_DIR with its `workbase` database (created on first use).
 */
export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    return { url: options.databaseUrl, embedded: false, close: async () => undefined, watch: () => () => undefined };
  }
  const cluster: RunningDatabase = await startEmbeddedPostgres({ dataDir: options.dataDir, log: options.log, progress: options.progress });
  try {
    await ensureDatabase(cluster.url, APP_DATABASE);
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  return { url: withDatabase(cluster.url, APP_DATABASE), embedded: true, close: () => cluster.stop(), watch: (onLost, within) => cluster.watch(onLost, within) };
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export async function ensureDatabase(maintenanceUrl: string, database: string): Promise<void> {
  const client = standaloneClient({ connectionString: maintenanceUrl });
  await client.connect();
  try {
    const exists = async () => ((await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database])).rowCount ?? 0) > 0;
    if (!(await exists())) {
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`).catch(async (error: unknown) => {
        // A concurrent starter made it meanwhile (PostgreSQL says 42P04, or 23505 on pg_database
        // when both inserts race, once the other has committed): it is there, which is what we want.
        if (!(await exists())) throw error;
      });
    }
  } finally {
    await client.end();
  }
}

/** Arbitrary but fixed: serialises migrations when several processes start at once. */
const MIGRATION_LOCK_KEY = 7_406_021_311;

/**
 * Applies pending migrations, holding an advisory lock so that several API or worker processes
 * starting together do not race on the schema. Returns the names of the migrations applied.
 */
export async function runMigrations(url: string, options: { progress?: (line: string) => void } = {}): Promise<string[]> {
  const lock = standaloneClient({ connectionString: url });
  await lock.connect();
  const dataSource = new DataSource({ type: 'postgres', url, migrations: MIGRATIONS, migrationsTransactionMode: 'all', logging: false });
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await dataSource.initialize();
    if (options.progress && (await dataSource.showMigrations())) options.progress('applying database migrations');
    const applied = await dataSource.runMigrations({ transaction: 'all' });
    return applied.map((migration) => migration.name);
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
    await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await lock.end();
  }
}
