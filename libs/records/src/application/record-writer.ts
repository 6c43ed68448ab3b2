import { Injectable } from '@nestjs/common';
import { ConflictError, DomainError, type DomainEvent, newId, ValidationError } from '@workbase/shared/kernel';
import { EventOutbox, isPgError, TransactionRunner } from '@workbase/shared/persistence';
import { type Attribute, isRecordSystemAttribute, type ReadContext, type WriteLookups, parseAttributeValues, type StoredValue, valueKey, AttributeDirectory, CONTAINER_EVENTS, type Container, containerEvent } from '@workbase/schema';
import { planValues, type WriteMode } from '../domain/value-plan';
import type { WriteActor, WriteScope } from '../domain/write-scope';
import { type RecordRow, RecordRepository, type ValueRowWithRecord } from '../infrastructure/record.repository';
import { WriteLookupsFactory } from './write-lookups';

export type ValuesInput = Readonly<Record<string, unknown>>;

/** A record just created, as its insert returned it, with what a response needs besides. */
export interface CreatedRecord {
  readonly record: RecordRow;
  readonly values: ValueRowWithRecord[];
  /** The container's attributes as the write read them, archived ones included. */
  readonly attributes: readonly Attribute[];
  /** Options, statuses and object slugs the write looked up. */
  readonly known: ReadContext;
}

interface ParsedAttribute {
  readonly attribute: Attribute;
  readonly values: StoredValue[];
}

/**
 * The one write path of every record container: parses each written attribute with its codec,
 * applies the value-history rules, enforces required, unique and default values, and records
 * the events — all in one transaction, so a failed write changes nothing.
 */
