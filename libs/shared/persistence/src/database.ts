import { DataSource } from 'typeorm';
import { MIGRATIONS } from './migrations';
import { startEmbeddedPostgres, type RunningDatabase } from './embedded-postgres';
import { standaloneClient } from './standalone-client';

export interface DatabaseHandle {
  /** URL of the application database. */
  readonly url: string;
  /**
   * Where what needs a session of its own connects (LISTEN, migrations): DATABASE_DIRECT_URL when
   * set (DATABASE_URL then goes through a pooler), else `url`.
   */
  readonly sessionUrl: string;
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
  /** DATABASE_DIRECT_URL: the same database as `databaseUrl`, bypassing a pooler. */
  readonly databaseDirectUrl?: string | null;
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
    const sessionUrl = options.databaseDirectUrl ?? options.databaseUrl;
    return { url: options.databaseUrl, sessionUrl, embedded: false, close: async () => undefined, watch: () => () => undefined };
  }
  const cluster: RunningDatabase = await startEmbeddedPostgres({ dataDir: options.dataDir, log: options.log, progress: options.progress });
  try {
    await ensureDatabase(cluster.url, APP_DATABASE);
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  const url = withDatabase(cluster.url, APP_DATABASE);
  return { url, sessionUrl: url, embedded: true, close: () => cluster.stop(), watch: (onLost, within) => cluster.watch(onLost, within) };
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
export const MIGRATION_LOCK_KEY = 7_406_021_311;

/** A process that waits longer than this for a start-up lock says so (then waits on). */
export const LOCK_WAIT_NOTICE_MS = 2_000;

/**
 * Holds the transaction-level advisory lock `key` on a connection of its own while `work` runs:
 * the lock's transaction stays open until `work` is done, then rolls back, which frees it (as does
 * the connection's end, should the process die). A transaction lock rather than a session one:
 * behind a transaction-mode pooler a session lock stays on whichever server connection took it,
 * and an unlock sent later may reach another one, leaving the lock held by nobody's session, so
 * the next process hangs; a pooler keeps a client on one server connection for a whole transaction.
 * `onWaiting` is told, once, when the lock is not granted within LOCK_WAIT_NOTICE_MS.
 */
export async function withStartLock<T>(url: string, key: string | number, what: string, work: () => Promise<T>, onWaiting: (line: string) => void): Promise<T> {
  const lock = standaloneClient({ connectionString: url, application_name: 'workbase-start-lock' });
  await lock.connect();
  try {
    // The transaction stays idle while `work` runs on other connections: a server-wide idle-in-transaction timeout must not end it (and free the lock) half-way.
    await lock.query(`BEGIN; SELECT set_config('idle_in_transaction_session_timeout', '0', true)`);
    const granted = lock.query(typeof key === 'number' ? 'SELECT pg_advisory_xact_lock($1)' : 'SELECT pg_advisory_xact_lock(hashtext($1))', [key]);
    const notice = setTimeout(() => onWaiting(`waiting for the ${what} lock: another process holds it (starting at the same time, or hung)`), LOCK_WAIT_NOTICE_MS);
    try {
      await granted;
    } finally {
      clearTimeout(notice);
    }
    return await work();
  } finally {
    await lock.query('ROLLBACK').catch(() => undefined);
    await lock.end().catch(() => undefined);
  }
}

/**
 * Applies pending migrations, holding an advisory lock so that several API or worker processes
 * starting together do not race on the schema. Returns the names of the migrations applied.
 * `url` may go through a pooler in either mode; DATABASE_DIRECT_URL is the better choice when there
 * is one (a long migration then holds no pooled server connection).
 */
export async function runMigrations(url: string, options: { progress?: (line: string) => void } = {}): Promise<string[]> {
  const say = options.progress ?? (() => undefined);
  return withStartLock(url, MIGRATION_LOCK_KEY, 'migration', async () => {
    const dataSource = new DataSource({ type: 'postgres', url, migrations: MIGRATIONS, migrationsTransactionMode: 'all', logging: false });
    try {
      await dataSource.initialize();
      if (options.progress && (await dataSource.showMigrations())) say('applying database migrations');
      const applied = await dataSource.runMigrations({ transaction: 'all' });
      return applied.map((migration) => migration.name);
    } finally {
      if (dataSource.isInitialized) await dataSource.destroy();
    }
  }, say);
}
