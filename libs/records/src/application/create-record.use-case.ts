import { Injectable } from '@nestjs/common';
import { newId } from '@workbase/shared/kernel';
import { EventOutbox, TransactionRunner } from '@workbase/shared/persistence';
import { type Attribute, AttributeDirectory, containerEvent } from '@workbase/schema';
import { defaultInputs } from '../domain/default-values';
import { assertRequiredValues } from '../domain/required-values';
import { planValues } from '../domain/value-plan';
import type { WriteScope } from '../domain/write-scope';
import { RecordRepository } from '../infrastructure/record.repository';
import { type CreatedRecord, RecordQueries } from './record.queries';
import type { RecordView } from './record-reader';
import { ValueWriter, type ValuesInput, writtenCounts } from './value-writer';
import { WriteLookupsFactory } from './write-lookups';

export interface CreateOptions {
  /** The container's attributes (archived included), when the caller read them in this request. */
  readonly attributes?: readonly Attribute[];
  /** The record an entry is about (list entries). */
  readonly parentRecordId?: string | null;
}

/**
 * Creates a record: its written values parsed, defaults applied, required values checked, the
 * record and its values inserted in one statement with its `created` event, then unique claims
 * and mirrored links — all in one transaction, so a failed create changes nothing.
 */
@Injectable()
export class CreateRecordUseCase {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly attributes: AttributeDirectory,
    private readonly store: RecordRepository,
    private readonly values: ValueWriter,
    private readonly lookups: WriteLookupsFactory,
    private readonly outbox: EventOutbox,
    private readonly reads: RecordQueries,
  ) {}

  /** Creates the record and answers it as a read would, built from what the insert returned. */
  async execute(who: WriteScope, values: ValuesInput, options: CreateOptions = {}): Promise<RecordView> {
    const created = await this.write(who, values, options);
    return this.reads.created(who.container, created);
  }

  /** The create itself, in the caller's transaction when there is one (asserts, entries). */
  write(who: WriteScope, values: ValuesInput, options: CreateOptions = {}): Promise<CreatedRecord> {
    const { container } = who;
    return this.transactions.run(async () => {
      const attributes = options.attributes ?? (await this.attributes.ofContainer(container.workspaceId, container.id, { includeArchived: true }));
      const { lookups, seen } = this.lookups.recording(container.workspaceId);
      const parsed = await this.values.parse(who, attributes, values, lookups);
      for (const { attribute, input } of defaultInputs(attributes, new Set(parsed.keys()), who.memberId, new Date())) {
        parsed.set(attribute.id, { attribute, values: await this.values.parseAttribute(attribute, input, lookups) });
      }
      assertRequiredValues(attributes, writtenCounts(parsed), 'create');
      const recordId = newId();
      // A new record holds nothing: each attribute's plan only opens values.
      const plans = [...parsed.values()]
        .map(({ attribute, values: given }) => ({ attribute, open: planValues([], given, attribute.isMultiselect, 'create').open }))
        .filter((plan) => plan.open.length > 0);
      // The created event is written by the insert itself unless links to other records are
      // mirrored: their update events come first, as they always have.
      const created = containerEvent(container, 'created', who.actor, { recordId });
      const mirrors = plans.some(({ attribute }) => attribute.relationshipAttributeId);
      const written = await this.store.insertRecordWithValues(
        container.workspaceId,
        { id: recordId, containerId: container.id, createdBy: who.actor, parentRecordId: options.parentRecordId },
        plans.flatMap(({ attribute, open }) => open.map((value) => ({ attributeId: attribute.id, value }))),
        mirrors ? [] : [created],
      );
      await this.values.settleNewRecord(who, recordId, plans);
      if (mirrors) await this.outbox.record(created);
      return { record: written.record, values: written.values, attributes, known: seen };
    });
  }
}