@Injectable()
export class RecordWriter {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly attributes: AttributeDirectory,
    private readonly store: RecordRepository,
    private readonly lookups: WriteLookupsFactory,
    private readonly outbox: EventOutbox,
  ) {}

  async create(who: WriteScope, values: ValuesInput, options: { parentRecordId?: string | null } = {}): Promise<string> {
    return (await this.createRecord(who, values, options)).record.id;
  }

  /**
   * Creates a record; answers it with its values as the insert returned them, the container's
   * attributes (archived ones included) and what the lookups found, so the response needs no
   * second read. `attributes`: the container's, when the caller read them in this transaction.
   */
  async createRecord(who: WriteScope, values: ValuesInput, options: { parentRecordId?: string | null; attributes?: readonly Attribute[] } = {}): Promise<CreatedRecord> {
    const { container } = who;
    return this.transactions.run(async () => {
      const attributes = options.attributes ?? (await this.attributes.ofContainer(who.workspaceId, container.id, { includeArchived: true }));
      const { lookups, seen } = this.lookups.recording(who.workspaceId);
      const parsed = await this.parse(who, attributes, values, lookups);
      await this.applyDefaults(who, attributes, parsed, lookups);
      this.assertRequired(attributes, parsed, null);
      const recordId = newId();
      // A new record holds nothing: each attribute's plan only opens values. They are inserted
      // with the record in one statement; unique claims and mirrored links follow, per attribute
      // in the order they always had (the new record's rows are invisible to everyone else).
      const plans = [...parsed.values()]
        .map(({ attribute, values: given }) => ({ attribute, open: planValues([], given, attribute.isMultiselect, 'create').open }))
        .filter((plan) => plan.open.length > 0);
      // The created event is written by the insert itself unless links to other records are
      // mirrored: their update events come first, as they always have.
      const created = containerEvent(container, 'created', who.actor, { recordId });
      const mirrors = plans.some(({ attribute }) => attribute.relationshipAttributeId);
      const written = await this.store.insertRecordWithValues(
        who.workspaceId,
        { id: recordId, containerId: container.id, createdBy: who.actor, parentRecordId: options.parentRecordId },
        plans.flatMap(({ attribute, open }) => open.map((value) => ({ attributeId: attribute.id, value }))),
        mirrors ? [] : [created],
      );
      const changedElsewhere = new Map<string, Set<string>>();
      for (const { attribute, open } of plans) {
        if (attribute.isUnique) await this.claimUniqueValues(who, recordId, attribute, open);
        if (attribute.relationshipAttributeId) await this.mirror(who, recordId, attribute, open.map((v) => v.ref!), [], changedElsewhere);
      }
      await this.recordMirroredUpdates(who, changedElsewhere);
      if (mirrors) await this.outbox.record(created);
      return { record: written.record, values: written.values, attributes, known: seen };
    });
  }

  /**
   * Updates a record; returns the attributes whose values changed. Unknown record: null.
   * `appendTo` names attributes that append even under overwrite (an assert's matching attribute);
   * `failOnConcurrentWrite` answers a record locked by another write with 409 instead of waiting.
   */
  async update(
    who: WriteScope,
    recordId: string,
    values: ValuesInput,
    mode: Exclude<WriteMode, 'create'>,
    options: { appendTo?: ReadonlySet<string>; failOnConcurrentWrite?: boolean } = {},
  ): Promise<string[] | null> {
    const { container } = who;
    return this.transactions.run(async () => {
      const record = await this.lockForWrite(who.workspaceId, container, recordId, options.failOnConcurrentWrite ?? false);
      if (!record) return null;
      const attributes = await this.attributes.ofContainer(who.workspaceId, container.id, { includeArchived: true });
      const parsed = await this.parse(who, attributes, values);
      const changed = await this.apply(who, recordId, parsed, mode, options.appendTo);
      this.assertRequired(attributes, parsed, changed);
      if (changed.length > 0) await this.store.bumpVersion(who.workspaceId, recordId);
      if (CONTAINER_EVENTS[container.kind].updated) {
        await this.outbox.record(...changed.map((attributeId) => containerEvent(container, 'updated', who.actor, { recordId, attributeId })));
      }
      return changed;
    });
  }

  private async parse(
    who: WriteScope,
    attributes: readonly Attribute[],
    values: ValuesInput,
    lookups: WriteLookups = this.lookups.forWorkspace(who.workspaceId),
  ): Promise<Map<string, ParsedAttribute>> {
    const { container } = who;
    if (values === null || typeof values !== 'object' || Array.isArray(values)) {
      throw new ValidationError('data.values must be an object keyed by attribute slug or id');
    }
    const bySlug = new Map(attributes.map((a) => [a.slug, a]));
    const byId = new Map(attributes.map((a) => [a.id, a]));
    const parsed = new Map<string, ParsedAttribute>();
    for (const [key, raw] of Object.entries(values)) {
      const attribute = bySlug.get(key) ?? byId.get(key);
      if (!attribute) throw new ValidationError(`Unknown attribute "${key}" on ${container.kind} "${container.slug}".`, { attribute: key });
      if (parsed.has(attribute.id)) throw new ValidationError(`Attribute "${attribute.slug}" is given twice (by slug and by id).`);
      if (attribute.isArchived) throw new ValidationError(`Attribute "${attribute.slug}" is archived and cannot be written.`);
      if (!attribute.isWritable || isRecordSystemAttribute(attribute)) {
        throw new DomainError('immutable_value', `Attribute "${attribute.slug}" is set by the system and cannot be written.`, { attribute: attribute.slug });
      }
      parsed.set(attribute.id, { attribute, values: await this.parseAttribute(attribute, raw, lookups) });
    }
    return parsed;
  }

  private parseAttribute(attribute: Attribute, raw: unknown, lookups: WriteLookups): Promise<StoredValue[]> {
    return parseAttributeValues(attribute, raw, lookups);
  }

  /** Locks a record for a write (null: no such record); `failFast` answers a record another write holds with 409 instead of waiting. */
  async lockForWrite(workspaceId: string, container: Container, recordId: string, failFast: boolean) {
    try {
      return await this.store.lockRecord(workspaceId, container.id, recordId, { noWait: failFast });
    } catch (error) {
      if (isPgError(error, 'lockNotAvailable')) {
        throw new ConflictError('concurrent_write_conflict', `Record ${recordId} is being written by another request; retry.`);
      }
      throw error;
    }
  }

  /** Applies value plans; returns the ids of attributes whose current values changed. */
  private async apply(who: WriteActor, recordId: string, parsed: Map<string, ParsedAttribute>, mode: WriteMode, appendTo?: ReadonlySet<string>): Promise<string[]> {
    const attributeIds = [...parsed.keys()];
    const current = mode === 'create' || attributeIds.length === 0 ? [] : await this.store.currentValues(who.workspaceId, [recordId], attributeIds);
    const changed: string[] = [];
    const changedElsewhere = new Map<string, Set<string>>();
    for (const { attribute, values } of parsed.values()) {
      const held = current.filter((row) => row.attributeId === attribute.id).map((row) => ({ ...row, key: valueKey(attribute.type, row) }));
      const plan = planValues(held, values, attribute.isMultiselect, appendTo?.has(attribute.id) ? 'append' : mode);
      if (plan.close.length === 0 && plan.open.length === 0) continue;
      changed.push(attribute.id);
      await this.store.closeValues(who.workspaceId, plan.close.map((row) => row.id));
      if (attribute.isUnique) {
        await this.store.releaseUniqueValues(who.workspaceId, attribute.id, plan.close.map((row) => row.key), recordId);
        await this.claimUniqueValues(who, recordId, attribute, plan.open);
      }
      await this.store.openValues(who.workspaceId, recordId, attribute.id, plan.open, who.actor);
      if (attribute.relationshipAttributeId) {
        await this.mirror(who, recordId, attribute, plan.open.map((v) => v.ref!), plan.close.map((v) => v.ref!), changedElsewhere);
      }
    }
    await this.recordMirroredUpdates(who, changedElsewhere);
    return changed;
  }

  /** Claims the values of a unique attribute for the record, in order; a value another record holds is a 409. */
  private async claimUniqueValues(who: WriteActor, recordId: string, attribute: Attribute, values: readonly StoredValue[]): Promise<void> {
    for (const value of values) {
      const holder = await this.store.claimUniqueValue(who.workspaceId, attribute.id, value.key, recordId);
      if (holder) {
        throw new ConflictError('uniqueness_conflict', `The value "${value.key}" of unique attribute "${attribute.slug}" already belongs to record ${holder}.`, {
          attribute: attribute.slug,
          conflicting_record_id: holder,
        });
      }
    }
  }

  /**
   * Keeps both sides of a relationship in step: linking A.forward → B adds B.reverse → A, and
   * unlinking removes it. A single-valued reverse side that pointed elsewhere (B.reverse → C) is
   * moved, and C's forward link to B is removed with it, so no half-link remains.
   */
  private async mirror(who: WriteActor, recordId: string, attribute: Attribute, linked: string[], unlinked: string[], changed: Map<string, Set<string>>): Promise<void> {
    const reverse = await this.attributes.findById(who.workspaceId, attribute.relationshipAttributeId!);
    if (!reverse) return;
    const note = (record: string, attributeId: string) => changed.set(record, (changed.get(record) ?? new Set()).add(attributeId));
    const unlink = async (record: string, attributeId: string, target: string) => {
      const rows = (await this.store.currentValues(who.workspaceId, [record], [attributeId])).filter((row) => row.ref === target);
      if (rows.length === 0) return;
      await this.store.closeValues(who.workspaceId, rows.map((row) => row.id));
      note(record, attributeId);
    };
    // The other side's values are read, then changed: lock those records first, or two writers
    // linking one record at once could each see it free and both open a single-valued reverse link.
    await this.store.lockRecordsById(who.workspaceId, [...unlinked, ...linked]);
    for (const target of unlinked) await unlink(target, reverse.id, recordId);
    for (const target of linked) {
      const held = await this.store.currentValues(who.workspaceId, [target], [reverse.id]);
      if (held.some((row) => row.ref === recordId)) continue;
      if (!reverse.isMultiselect) {
        await this.store.lockRecordsById(who.workspaceId, held.map((other) => other.ref).filter((ref): ref is string => ref !== null && ref !== recordId));
        for (const other of held) {
          await this.store.closeValues(who.workspaceId, [other.id]);
          if (other.ref && other.ref !== recordId) await unlink(other.ref, attribute.id, target);
        }
      }
      await this.store.openValues(who.workspaceId, target, reverse.id, [{ key: recordId, ref: recordId, refType: attribute.containerId }], who.actor);
      note(target, reverse.id);
    }
  }

  /** Mirrored changes are updates of the other records too: bump their versions, record events. */
  private async recordMirroredUpdates(who: WriteActor, changed: Map<string, Set<string>>): Promise<void> {
    for (const [record, attributeIds] of changed) {
      await this.store.bumpVersion(who.workspaceId, record);
      const row = await this.store.findRecordById(who.workspaceId, record);
      if (!row) continue;
      await this.outbox.record(
        ...[...attributeIds].map(
          (attributeId): DomainEvent => ({
            eventType: 'record.updated',
            workspaceId: who.workspaceId,
            id: { workspace_id: who.workspaceId, object_id: row.containerId, record_id: record, attribute_id: attributeId },
            actor: who.actor,
          }),
        ),
      );
    }
  }

  private async applyDefaults(who: WriteActor, attributes: readonly Attribute[], parsed: Map<string, ParsedAttribute>, lookups: WriteLookups): Promise<void> {
    for (const attribute of attributes) {
      if (!attribute.defaultValue || attribute.isArchived || parsed.has(attribute.id)) continue;
      if (attribute.defaultValue.type === 'dynamic') {
        if (attribute.defaultValue.template === 'current-user' && who.memberId) {
          parsed.set(attribute.id, { attribute, values: await this.parseAttribute(attribute, { referenced_actor_type: 'workspace-member', referenced_actor_id: who.memberId }, lookups) });
        } else if (attribute.type === 'timestamp' || attribute.type === 'date') {
          parsed.set(attribute.id, { attribute, values: await this.parseAttribute(attribute, new Date().toISOString(), lookups) });
        }
      } else {
        parsed.set(attribute.id, { attribute, values: await this.parseAttribute(attribute, attribute.defaultValue.template, lookups) });
      }
    }
  }

  /** On create every required attribute needs a value; on update a required one cannot be emptied. */
  private assertRequired(attributes: readonly Attribute[], parsed: Map<string, ParsedAttribute>, changed: string[] | null): void {
    for (const attribute of attributes) {
      if (!attribute.isRequired || attribute.isArchived || isRecordSystemAttribute(attribute)) continue;
      const written = parsed.get(attribute.id);
      if (changed === null ? !written || written.values.length === 0 : written !== undefined && written.values.length === 0) {
        throw new DomainError('missing_value', `Required attribute "${attribute.slug}" needs a value.`, { attribute: attribute.slug });
      }
    }
  }
}
