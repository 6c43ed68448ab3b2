import { Injectable } from '@nestjs/common';
import type { Actor, TrashKind } from '@workbase/shared/kernel';
import { EventOutbox, isPgError, TransactionRunner } from '@workbase/shared/persistence';
import { restoredEvents } from '../domain/restored-events';
import { restoreConflict, restoreParentMissing, trashItemNotFound } from '../domain/trash-errors';
import { restoreNeeds } from '../domain/restore-needs';
import { TRASH_PLANS } from '../domain/trash-plan';
import { TrashStore } from '../infrastructure/trash.store';

/**
 * Restoring and emptying trashed items. A restore puts every saved row back with its ids in one
 * transaction, parents first, after checking that what the item hangs off still exists and that
 * none of its unique values was taken meanwhile (409 naming the attribute and the holder, and
 * nothing restored); it opens again the references the delete closed and records the `*.created`
 * events of what came back.
 */
@Injectable()
export class TrashCommands {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly store: TrashStore,
    private readonly outbox: EventOutbox,
  ) {}

  async restore(workspaceId: string, kind: TrashKind, id: string, actor: Actor): Promise<void> {
    try {
      await this.restoreOnce(workspaceId, kind, id, actor);
    } catch (error) {
      // A unique value claimed by a transaction that committed between the check and the insert:
      // the insert's violation rolled everything back, and a second attempt's check now sees the
      // holder and answers the 409 that names it.
      if (!isPgError(error, 'uniqueViolation')) throw error;
      await this.restoreOnce(workspaceId, kind, id, actor);
    }
  }

  private async restoreOnce(workspaceId: string, kind: TrashKind, id: string, actor: Actor): Promise<void> {
    await this.transactions.run(async () => {
      const item = await this.store.lock(workspaceId, kind, id);
      if (!item) throw trashItemNotFound(kind, id);
      const needs = restoreNeeds(kind, item.rows);
      const liveRecords = await this.store.liveRecords(workspaceId, needs.records.map((need) => need.id));
      const missingRecord = needs.records.find((need) => !liveRecords.has(need.id));
      if (missingRecord) throw restoreParentMissing(missingRecord.what);
      const liveContainers = await this.store.liveContainers(workspaceId, needs.containers.map((need) => need.id));
      const missingContainer = needs.containers.find((need) => !liveContainers.has(need.id));
      if (missingContainer) throw restoreParentMissing(missingContainer.what);
      const threads = await this.store.threads(workspaceId, needs.threads);
      if (threads.length < needs.threads.length) throw restoreParentMissing('the comment thread');

      const [holder] = await this.store.uniqueHolders(workspaceId, item.rows.unique_values ?? []);
      if (holder) throw restoreConflict(holder);

      await this.store.reinsert(workspaceId, TRASH_PLANS[kind], item.rows);
      await this.store.reopenReferences(workspaceId, item.closedReferences);
      await this.store.remove(workspaceId, id);
      await this.outbox.record(...restoredEvents(kind, workspaceId, item.rows, actor, threads));
    });
  }

  /** Removes an item for good (its S3 objects are recorded for removal). */
  async purge(workspaceId: string, kind: TrashKind, id: string): Promise<void> {
    await this.transactions.run(async () => {
      if ((await this.store.purge({ workspaceId, kind, id })) === 0) throw trashItemNotFound(kind, id);
    });
  }
}
