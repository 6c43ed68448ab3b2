import { Inject, Injectable, Optional } from '@nestjs/common';
import { TRASH_BIN, type TrashBin } from '@workbase/shared/kernel';
import { EventOutbox, TransactionRunner } from '@workbase/shared/persistence';
import { type Container, containerEvent } from '@workbase/schema';
import { recordNotFound } from '../domain/record-errors';
import { type WriteScope, writeScope } from '../domain/write-scope';
import { RecordRepository } from '../infrastructure/record.repository';
import { RECORD_DELETION_LISTENERS, type RecordDeletionListener } from './record-deletion-listener';
import { ValueWriter } from './value-writer';

export interface DeleteOptions {
  /** Answer 409 `concurrent_write_conflict` on a record another request is writing, instead of waiting for it. */
  readonly failOnConcurrentWrite?: boolean;
}

/**
 * Deletes a record with what hangs off it: a record's list entries go with it, as the reference
 * API does, each as an entry delete would go (its listeners, the row, references to it, its
 * `deleted` event), then the record itself — in one transaction. What goes is first kept in the
 * trash (TRASH_BIN, when the composition root binds one): a record's item holds its entries too.
 */
@Injectable()
export class DeleteRecordUseCase {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly store: RecordRepository,
    private readonly values: ValueWriter,
    private readonly outbox: EventOutbox,
    @Optional() @Inject(RECORD_DELETION_LISTENERS) private readonly deletionListeners: RecordDeletionListener[] = [],
    @Optional() @Inject(TRASH_BIN) private readonly trash: TrashBin | null = null,
  ) {}

  async execute(who: WriteScope, recordId: string, options: DeleteOptions = {}): Promise<void> {
    const { container } = who;
    // Locked first without waiting, so that a record another request is writing is a 409; the delete then re-locks it (held already).
    if (options.failOnConcurrentWrite) await this.values.lockForWrite(container, recordId, true);
    await this.transactions.run(async () => {
      if (!(await this.store.lockRecord(container.workspaceId, container.id, recordId))) throw recordNotFound(container, recordId);
      // Activity records are not kept: their deletes stay permanent.
      if (this.trash && container.kind !== 'activity') {
        await this.trash.keep({ workspaceId: container.workspaceId, kind: container.kind === 'object' ? 'records' : 'entries', id: recordId, actor: who.actor, containerId: container.id });
      }
      if (container.kind === 'object') {
        for (const entry of await this.store.lockEntriesOf(container.workspaceId, recordId)) {
          const list: Container = { kind: 'list', id: entry.listId, workspaceId: container.workspaceId, slug: entry.listSlug };
          await this.deleteLocked(writeScope(who, list), entry.entryId);
        }
      }
      await this.deleteLocked(who, recordId);
    });
  }

  /** Deletes a record its caller has locked, in the caller's transaction: listeners, the row, references to it, the event. */
  private async deleteLocked(who: WriteScope, recordId: string): Promise<void> {
    const { container } = who;
    for (const listener of this.deletionListeners) await listener.recordsDeleting(container.workspaceId, container, [recordId], who.actor);
    if (!(await this.store.deleteRecord(container.workspaceId, container.id, recordId))) throw recordNotFound(container, recordId);
    await this.store.closeReferencesTo(container.workspaceId, recordId);
    await this.outbox.record(containerEvent(container, 'deleted', who.actor, { recordId }));
  }
}
