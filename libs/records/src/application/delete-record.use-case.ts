import { Inject, Injectable, Optional } from '@nestjs/common';
import { TRASH_BIN, type TrashBin } from '@workbase/shared/kernel';
import { EventOutbox, TransactionRunner } from '@workbase/shared/persistence';
import { type Container, containerEvent } from '@workbase/schema';
import { recordNotFound } from '../domain/record-errors';
import type { WriteScope } from '../domain/write-scope';
import { RecordRepository } from '../infrastructure/record.repository';
import { RECORD_DELETION_LISTENERS, type RecordDeletionListener } from './record-deletion-listener';
import { ValueWriter } from './value-writer';

export interface DeleteOptions {
  /** Answer 409 `concurrent_write_conflict` on a record another request is writing, instead of waiting for it. */
  readonly failOnConcurrentWrite?: boolean;
}

/**
 * Deletes a record with what hangs off it: a record's list entries go with it, as the reference
 * API does, as entry deletes would go (their listeners, the rows, references to them, their
 * `deleted` events), then the record itself — in one transaction. What goes is first kept in the
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
      if (container.kind === 'object') await this.deleteEntriesOf(who, recordId);
      await this.deleteLocked(who, [recordId]);
    });
  }

  /**
   * The record's list entries, as entry deletes would go but batched: the listeners once for every
   * list (`entriesDeleting`) or once per list, then every entry's row, the references to them and their events at
   * once (a delete's cost should not grow by four statements per entry).
   */
  private async deleteEntriesOf(who: WriteScope, recordId: string): Promise<void> {
    const { workspaceId } = who.container;
    const entries = await this.store.lockEntriesOf(workspaceId, recordId);
    if (entries.length === 0) return;
    const lists = new Map<string, { list: Container; entryIds: string[] }>();
    for (const entry of entries) {
      const group = lists.get(entry.listId) ?? { list: { kind: 'list', id: entry.listId, workspaceId, slug: entry.listSlug }, entryIds: [] };
      group.entryIds.push(entry.entryId);
      lists.set(entry.listId, group);
    }
    const groups = [...lists.values()];
    for (const listener of this.deletionListeners) {
      if (listener.entriesDeleting) await listener.entriesDeleting(workspaceId, groups, who.actor);
      else for (const { list, entryIds } of groups) await listener.recordsDeleting(workspaceId, list, entryIds, who.actor);
    }
    const entryIds = entries.map((entry) => entry.entryId);
    await this.store.deleteRecordsById(workspaceId, entryIds);
    await this.store.closeReferencesTo(workspaceId, entryIds);
    await this.outbox.record(...[...lists.values()].flatMap(({ list, entryIds: ids }) => ids.map((id) => containerEvent(list, 'deleted', who.actor, { recordId: id }))));
  }

  /** Deletes records its caller has locked, in the caller's transaction: listeners, the rows, references to them, the events. */
  private async deleteLocked(who: WriteScope, recordIds: readonly string[]): Promise<void> {
    const { container } = who;
    for (const listener of this.deletionListeners) await listener.recordsDeleting(container.workspaceId, container, recordIds, who.actor);
    if ((await this.store.deleteRecords(container.workspaceId, container.id, recordIds)) !== recordIds.length) throw recordNotFound(container, recordIds[0]);
    await this.store.closeReferencesTo(container.workspaceId, recordIds);
    await this.outbox.record(...recordIds.map((recordId) => containerEvent(container, 'deleted', who.actor, { recordId })));
  }
}
