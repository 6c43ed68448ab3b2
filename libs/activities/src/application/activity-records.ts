import { Injectable } from '@nestjs/common';
import { RecordEngine, type RecordView, type ValuesInput, type WriteActor, type WriteScope, writeScope } from '@workbase/records';
import { TransactionRunner } from '@workbase/shared/persistence';
import { ActivityCatalog } from './activity.catalog';

export interface ActivityRecordQuery {
  readonly filter?: unknown;
  readonly sorts?: unknown;
  readonly limit?: number;
  readonly offset?: number;
}

/**
 * Activity records over the record engine. Every write runs in one transaction that key-share
 * locks the activity (so a DELETE of the activity cannot leave records behind), fails fast with
 * 409 `concurrent_write_conflict` on a record another request is writing (never a lost update),
 * and stamps the activity's `api_slug` on the events it recorded.
 */
@Injectable()
export class ActivityRecords {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly catalog: ActivityCatalog,
    private readonly records: RecordEngine,
  ) {}

  async create(who: WriteActor, activity: string, values: ValuesInput): Promise<RecordView> {
    // The activity (key-share locked) and its attributes in one statement; the response is built
    // from what the insert returned.
    return this.transactions.run(async () => {
      const { container, attributes } = await this.catalog.containerWithAttributes(who.workspaceId, activity);
      return this.records.create(writeScope(who, container), values, { attributes });
    });
  }

  async update(who: WriteActor, activity: string, recordId: string, values: ValuesInput, mode: 'append' | 'overwrite'): Promise<RecordView> {
    return this.write(who, activity, (scope) => this.records.update(scope, recordId, values, mode, { failOnConcurrentWrite: true }));
  }

  async upsert(who: WriteActor, activity: string, matchingAttribute: string, values: ValuesInput): Promise<RecordView> {
    return this.write(who, activity, async (scope) => {
      const { recordId } = await this.records.assert(scope, matchingAttribute, values, { failOnConcurrentWrite: true });
      return this.records.read(scope.container, recordId);
    });
  }

  /** Like the other writes, a record another request is writing is a 409, not a wait. */
  async delete(who: WriteActor, activity: string, recordId: string): Promise<void> {
    await this.write(who, activity, (scope) => this.records.delete(scope, recordId, { failOnConcurrentWrite: true }));
  }

  // Reads: the activity and its attributes in one statement, the record(s) and their values in one more each.
  async get(workspaceId: string, activity: string, recordId: string): Promise<RecordView> {
    const { container, attributes } = await this.catalog.containerWithAttributes(workspaceId, activity);
    return this.records.read(container, recordId, { attributes });
  }

  async query(workspaceId: string, activity: string, query: ActivityRecordQuery): Promise<RecordView[]> {
    const { container, attributes } = await this.catalog.containerWithAttributes(workspaceId, activity);
    return this.records.query(container, query, { attributes });
  }

  /** Runs `work` in one transaction with the activity locked, on the scope built from it. */
  private write<T>(who: WriteActor, activity: string, work: (scope: WriteScope) => Promise<T>): Promise<T> {
    return this.transactions.run(async () => work(writeScope(who, await this.catalog.container(who.workspaceId, activity))));
  }
}
