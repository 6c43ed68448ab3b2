import { Injectable } from '@nestjs/common';
import { ValidationError } from '@workbase/shared/kernel';
import { TransactionRunner } from '@workbase/shared/persistence';
import { type Attribute, AttributeDirectory } from '@workbase/schema';
import { type BatchOperation, type BatchTarget, parseBatchOperation } from '../domain/batch-operations';
import { recordNotFound } from '../domain/record-errors';
import type { WriteScope } from '../domain/write-scope';
import { RecordRepository } from '../infrastructure/record.repository';
import { AssertRecordUseCase } from './assert-record.use-case';
import { type BatchCreateItem, BatchRecordWriter, isRefusal, type WrittenRecords } from './batch-record-writer';
import { CreateRecordUseCase } from './create-record.use-case';
import { DeleteRecordUseCase } from './delete-record.use-case';
import { EntryService } from './entry.service';
import { RecordReader, type RecordView } from './record-reader';
import { UpdateRecordUseCase } from './update-record.use-case';

/** One operation's outcome, in request order: the record as it was left (null after a delete), or why it was refused. */
export type BatchItemResult = { readonly index: number; readonly ok: true; readonly view: RecordView | null } | { readonly index: number; readonly ok: false; readonly error: unknown };

/**
 * Many writes of one container in one request (`POST …/records/batch`, `…/entries/batch`). Each
 * operation is the single endpoint's use case, run in one transaction for the whole batch; runs
 * of record creates and asserts are written set-based by `BatchRecordWriter` with the same rules
 * and the same outcome (and go through the use cases where they depend on order):
 *
 * - not atomic: each item runs inside a savepoint, so a refused item (400, 404, 409) is rolled
 *   back alone and the others are committed; its error is answered in its place;
 * - atomic: the first refused item rolls the whole batch back (400 naming its index).
 *
 * Every applied operation records its usual events. Items are applied in order, so two asserts
 * of one key make one record (the second finds the first). The records are read once at the end
 * (one statement for the page), as the batch left them; a record deleted later in the batch is
 * answered as it was just before its deletion.
 */
