import { Client } from 'pg';
import { isPgError, pgError, TransactionRunner, violatedUniqueConstraint } from '@workbase/shared/persistence';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * The PostgreSQL error classifier and the one query helper, against errors the embedded database
 * really raises: through TypeORM (`QueryFailedError` with `driverError`, as repositories see them)
 * and straight from `pg` (as the SQL executor and the embedded-database probe see them).
 */
describe('PostgreSQL errors and queries on the real database', () => {
  let t: TestApp;
  let transactions: TransactionRunner;
  const clients: Client[] = [];

  async function client(): Promise<Client> {
    const c = new Client({ connectionString: t.database.url });
    await c.connect();
    clients.push(c);
    return c;
  }

  /** The error a statement run through TypeORM fails with. */
  async function failure(sql: string, params: unknown[] = []): Promise<unknown> {
    return transactions.query(sql, params).then(
      () => {
        throw new Error(`expected ${sql} to fail`);
      },
      (error: unknown) => error,
    );
  }

  beforeAll(async () => {
    t = await startTestApp();
    transactions = t.app.get(TransactionRunner);
    await transactions.query(`CREATE TABLE probe_parent (id int PRIMARY KEY, slug text NOT NULL CONSTRAINT probe_parent_slug_unique UNIQUE, n int CONSTRAINT probe_parent_n_positive CHECK (n > 0))`);
    await transactions.query(`CREATE TABLE probe_child (id int PRIMARY KEY, parent_id int CONSTRAINT probe_child_parent_fk REFERENCES probe_parent (id))`);
    await transactions.query(`INSERT INTO probe_parent (id, slug, n) VALUES (1, 'one', 1), (2, 'two', 2)`);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.end()));
    await t.close();
  });

  it('gives the rows of every statement, UPDATE and DELETE ... RETURNING included, in and out of a transaction', async () => {
    expect(await transactions.query<{ id: number }>(`SELECT id FROM probe_parent ORDER BY id`)).toEqual([{ id: 1 }, { id: 2 }]);
    expect(await transactions.run(() => transactions.query<{ n: number }>(`UPDATE probe_parent SET n = n + 10 WHERE id = $1 RETURNING n`, [2]))).toEqual([{ n: 12 }]);
    await transactions.query(`INSERT INTO probe_parent (id, slug, n) VALUES (9, 'nine', 9)`);
    expect(await transactions.query<{ id: number }>(`DELETE FROM probe_parent WHERE id = $1 RETURNING id`, [9])).toEqual([{ id: 9 }]);
    expect(await transactions.query(`DELETE FROM probe_parent WHERE id = $1 RETURNING id`, [9])).toEqual([]);
  });

  it('classifies integrity violations and names the constraint', async () => {
    const unique = await failure(`INSERT INTO probe_parent (id, slug, n) VALUES (3, 'one', 1)`);
    expect(pgError(unique)).toMatchObject({ code: '23505', kind: 'uniqueViolation', constraint: 'probe_parent_slug_unique', isTransactionRollback: false });
    expect(violatedUniqueConstraint(unique)).toBe('probe_parent_slug_unique');

    const foreignKey = await failure(`INSERT INTO probe_child (id, parent_id) VALUES (1, 404)`);
    expect(pgError(foreignKey)).toMatchObject({ code: '23503', kind: 'foreignKeyViolation', constraint: 'probe_child_parent_fk' });
    expect(violatedUniqueConstraint(foreignKey)).toBeNull();

    const check = await failure(`UPDATE probe_parent SET n = -1 WHERE id = 1`);
    expect(pgError(check)).toMatchObject({ code: '23514', kind: 'checkViolation', constraint: 'probe_parent_n_positive' });

    const notNull = await failure(`INSERT INTO probe_parent (id, slug) VALUES (4, NULL)`);
    expect(pgError(notNull)).toMatchObject({ code: '23502', kind: 'notNullViolation' });
    expect(isPgError(notNull, 'notNullViolation')).toBe(true);
    expect(isPgError(notNull, 'uniqueViolation')).toBe(false);
  });

  it('classifies data exceptions: an unknown time zone, a NUL character', async () => {
    const zone = await failure(`SELECT now() AT TIME ZONE $1`, ['Mars/Olympus_Mons']);
    expect(pgError(zone)).toMatchObject({ code: '22023', kind: 'invalidParameterValue', isDataException: true });
    const nul = await failure(`SELECT $1::text`, ['a\u0000b']);
    expect(pgError(nul)).toMatchObject({ code: '22021', kind: 'characterNotInRepertoire', isDataException: true });
  });

  it('classifies a lock not available (NOWAIT), a canceled statement and a write in a read-only transaction, straight from pg too', async () => {
    const holder = await client();
    const other = await client();
    await holder.query('BEGIN');
    await holder.query('SELECT id FROM probe_parent WHERE id = 1 FOR UPDATE');
    const locked = await transactions.run(() => failure(`SELECT id FROM probe_parent WHERE id = 1 FOR UPDATE NOWAIT`));
    expect(pgError(locked)).toMatchObject({ code: '55P03', kind: 'lockNotAvailable' });
    const lockedRaw = await other.query('SELECT id FROM probe_parent WHERE id = 1 FOR UPDATE NOWAIT').catch((error: unknown) => error);
    expect(isPgError(lockedRaw, 'lockNotAvailable')).toBe(true);
    await holder.query('ROLLBACK');

    await other.query(`SET statement_timeout = '20ms'`);
    const canceled = await other.query('SELECT pg_sleep(2)').catch((error: unknown) => error);
    expect(pgError(canceled)).toMatchObject({ code: '57014', kind: 'queryCanceled' });
    await other.query('RESET statement_timeout');

    await other.query('BEGIN READ ONLY');
    const readOnly = await other.query(`UPDATE probe_parent SET n = 5 WHERE id = 1`).catch((error: unknown) => error);
    expect(pgError(readOnly)).toMatchObject({ code: '25006', kind: 'readOnlyTransaction' });
    await other.query('ROLLBACK');
  });

  it('classifies a deadlock and a serialization failure as transaction rollbacks', async () => {
    const a = await client();
    const b = await client();
    await a.query(`SET deadlock_timeout = '50ms'`);
    await b.query(`SET deadlock_timeout = '50ms'`);
    await a.query('BEGIN');
    await b.query('BEGIN');
    await a.query('UPDATE probe_parent SET n = n + 1 WHERE id = 1');
    await b.query('UPDATE probe_parent SET n = n + 1 WHERE id = 2');
    // Each now waits for the row the other holds: PostgreSQL aborts one of them.
    const outcomes = await Promise.allSettled([a.query('UPDATE probe_parent SET n = n + 1 WHERE id = 2'), b.query('UPDATE probe_parent SET n = n + 1 WHERE id = 1')]);
    await Promise.all([a.query('ROLLBACK'), b.query('ROLLBACK')]);
    const deadlocks = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(deadlocks).toHaveLength(1);
    expect(pgError(deadlocks[0].reason)).toMatchObject({ code: '40P01', kind: 'deadlock', isTransactionRollback: true });

    // Write skew under SERIALIZABLE: each reads what the other writes; the second commit fails.
    await a.query('BEGIN ISOLATION LEVEL SERIALIZABLE');
    await b.query('BEGIN ISOLATION LEVEL SERIALIZABLE');
    await a.query('SELECT sum(n) FROM probe_parent');
    await b.query('SELECT sum(n) FROM probe_parent');
    await a.query('UPDATE probe_parent SET n = n + 1 WHERE id = 1');
    await b.query('UPDATE probe_parent SET n = n + 1 WHERE id = 2');
    await a.query('COMMIT');
    const serialization = await b.query('COMMIT').catch((error: unknown) => error);
    expect(pgError(serialization)).toMatchObject({ code: '40001', kind: 'serializationFailure', isTransactionRollback: true });
  });

  it('classifies a refused login and an existing database, as the embedded-database code meets them', async () => {
    const url = new URL(t.database.url);
    url.password = 'not-the-password';
    const refused = new Client({ connectionString: url.toString() });
    const login = await refused.connect().then(
      () => refused.end().then(() => null),
      (error: unknown) => error,
    );
    expect(isPgError(login, 'invalidPassword')).toBe(true);
    const admin = await client();
    const existing = await admin.query(`CREATE DATABASE ${admin.escapeIdentifier(url.pathname.slice(1))}`).catch((error: unknown) => error);
    expect(pgError(existing)).toMatchObject({ code: '42P04', kind: 'duplicateDatabase' });
  });
});
