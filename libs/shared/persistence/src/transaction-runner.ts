import { Inject, Injectable, Optional } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { currentAmbientScope, runInAmbientScope } from './ambient-scope';
import { INVALIDATIONS_CHANNEL } from './cache-invalidations';
import { databaseAway, DatabaseUnavailableError } from './pg-errors';
import { rowsOf } from './sql-rows';

/**
 * True when pooled connections are not sure to be sessions of their own (DATABASE_DIRECT_URL is
 * set: a pooler is in front, perhaps in transaction mode): each transaction then LISTENs for cache
 * invalidations itself (PersistenceModule).
 */
export const LISTEN_IN_EACH_TRANSACTION = Symbol('LISTEN_IN_EACH_TRANSACTION');

/** The `pg` client under a TypeORM query runner, as far as a transaction watches it. */
interface PooledConnection {
  once(event: 'error', listener: (error: unknown) => void): void;
  removeListener(event: 'error', listener: (error: unknown) => void): void;
}

type IsolationLevel = 'READ COMMITTED' | 'REPEATABLE READ' | 'SERIALIZABLE';

/**
 * Owns the unit of work. A use case wraps its writes in `run`; repositories and the event outbox
 * take the transaction's EntityManager from `manager()`, so a use case composes them without
 * passing the manager around, and a nested `run` joins the outer transaction.
 */
@Injectable()
export class TransactionRunner {
  private readCommittedByDefault: Promise<boolean> | null = null;

  constructor(
    private readonly dataSource: DataSource,
    @Optional() @Inject(LISTEN_IN_EACH_TRANSACTION) private readonly listenInEachTransaction: boolean = false,
  ) {}

  /**
   * Runs `work` in a transaction, READ COMMITTED unless `isolation` says otherwise. That is
   * PostgreSQL's default, so the default case sends no `SET TRANSACTION` of its own (one round trip
   * less on every write) once this process has seen that the server's default is indeed READ
   * COMMITTED; an operator who changed it (for the role or the database) gets an explicit level on
   * every transaction. The level is not pinned per connection with a startup `options` parameter:
   * poolers such as PgBouncer refuse that parameter, and a pooled server connection is not ours.
   */
  async run<T>(work: (manager: EntityManager) => Promise<T>, isolation?: IsolationLevel): Promise<T> {
    const outer = this.current();
    if (outer) return work(outer);
    const level = isolation ?? 'READ COMMITTED';
    const explicitLevel = level === 'READ COMMITTED' && (await this.serverDefaultIsReadCommitted()) ? undefined : level;
    const runner = this.dataSource.createQueryRunner();
    /** Set once COMMIT is sent: a connection lost from then on leaves the outcome unknown. */
    let committing = false;
    /** The error that ended the connection under the transaction, which later statements only see as "released". */
    let lostWith: unknown = null;
    const noteLoss = (error: unknown) => (lostWith ??= error);
    let connection: PooledConnection | null = null;
    try {
      connection = (await runner.connect()) as PooledConnection;
      connection.once('error', noteLoss);
      await runner.startTransaction(explicitLevel);
      // A session hears its own notifications before its COMMIT returns, but only if it listens:
      // a pooled connection LISTENs when it opens (CacheInvalidations), and that is enough while
      // it is a session of its own. Behind a transaction-mode pooler the server connection under
      // this transaction may never have listened, so the transaction does (LISTEN takes effect at
      // its commit, in time for its own notifications): this process drops what it changed from
      // its caches before the change's request answers. One statement more per transaction, only
      // with DATABASE_DIRECT_URL.
      if (this.listenInEachTransaction) await runner.manager.query(`LISTEN ${INVALIDATIONS_CHANNEL}`);
      const open = new Map(currentAmbientScope()?.transactions ?? []).set(this, runner.manager);
      const result = await runInAmbientScope({ transactions: open }, () => work(runner.manager));
      committing = true;
      await runner.commitTransaction();
      return result;
    } catch (error) {
      // Over a lost connection the ROLLBACK cannot be sent; PostgreSQL rolls back on its own.
      if (!runner.isReleased) await runner.rollbackTransaction().catch(() => undefined);
      throw unavailableOr(error, lostWith, committing);
    } finally {
      // The connection goes back to the pool and serves other transactions: this one's listener leaves with it.
      connection?.removeListener('error', noteLoss);
      await runner.release();
    }
  }

  /** Asked once per process (again after a failed ask): changing the server's default later takes a restart of the processes to be seen. */
  private serverDefaultIsReadCommitted(): Promise<boolean> {
    this.readCommittedByDefault ??= this.dataSource.query('SHOW default_transaction_isolation').then(
      (rows: Array<{ default_transaction_isolation: string }>) => rows[0]?.default_transaction_isolation === 'read committed',
      () => {
        this.readCommittedByDefault = null;
        return false;
      },
    );
    return this.readCommittedByDefault;
  }

  /** The transaction's manager inside `run`, the pool's outside it. */
  manager(): EntityManager {
    return this.current() ?? this.dataSource.manager;
  }

  /**
   * The one way to send a statement: it runs in the current transaction inside `run` (on the pool
   * outside it), and the answer is always the rows, also for UPDATE/DELETE ... RETURNING.
   */
  async query<Row>(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
    return rowsOf<Row>(await this.manager().query(sql, params as unknown[]));
  }

  /**
   * Runs `work` inside a savepoint of the current transaction: when it fails, what it wrote is
   * rolled back and the error rethrown, and the transaction goes on (a batch's failed item).
   */
  async savepoint<T>(work: () => Promise<T>): Promise<T> {
    if (!this.inTransaction()) throw new Error('savepoint() runs inside run()');
    await this.query('SAVEPOINT item');
    try {
      const result = await work();
      await this.query('RELEASE SAVEPOINT item');
      return result;
    } catch (error) {
      await this.query('ROLLBACK TO SAVEPOINT item');
      await this.query('RELEASE SAVEPOINT item');
      throw error;
    }
  }

  inTransaction(): boolean {
    return this.current() !== undefined;
  }

  /** This runner's transaction that the calling code runs in, if any. */
  private current(): EntityManager | undefined {
    return currentAmbientScope()?.transactions?.get(this) as EntityManager | undefined;
  }
}

/**
 * A failure of the transaction as the caller should see it: the database being away becomes a
 * DatabaseUnavailableError (503), which says the write may have been applied when the connection
 * was lost with the COMMIT in flight; anything else is thrown as it is.
 */
function unavailableOr(error: unknown, lostWith: unknown, committing: boolean): unknown {
  const away = databaseAway(lostWith ?? error) ?? databaseAway(error);
  if (!away) return error;
  return new DatabaseUnavailableError(away.cause, { connectionLost: away.connectionLost, mayHaveApplied: committing && away.connectionLost });
}