@Injectable()
export class WriteBatchUseCase {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly create: CreateRecordUseCase,
    private readonly asserts: AssertRecordUseCase,
    private readonly updates: UpdateRecordUseCase,
    private readonly deletes: DeleteRecordUseCase,
    private readonly entries: EntryService,
    private readonly reader: RecordReader,
    private readonly store: RecordRepository,
    private readonly attributes: AttributeDirectory,
    private readonly creates: BatchRecordWriter,
  ) {}

  async execute(who: WriteScope, target: BatchTarget, operations: readonly unknown[], options: { atomic: boolean; workspaceSlug?: string }): Promise<BatchItemResult[]> {
    const done = await this.transactions.run(async () => {
      const outcomes: Array<{ index: number; recordId: string | null } | { index: number; error: unknown }> = [];
      const touched = new Set<string>();
      const beforeDelete = new Map<string, RecordView>();
      // Read once for the batch: nothing in it changes the container's attributes.
      const attributes = await this.attributes.ofContainer(who.container.workspaceId, who.container.id, { includeArchived: true });
      const refused = (index: number, error: unknown) => {
        if (!isRefusal(error)) throw error;
        if (options.atomic) throw atomicFailure(index, error);
        outcomes.push({ index, error });
      };
      /** One operation through its single use case; not atomic, inside a savepoint so a refusal is rolled back alone. */
      const applyOne = async (index: number, operation: BatchOperation) => {
        try {
          const apply = async () => {
            if (operation.op === 'delete' && touched.has(operation.id)) {
              const [view] = await this.readViews(who, [operation.id], options.workspaceSlug, attributes);
              if (view) beforeDelete.set(operation.id, view);
            }
            return this.apply(who, target, operation, attributes);
          };
          const recordId = options.atomic ? await apply() : await this.transactions.savepoint(apply);
          if (recordId) touched.add(recordId);
          outcomes.push({ index, recordId });
        } catch (error) {
          refused(index, error);
        }
      };
      // Consecutive creates and asserts of records go the set-based way (BatchRecordWriter), which
      // hands back the items that must go one by one, in their place.
      let run: BatchCreateItem[] = [];
      const written: WrittenRecords = { records: [], values: [] };
      let oneByOne = false;
      const flush = async () => {
        if (run.length === 0) return;
        const items = run;
        run = [];
        const inserted = await this.creates.write(who, attributes, items, {
          written: (index, recordId) => {
            touched.add(recordId);
            outcomes.push({ index, recordId });
          },
          oneByOne: (item) => {
            oneByOne = true;
            return applyOne(item.index, item.op === 'create' ? { op: 'create', values: item.values } : { op: 'assert', matchingAttribute: item.matchingAttribute, values: item.values });
          },
        });
        written.records.push(...inserted.records);
        written.values.push(...inserted.values);
      };
      for (const [index, raw] of operations.entries()) {
        let operation: BatchOperation;
        try {
          // A malformed operation is refused before it costs a savepoint.
          operation = parseBatchOperation(raw, index, target);
        } catch (error) {
          await flush();
          refused(index, error);
          continue;
        }
        if (target === 'records' && (operation.op === 'create' || operation.op === 'assert')) {
          run.push({ index, op: operation.op, matchingAttribute: operation.op === 'assert' ? operation.matchingAttribute : null, values: operation.values });
          continue;
        }
        await flush();
        oneByOne = true;
        await applyOne(index, operation);
      }
      await flush();
      outcomes.sort((a, b) => a.index - b.index);
      // When every write went the set-based way, the records are as their inserts returned them
      // (nothing else in the batch touched them), answered after the commit, which then comes
      // sooner; otherwise they are read in the transaction, as the batch left them.
      if (!oneByOne) return { outcomes, beforeDelete, answer: () => this.reader.readWritten(who.container, written.records, written.values, attributes, options.workspaceSlug) };
      const read = await this.readViews(who, [...touched], options.workspaceSlug, attributes);
      return { outcomes, beforeDelete, answer: async () => read };
    });
    const views = new Map((await done.answer()).map((view) => [recordIdOf(view), view]));
    return done.outcomes.map((outcome): BatchItemResult => {
      if ('error' in outcome) return { index: outcome.index, ok: false, error: outcome.error };
      if (outcome.recordId === null) return { index: outcome.index, ok: true, view: null };
      const view = views.get(outcome.recordId) ?? done.beforeDelete.get(outcome.recordId) ?? null;
      return { index: outcome.index, ok: true, view };
    });
  }

  /** Applies one operation with the single endpoint's use case; answers the record written, or null for a delete. */
  private async apply(who: WriteScope, target: BatchTarget, operation: BatchOperation, attributes: readonly Attribute[]): Promise<string | null> {
    const { container } = who;
    switch (operation.op) {
      case 'create':
        if (operation.parent) return this.entries.write(who, { parentRecordId: operation.parent.recordId, parentObject: operation.parent.object }, operation.values, attributes);
        return (await this.create.write(who, operation.values, { attributes })).record.id;
      case 'assert':
        if (target === 'entries' && operation.parent) {
          return this.entries.assertWrite(who, { parentRecordId: operation.parent.recordId, parentObject: operation.parent.object }, operation.values, attributes);
        }
        return (await this.asserts.execute(who, operation.matchingAttribute!, operation.values, { attributes })).recordId;
      case 'update':
        if ((await this.updates.write(who, operation.id, operation.values, 'append', { attributes })) === null) throw recordNotFound(container, operation.id);
        return operation.id;
      case 'delete':
        await this.deletes.execute(who, operation.id);
        return null;
    }
  }

  private async readViews(who: WriteScope, recordIds: readonly string[], workspaceSlug: string | undefined, attributes: readonly Attribute[]): Promise<RecordView[]> {
    const rows = await this.store.findRecordsByIds(who.container.workspaceId, who.container.id, recordIds);
    return this.reader.read(who.container, rows, workspaceSlug, attributes);
  }
}

function atomicFailure(index: number, error: unknown): ValidationError {
  const reason = error instanceof Error ? error.message : 'refused';
  return new ValidationError(`operations[${index}] failed, so no operation was applied (atomic): ${reason}`, { index });
}

function recordIdOf(view: RecordView): string {
  return view.id.record_id ?? view.id.entry_id;
}
