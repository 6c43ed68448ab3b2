import { LOCK_WAIT_NOTICE_MS, MIGRATION_LOCK_KEY, runMigrations, TransactionRunner, withStartLock } from '@workbase/shared/persistence';
import { Client } from 'pg';
import { loadConfig } from '@workbase/shared/config';
import { createLogger } from '@workbase/shared/http';
import { DataSource } from 'typeorm';
import { createApp } from '../../apps/api/src/app.factory';
import { useTestDatabase } from '../support/suite';

/**
 * What lets a process work through a pooler in transaction mode, checked on a plain server (the
 * topology suite runs the same behind PgBouncer): start-up locks are transaction locks that say
 * when they wait, and no session setting is pinned by a startup parameter.
 */
describe('sessions a pooler can share', () => {
  const db = useTestDatabase();

  it('a migration run waits for the lock another process holds, says so after a moment, and runs once it is free', async () => {
    const holder = new Client({ connectionString: db.url });
    await holder.connect();
    const lines: string[] = [];
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
      let done = false;
      const run = runMigrations(db.url, { progress: (line) => lines.push(line) }).finally(() => (done = true));
      await new Promise((resolve) => setTimeout(resolve, LOCK_WAIT_NOTICE_MS + 1000));
      expect(done).toBe(false);
      expect(lines).toEqual(['waiting for the migration lock: another process holds it (starting at the same time, or hung)']);
      await holder.query('ROLLBACK');
      expect(await run).toEqual([]); // the template was migrated already
    } finally {
      await holder.end();
    }
  });

  it('a migration run holds no advisory lock once it is done', async () => {
    expect(await runMigrations(db.url)).toEqual([]);
    const { rows } = await db.client.query(`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`);
    expect(rows[0].n).toBe(0);
  });

  it('a start lock holds for as long as its work runs, even where idle transactions are ended after 300 ms', async () => {
    const database = (await db.client.query<{ name: string }>('SELECT current_database() AS name')).rows[0].name;
    await db.client.query(`ALTER DATABASE ${db.client.escapeIdentifier(database)} SET idle_in_transaction_session_timeout = '300ms'`);
    const other = new Client({ connectionString: db.url });
    await other.connect();
    try {
      const tryLock = async () => (await other.query<{ got: boolean }>(`SELECT pg_try_advisory_xact_lock(hashtext('test.start-lock')) AS got`)).rows[0].got;
      const heldThroughout = await withStartLock(db.url, 'test.start-lock', 'test', async () => {
        const seen: boolean[] = [];
        for (let i = 0; i < 4; i++) {
          await new Promise((resolve) => setTimeout(resolve, 300));
          seen.push(await tryLock());
        }
        return seen;
      }, () => undefined);
      expect(heldThroughout).toEqual([false, false, false, false]);
      expect(await tryLock()).toBe(true);
    } finally {
      await other.end();
      await db.client.query(`ALTER DATABASE ${db.client.escapeIdentifier(database)} RESET idle_in_transaction_session_timeout`);
    }
  });

  it('runs READ COMMITTED transactions although the server default was changed, and sends no options startup parameter', async () => {
    const database = (await db.client.query<{ name: string }>('SELECT current_database() AS name')).rows[0].name;
    await db.client.query(`ALTER DATABASE ${db.client.escapeIdentifier(database)} SET default_transaction_isolation = 'repeatable read'`);
    const app = await createApp(loadConfig({ DATABASE_URL: db.url, LOG_LEVEL: 'silent', RUN_WORKER: 'false' }), db.url, createLogger('silent'));
    const dataSource = app.get(DataSource);
    try {
      const runner = app.get(TransactionRunner);
      const levels = await Promise.all(Array.from({ length: 3 }, () => runner.run(() => runner.query<{ transaction_isolation: string }>('SHOW transaction_isolation'))));
      expect(levels.map((rows) => rows[0].transaction_isolation)).toEqual(['read committed', 'read committed', 'read committed']);
      expect((await runner.run(() => runner.query<{ transaction_isolation: string }>('SHOW transaction_isolation'), 'SERIALIZABLE'))[0].transaction_isolation).toBe('serializable');
      // Outside a transaction a pooled session keeps the server's default: no `options` startup parameter pinned it.
      expect((await dataSource.query('SHOW default_transaction_isolation'))[0].default_transaction_isolation).toBe('repeatable read');
    } finally {
      await app.close();
      await db.client.query(`ALTER DATABASE ${db.client.escapeIdentifier(database)} RESET default_transaction_isolation`);
    }
  });
});
