import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { databaseAway, DatabaseUnavailableError } from './pg-errors';
import { rowsOf } from './sql-rows';

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
  private readonly current = new AsyncLocalStorage<EntityManager>();

  constructor(private readonly dataSource: DataSource) {}

  /**
   * Runs `work` in a transaction, READ COMMITTED unless `isolation` says otherwise. Every pooled
   * connection starts with READ COMMITTED as its default (PersistenceModule), so the default case
   * sends no `SET TRANSACTION` of its own: one round trip less on every write.
   */
  async run<T>(work: (manager: EntityManager) => Promise<T>, isolation?: IsolationLevel): Promise<T> {
    const outer = this.current.getStore();
    if (outer) return work(outer);
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
      await runner.startTransaction(isolation && isolation !== 'READ COMMITTED' ? isolation : undefined);
      const result = await this.current.run(runner.manager, () => work(runner.manager));
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

  /** The transaction's manager inside `run`, the pool's outside it. */
  manager(): EntityManager {
    return this.current.getStore() ?? this.dataSource.manager;
  }

  /**
   * The one way to send a statement: it runs in the current transaction inside `run` (on the pool
   * outside it), and the answer is always the rows, also for UPDATE/DELETE ... RETURNING.
   */
  async query<Row>(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
    return rowsOf<Row>(await this.manager().query(sql, params as unknown[]));
  }

  inTransaction(): boolean {
    return this.current.getStore() !== undefined;
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
