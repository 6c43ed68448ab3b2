import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { rowsOf } from './sql-rows';

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
  run<T>(work: (manager: EntityManager) => Promise<T>, isolation?: IsolationLevel): Promise<T> {
    const outer = this.current.getStore();
    if (outer) return work(outer);
    const inContext = (manager: EntityManager) => this.current.run(manager, () => work(manager));
    return isolation && isolation !== 'READ COMMITTED' ? this.dataSource.transaction(isolation, inContext) : this.dataSource.transaction(inContext);
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
    return this.current.getStore() !== undefined;
  }
}
