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
  private readCommittedByDefault: Promise<boolean> | null = null;

  constructor(private readonly dataSource: DataSource) {}

  /**
   * Runs `work` in a transaction, READ COMMITTED unless `isolation` says otherwise. That is
   * PostgreSQL's default, so the default case sends no `SET TRANSACTION` of its own (one round trip
   * less on every write) once this process has seen that the server's default is indeed READ
   * COMMITTED; an operator who changed it (for the role or the database) gets an explicit level on
   * every transaction. The level is not pinned per connection with a startup `options` parameter:
   * poolers such as PgBouncer refuse that parameter, and a pooled server connection is not ours.
   */
  async run<T>(work: (manager: EntityManager) => Promise<T>, isolation?: IsolationLevel): Promise<T> {
    const outer = this.current.getStore();
    if (outer) return work(outer);
    const inContext = (manager: EntityManager) => this.current.run(manager, () => work(manager));
    const level = isolation ?? 'READ COMMITTED';
    if (level === 'READ COMMITTED' && (await this.serverDefaultIsReadCommitted())) return this.dataSource.transaction(inContext);
    return this.dataSource.transaction(level, inContext);
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
