import { Inject, Injectable, Optional } from '@nestjs/common';
import { DomainError, type DomainEvent, newId } from '@workbase/shared/kernel';
import { EventOutbox, TransactionRunner } from '@workbase/shared/persistence';
import { AttributeDirectory } from '@workbase/schema';
import { mergedValues } from '../domain/merged-values';
import { recordNotFound } from '../domain/record-errors';
import type { WriteScope } from '../domain/write-scope';
import { RecordRepository } from '../infrastructure/record.repository';
import { RECORD_MERGE_LISTENERS, type RecordMergeListener } from './record-merge-listener';
import { ValueWriter } from './value-writer';

/**
 * Merges two records of one object into a new record (the reference's behaviour since 2026-07):
 * the new record holds the primary's values where both have one, the union of multi-valued
 * attributes, the originals' unique values; other records' references, list entries and what
 * other contexts hang on either original (RECORD_MERGE_LISTENERS) move to it; both originals are
 * removed, and two `record.merged` events name them. One transaction: a failed merge changes nothing.
 */
@Injectable()
export class MergeRecordsUseCase {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly attributes: AttributeDirectory,
    private readonly store: RecordRepository,
    private readonly values: ValueWriter,
    private readonly outbox: EventOutbox,
    @Optional() @Inject(RECORD_MERGE_LISTENERS) private readonly mergeListeners: RecordMergeListener[] = [],
  ) {}

  async execute(who: WriteScope, primaryId: string, secondaryId: string): Promise<{ newRecordId: string }> {
    const { container } = who;
    const workspaceId = container.workspaceId;
    if (container.kind !== 'object') throw new Error('only object records are merged');
    if (primaryId === secondaryId) {
      throw new DomainError('self_merge', `A record cannot be merged with itself: data.primary_record_id and data.secondary_record_id are both "${primaryId}".`, {
        field: 'data.secondary_record_id',
      });
    }
    return this.transactions.run(async () => {
      // Both originals locked in id order (as relationship writes lock), so two merges or a merge
      // and a write of either queue; a record merged away meanwhile is then missing: 404.
      await this.store.lockRecordsById(workspaceId, [primaryId, secondaryId]);
      const found = new Set((await this.store.findRecordsByIds(workspaceId, container.id, [primaryId, secondaryId])).map((record) => record.id));
      for (const id of [primaryId, secondaryId]) if (!found.has(id)) throw recordNotFound(container, id);

      const attributes = await this.attributes.ofContainer(workspaceId, container.id, { includeArchived: true });
      const held = await this.store.currentValues(workspaceId, [primaryId, secondaryId]);
      const newRecordId = newId();
      const values = mergedValues(
        attributes,
        held.filter((value) => value.recordId === primaryId),
        held.filter((value) => value.recordId === secondaryId),
        { primaryId, secondaryId, newId: newRecordId },
      );
      await this.store.insertRecordWithValues(workspaceId, { id: newRecordId, containerId: container.id, createdBy: who.actor }, values);
      // The originals give up their unique values before the new record claims them.
      await this.store.releaseUniqueClaimsOf(workspaceId, [primaryId, secondaryId]);

      const originals = [primaryId, secondaryId];
      await this.store.lockRecordsById(workspaceId, await this.store.referrersOf(workspaceId, originals));
      const changed = new Set(await this.store.repointReferences(workspaceId, originals, newRecordId, who.actor));
      // A relationship's other side follows the side the merge chose: a record linked to the
      // secondary through a single-valued side the primary's value won is unlinked.
      const sides = attributes
        .filter((a) => a.relationshipAttributeId)
        .map((attribute) => ({
          attributeId: attribute.relationshipAttributeId!,
          keep: values.filter((value) => value.attributeId === attribute.id).map((value) => value.value.ref!),
        }));
      for (const id of await this.store.closeReferencesExcept(workspaceId, newRecordId, sides)) changed.add(id);
      const byAttribute = new Map(attributes.map((attribute) => [attribute.id, attribute]));
      const plans = [...new Set(values.map((value) => value.attributeId))].map((attributeId) => ({
        attribute: byAttribute.get(attributeId)!,
        open: values.filter((value) => value.attributeId === attributeId).map((value) => value.value),
      }));
      // Unique claims, and any link the other side does not hold yet (mirrored as a write would).
      await this.values.settleNewRecord(who, newRecordId, plans);

      await this.store.moveEntries(workspaceId, originals, newRecordId);
      const merge = { workspaceId, objectId: container.id, originals: [primaryId, secondaryId] as const, newRecordId, actor: who.actor };
      for (const listener of this.mergeListeners) await listener.recordsMerged(merge);
      if ((await this.store.deleteRecords(workspaceId, container.id, originals)) !== 2) throw recordNotFound(container, primaryId);
      changed.delete(newRecordId);
      await this.store.bumpVersions(workspaceId, [...changed]);
      await this.outbox.record(...originals.map((duplicate): DomainEvent => mergedEvent(who, newRecordId, duplicate)));
      return { newRecordId };
    });
  }
}

function mergedEvent(who: WriteScope, newRecordId: string, duplicateId: string): DomainEvent<'record.merged'> {
  const { container } = who;
  return {
    eventType: 'record.merged',
    workspaceId: container.workspaceId,
    id: { workspace_id: container.workspaceId, object_id: container.id, record_id: newRecordId },
    actor: who.actor,
    payload: { duplicate_record_id: duplicateId, duplicate_object_id: container.id },
  };
}
