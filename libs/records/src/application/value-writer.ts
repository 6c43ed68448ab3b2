import { Injectable } from '@nestjs/common';
import { ConflictError, DomainError, type DomainEvent, ValidationError } from '@workbase/shared/kernel';
import { EventOutbox, isPgError, withAuditChanges } from '@workbase/shared/persistence';
import { type Attribute, isRecordSystemAttribute, type WriteLookups, parseAttributeValues, type StoredValue, valueKey, AttributeDirectory, type Container } from '@workbase/schema';
import { displacedReverseLinks, mirroredLinks } from '../domain/mirror-links';
import { uniqueClaims, uniquenessConflict } from '../domain/unique-values';
import { planValues, type WriteMode } from '../domain/value-plan';
import type { WriteScope } from '../domain/write-scope';
import { RecordRepository } from '../infrastructure/record.repository';
import { WriteLookupsFactory } from './write-lookups';

export type ValuesInput = Readonly<Record<string, unknown>>;

/**
 * What mirroring did to one single-valued attribute of another record, for its audit entry: the
 * value keys it held before the write's first change to it, the rows the write closed and the
 * keys it opened.
 */
interface MirroredChange {
  readonly slug: string;
  readonly before: ReadonlyArray<{ readonly id: string; readonly key: string }>;
  readonly closed: Set<string>;
  readonly opened: string[];
}

/** The records and attributes mirroring changed, with what it changed in each (keyed `record:attribute`). */
interface MirroredChanges {
  readonly attributes: Map<string, Set<string>>;
  readonly values: Map<string, MirroredChange>;
}

function noMirroredChanges(): MirroredChanges {
  return { attributes: new Map(), values: new Map() };
}

/** An attribute named by a write, with its values as parsed. */
export interface ParsedAttribute {
  readonly attribute: Attribute;
  readonly values: StoredValue[];
}

/** How many values a write gives each attribute it names (by attribute id), for the required-value rule. */
export function writtenCounts(parsed: ReadonlyMap<string, ParsedAttribute>): Map<string, number> {
  return new Map([...parsed].map(([attributeId, { values }]) => [attributeId, values.length]));
}

/**
 * The value steps every record write shares, in the write's transaction: parse what is written
 * with each attribute's codec, lock the record, apply the value plans (history, unique claims,
 * mirrored links) and record the updates mirroring made elsewhere. The use cases (create, update,
 * assert, delete) decide the order and apply the rules of `domain/`.
 */
@Injectable()
export class ValueWriter {
  constructor(
    private readonly attributes: AttributeDirectory,
    private readonly store: RecordRepository,
    private readonly lookups: WriteLookupsFactory,
    private readonly outbox: EventOutbox,
  ) {}

