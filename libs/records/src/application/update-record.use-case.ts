import { Injectable } from '@nestjs/common';
import { AuditTrail, EventOutbox, TransactionRunner, withAuditChanges } from '@workbase/shared/persistence';
import { type Attribute, AttributeDirectory, CONTAINER_EVENTS, containerEvent } from '@workbase/schema';
import { recordNotFound } from '../domain/record-errors';
import { assertRequiredValues } from '../domain/required-values';
import type { WriteMode } from '../domain/value-plan';
import type { WriteScope } from '../domain/write-scope';
import { RecordRepository } from '../infrastructure/record.repository';
import { RecordQueries } from './record.queries';
import type { RecordView } from './record-reader';
import { ValueWriter, type ValuesInput, writtenCounts } from './value-writer';

export type UpdateMode = Exclude<WriteMode, 'create'>;

export interface UpdateOptions {
  /** Answer 409 `concurrent_write_conflict` on a record another request is writing, instead of waiting for it. */
  readonly failOnConcurrentWrite?: boolean;
  /** Attributes that append even under overwrite (an assert's matching attribute). */
  readonly appendTo?: ReadonlySet<string>;
  /** The container's attributes (archived included), when the caller read them already (a batch reads them once). */
  readonly attributes?: readonly Attribute[];
}

/**
 * Updates a record's values: PATCH appends to multiselect attributes (`append`), PUT makes them
 * exact (`overwrite`). The record is locked, the values planned against what it holds, a required
 * attribute cannot be emptied, and each changed attribute records an `updated` event — in one
 * transaction. Each changed attribute's audit entry carries its slug with the value keys it held
 * before and holds after; an activity record has no `updated` event (the reference spec rules it
 * out), so its audit entry is written without one.
 */
@Injectable()
export class UpdateRecordUseCase {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly attributes: AttributeDirectory,
    private readonly store: RecordRepository,
    private readonly values: ValueWriter,
    private readonly outbox: EventOutbox,
    private readonly reads: RecordQueries,
    private readonly audit: AuditTrail,
  ) {}

  /** Updates the record and answers it as read after the write; unknown record: 404. */
  async execute(who: WriteScope, recordId: string, values: ValuesInput, mode: UpdateMode, options: UpdateOptions = {}): Promise<RecordView> {
    if ((await this.write(who, recordId, values, mode, options)) === null) throw recordNotFound(who.container, recordId);
    return this.reads.get(who.container, recordId);
  }

  /** The update itself, in the caller's transaction when there is one; answers the ids of the attributes whose values changed, or null for an unknown record. */
  write(who: WriteScope, recordId: string, values: ValuesInput, mode: UpdateMode, options: UpdateOptions = {}): Promise<string[] | null> {
    const { container } = who;
    return this.transactions.run(async () => {
      const record = await this.values.lockForWrite(container, recordId, options.failOnConcurrentWrite ?? false);
      if (!record) return null;
      const attributes = options.attributes ?? (await this.attributes.ofContainer(container.workspaceId, container.id, { includeArchived: true }));
      const parsed = await this.values.parse(who, attributes, values);
      const changes = new Map<string, { slug: string; old: string[]; new: string[] }>();
      const changed = await this.values.apply(who, recordId, parsed, mode, options.appendTo, changes);
      assertRequiredValues(attributes, writtenCounts(parsed), 'update');
      if (changed.length > 0) await this.store.bumpVersion(container.workspaceId, recordId);
      const changeOf = (attributeId: string) => {
        const change = changes.get(attributeId);
        return change ? { [change.slug]: { old: change.old, new: change.new } } : null;
      };
      if (CONTAINER_EVENTS[container.kind].updated) {
        await this.outbox.record(
          ...changed.map((attributeId) => {
            const event = containerEvent(container, 'updated', who.actor, { recordId, attributeId });
            const change = changeOf(attributeId);
            return change ? withAuditChanges(event, change) : event;
          }),
        );
      } else {
        const target = { workspace_id: container.workspaceId, [CONTAINER_EVENTS[container.kind].idKey]: container.id, record_id: recordId };
        await this.audit.record(
          ...changed.map((attributeId) => ({
            workspaceId: container.workspaceId,
            action: `${container.kind}-record.updated`,
            targetKind: `${container.kind}-record`,
            targetId: recordId,
            target: { ...target, attribute_id: attributeId },
            actor: { ...who.actor },
            changes: changeOf(attributeId),
          })),
        );
      }
      return changed;
    });
  }
}