  /** Parses the written values by attribute; unknown, archived or system attributes are refused, naming them. */
  async parse(
    who: WriteScope,
    attributes: readonly Attribute[],
    values: ValuesInput,
    lookups: WriteLookups = this.lookups.forWorkspace(who.container.workspaceId),
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

  /** One attribute's input parsed as a write would give it (a default applied on create). */
  parseAttribute(attribute: Attribute, raw: unknown, lookups: WriteLookups): Promise<StoredValue[]> {
    return parseAttributeValues(attribute, raw, lookups);
  }

  /** Locks a record for a write (null: no such record); `failFast` answers a record another write holds with 409 instead of waiting. */
  async lockForWrite(container: Container, recordId: string, failFast: boolean) {
    try {
      return await this.store.lockRecord(container.workspaceId, container.id, recordId, { noWait: failFast });
    } catch (error) {
      if (isPgError(error, 'lockNotAvailable')) {
        throw new ConflictError('concurrent_write_conflict', `Record ${recordId} is being written by another request; retry.`);
      }
      throw error;
    }
  }

  /** Applies value plans; returns the ids of attributes whose current values changed. */
  /**
   * `changes`, when given, receives per changed attribute id its slug and the value keys it held
   * before and holds after the write (for the audit entry of its `updated` event).
   */
  async apply(
    who: WriteScope,
    recordId: string,
    parsed: Map<string, ParsedAttribute>,
    mode: WriteMode,
    appendTo?: ReadonlySet<string>,
    changes?: Map<string, { slug: string; old: string[]; new: string[] }>,
  ): Promise<string[]> {
    const attributeIds = [...parsed.keys()];
    const current = mode === 'create' || attributeIds.length === 0 ? [] : await this.store.currentValues(who.container.workspaceId, [recordId], attributeIds);
    const changed: string[] = [];
    const changedElsewhere = noMirroredChanges();
    for (const { attribute, values } of parsed.values()) {
      const held = current.filter((row) => row.attributeId === attribute.id).map((row) => ({ ...row, key: valueKey(attribute.type, row) }));
      const plan = planValues(held, values, attribute.isMultiselect, appendTo?.has(attribute.id) ? 'append' : mode);
      if (plan.close.length === 0 && plan.open.length === 0) continue;
      changed.push(attribute.id);
      if (changes) {
        const closed = new Set(plan.close.map((row) => row.id));
        const old = held.map((row) => row.key);
        changes.set(attribute.id, { slug: attribute.slug, old, new: [...held.filter((row) => !closed.has(row.id)).map((row) => row.key), ...plan.open.map((value) => value.key)] });
      }
      await this.store.closeValues(who.container.workspaceId, plan.close.map((row) => row.id));
      if (attribute.isUnique) {
        const { release, claim } = uniqueClaims(attribute, plan);
        await this.store.releaseUniqueValues(who.container.workspaceId, attribute.id, release, recordId);
        await this.claimUniqueValues(who, recordId, attribute, claim);
      }
      await this.store.openValues(who.container.workspaceId, recordId, attribute.id, plan.open, who.actor);
      if (attribute.relationshipAttributeId) await this.mirror(who, recordId, attribute, mirroredLinks(attribute, plan), changedElsewhere);
    }
    await this.recordMirroredUpdates(who, changedElsewhere);
    return changed;
  }

  /**
   * What follows the insert of a new record's values, per attribute in their order: unique claims
   * and mirrored links (the new record's rows are invisible to everyone else until commit).
   */
  async settleNewRecord(who: WriteScope, recordId: string, plans: ReadonlyArray<{ attribute: Attribute; open: readonly StoredValue[] }>): Promise<void> {
    const changedElsewhere = noMirroredChanges();
    for (const { attribute, open } of plans) {
      const plan = { close: [], open };
      if (attribute.isUnique) await this.claimUniqueValues(who, recordId, attribute, uniqueClaims(attribute, plan).claim);
      if (attribute.relationshipAttributeId) await this.mirror(who, recordId, attribute, mirroredLinks(attribute, plan), changedElsewhere);
    }
    await this.recordMirroredUpdates(who, changedElsewhere);
  }

  /** Claims the values of a unique attribute for the record, in order; a value another record holds is a 409. */
  private async claimUniqueValues(who: WriteScope, recordId: string, attribute: Attribute, values: readonly StoredValue[]): Promise<void> {
    for (const value of values) {
      const holder = await this.store.claimUniqueValue(who.container.workspaceId, attribute.id, value.key, recordId);
      if (holder) throw uniquenessConflict(attribute, value.key, holder);
    }
  }

  /**
   * Keeps both sides of a relationship in step (`domain/mirror-links.ts`): linking A.forward → B
   * adds B.reverse → A, and unlinking removes it. A single-valued reverse side that pointed
   * elsewhere (B.reverse → C) is moved, and C's forward link to B is removed with it.
   */
  private async mirror(who: WriteScope, recordId: string, attribute: Attribute, { linked, unlinked }: { linked: string[]; unlinked: string[] }, changed: MirroredChanges): Promise<void> {
    const reverse = await this.attributes.findById(who.container.workspaceId, attribute.relationshipAttributeId!);
    if (!reverse) return;
    /**
     * The change to `record`'s `side` (its rows as read before this step), kept from its first step
     * in this write. Only a single-valued side carries its values: a multiselect side (a company's
     * team) gains one link per write, and its whole list in every entry would grow the log with the
     * square of the list (an import of a company's people); its entries name the attribute only.
     */
    const track = (record: string, side: Attribute, held: ReadonlyArray<{ id: string } & StoredValue>): MirroredChange | null => {
      changed.attributes.set(record, (changed.attributes.get(record) ?? new Set()).add(side.id));
      if (side.isMultiselect) return null;
      const at = `${record}:${side.id}`;
      let change = changed.values.get(at);
      if (!change) {
        change = { slug: side.slug, before: held.map((row) => ({ id: row.id, key: valueKey(side.type, row) })), closed: new Set(), opened: [] };
        changed.values.set(at, change);
      }
      return change;
    };
    const unlink = async (record: string, side: Attribute, target: string) => {
      const held = await this.store.currentValues(who.container.workspaceId, [record], [side.id]);
      const rows = held.filter((row) => row.ref === target);
      if (rows.length === 0) return;
      await this.store.closeValues(who.container.workspaceId, rows.map((row) => row.id));
      const change = track(record, side, held);
      for (const row of rows) change?.closed.add(row.id);
    };
    // The other side's values are read, then changed: lock those records first, or two writers
    // linking one record at once could each see it free and both open a single-valued reverse link.
    await this.store.lockRecordsById(who.container.workspaceId, [...unlinked, ...linked]);
    for (const target of unlinked) await unlink(target, reverse, recordId);
    for (const target of linked) {
      const held = await this.store.currentValues(who.container.workspaceId, [target], [reverse.id]);
      const { alreadyLinked, displaced } = displacedReverseLinks(held, recordId, reverse.isMultiselect);
      if (alreadyLinked) continue;
      const closed: string[] = [];
      if (!reverse.isMultiselect) {
        await this.store.lockRecordsById(who.container.workspaceId, displaced.map((d) => d.unlinkFrom).filter((ref): ref is string => ref !== null));
        for (const { row, unlinkFrom } of displaced) {
          await this.store.closeValues(who.container.workspaceId, [row.id]);
          closed.push(row.id);
          if (unlinkFrom) await unlink(unlinkFrom, attribute, target);
        }
      }
      await this.store.openValues(who.container.workspaceId, target, reverse.id, [{ key: recordId, ref: recordId, refType: attribute.containerId }], who.actor);
      const change = track(target, reverse, held);
      for (const id of closed) change?.closed.add(id);
      change?.opened.push(recordId);
    }
  }

  /**
   * Mirrored changes are updates of the other records too: bump their versions, record events,
   * a single-valued attribute's with its old and new value keys for the audit entry.
   */
  private async recordMirroredUpdates(who: WriteScope, changed: MirroredChanges): Promise<void> {
    for (const [record, attributeIds] of changed.attributes) {
      await this.store.bumpVersion(who.container.workspaceId, record);
      const row = await this.store.findRecordById(who.container.workspaceId, record);
      if (!row) continue;
      await this.outbox.record(
        ...[...attributeIds].map((attributeId): DomainEvent => {
          const event: DomainEvent = {
            eventType: 'record.updated',
            workspaceId: who.container.workspaceId,
            id: { workspace_id: who.container.workspaceId, object_id: row.containerId, record_id: record, attribute_id: attributeId },
            actor: who.actor,
          };
          const change = changed.values.get(`${record}:${attributeId}`);
          if (!change) return event;
          const after = [...change.before.filter((held) => !change.closed.has(held.id)).map((held) => held.key), ...change.opened];
          return withAuditChanges(event, { [change.slug]: { old: change.before.map((held) => held.key), new: after } });
        }),
      );
    }
  }
}
