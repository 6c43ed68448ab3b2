import { Injectable } from '@nestjs/common';
import { DomainError, type DomainEvent, isUuid, newId } from '@workbase/shared/kernel';
import { pgError, TransactionRunner, violatedUniqueConstraint } from '@workbase/shared/persistence';
import { type Attribute, AttributeDirectory, containerEvent, isPlainObject, type StoredValue } from '@workbase/schema';
import type { BatchValues } from '../domain/batch-operations';
import { defaultInputs } from '../domain/default-values';
import { mirroredLinks } from '../domain/mirror-links';
import { assertRequiredValues } from '../domain/required-values';
import { uniqueClaims } from '../domain/unique-values';
import { planValues } from '../domain/value-plan';
import type { WriteScope } from '../domain/write-scope';
import { type NewValueRow, RecordBatchRepository, type UniqueClaim } from '../infrastructure/record-batch.repository';
import type { RecordRow, ValueRowWithRecord } from '../infrastructure/record.repository';
import { ValueWriter, writtenCounts } from './value-writer';
import { type BatchLookupCache, WriteLookupsFactory } from './write-lookups';

/** A create or an assert of a batch of records, at its index. */
export interface BatchCreateItem {
  readonly index: number;
  readonly op: 'create' | 'assert';
  readonly matchingAttribute: string | null;
  readonly values: BatchValues;
}

/** How the writer hands results back, in index order: an item written with the others, or one to apply alone with the single use case. */
export interface BatchCreateSink {
  written(index: number, recordId: string): void;
  oneByOne(item: BatchCreateItem): Promise<void>;
}

/** The records written together and their values, as a read would answer them (for the response). */
export interface WrittenRecords {
  readonly records: RecordRow[];
  readonly values: ValueRowWithRecord[];
}

/** A create that can join a set-based insert: what the single create would write, planned in memory. */
interface PlannedCreate {
  readonly item: BatchCreateItem;
  readonly recordId: string;
  readonly plans: ReadonlyArray<{ attribute: Attribute; open: readonly StoredValue[] }>;
  readonly claims: ReadonlyArray<{ attribute: Attribute; key: string }>;
  /** The matching attribute's keys of an assert (locked, as the single assert locks them). */
  readonly assertKeys: ReadonlyArray<{ attribute: Attribute; key: string }>;
  /** Mirrored links to open on other records: target, the reverse attribute, the forward attribute's container. */
  readonly links: ReadonlyArray<{ target: string; reverse: Attribute; forward: Attribute }>;
}

/**
 * The set-based path of a batch's creates and asserts (issue 30 part 4). Each item is planned in
 * memory with the single create's rules (`domain/`: parsing, defaults, required values, value
 * plans, unique claims, mirrored links); the unique values of all of them are looked up at once;
 * then the items that are independent of everything else — their unique values held by no
 * record and by no other item of the batch, their links multiselect on the other side — are
 * written together: one INSERT of records, values and claims, then one lock of the records they
 * link and one statement of their mirrored links, version bumps and events (outbox and audit), in
 * the order the single path records them. An assert whose key a record holds is an update; items sharing a key depend on their
 * order; an item the planning refuses must be answered as the single endpoint would: those go
 * one by one through the single use cases (`sink.oneByOne`), in their place in the batch's order,
 * so the outcome is the one of applying every item in order.
 */
@Injectable()
export class BatchRecordWriter {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly attributes: AttributeDirectory,
    private readonly values: ValueWriter,
    private readonly lookups: WriteLookupsFactory,
    private readonly store: RecordBatchRepository,
  ) {}

  async write(who: WriteScope, attributes: readonly Attribute[], items: readonly BatchCreateItem[], sink: BatchCreateSink): Promise<WrittenRecords> {
    const { workspaceId } = who.container;
    const cache: BatchLookupCache = { objects: new Map(), recordContainers: await this.store.containersOf(workspaceId, referencedIds(attributes, items)) };
    const reverses = new Map<string, Promise<Attribute | null>>();
    const planned = new Map<number, PlannedCreate>();
    for (const item of items) {
      const plan = await this.plan(who, attributes, item, cache, reverses);
      if (plan) planned.set(item.index, plan);
    }

    // Unique values two items give depend on the items' order; values a record holds make an
    // assert an update, a create a 409: all of those go one by one.
    await this.store.lockWriteKeys(workspaceId, [...planned.values()].flatMap((p) => p.assertKeys.map(({ attribute, key }) => ({ scopeId: attribute.id, key }))));
    const claimants = new Map<string, number>();
    for (const plan of planned.values()) for (const { attribute, key } of plan.claims) claimants.set(claimKey(attribute.id, key), (claimants.get(claimKey(attribute.id, key)) ?? 0) + 1);
    const held = new Set((await this.store.holdersOf(workspaceId, [...planned.values()].flatMap((p) => p.claims.map(({ attribute, key }) => ({ attributeId: attribute.id, key }))))).map((h) => claimKey(h.attributeId, h.key)));
    for (const [index, plan] of planned) {
      if (plan.claims.some(({ attribute, key }) => held.has(claimKey(attribute.id, key)) || claimants.get(claimKey(attribute.id, key))! > 1)) planned.delete(index);
    }

    const written: WrittenRecords = { records: [], values: [] };
    let run: PlannedCreate[] = [];
    for (const item of items) {
      const plan = planned.get(item.index);
      if (plan) {
        run.push(plan);
        continue;
      }
      await this.writeRun(who, run, sink, written);
      run = [];
      await sink.oneByOne(item);
    }
    await this.writeRun(who, run, sink, written);
    return written;
  }

  /**
   * Plans one item as the single create would write it, or answers null when it must go one by
   * one: a refusal (answered by the single path, in its words), an assert's preconditions, a
   * reference to this container's own records or a single-valued reverse side (both depend on
   * the order of the batch's writes).
   */
  private async plan(
    who: WriteScope,
    attributes: readonly Attribute[],
    item: BatchCreateItem,
    cache: BatchLookupCache,
    reverses: Map<string, Promise<Attribute | null>>,
  ): Promise<PlannedCreate | null> {
    const { container } = who;
    let matching: Attribute | null = null;
    if (item.op === 'assert') {
      matching = attributes.find((a) => a.slug === item.matchingAttribute || a.id === item.matchingAttribute) ?? null;
      if (!matching || !matching.isUnique) return null;
    }
    let parsed;
    try {
      const { lookups } = this.lookups.recording(container.workspaceId, cache);
      parsed = await this.values.parse(who, attributes, item.values, lookups);
      for (const { attribute, input } of defaultInputs(attributes, new Set(parsed.keys()), who.memberId, new Date())) {
        parsed.set(attribute.id, { attribute, values: await this.values.parseAttribute(attribute, input, lookups) });
      }
      assertRequiredValues(attributes, writtenCounts(parsed), 'create');
    } catch {
      return null;
    }
    const assertKeys = matching ? [...new Set((parsed.get(matching.id)?.values ?? []).map((v) => v.key))].sort().map((key) => ({ attribute: matching, key })) : [];
    if (matching && assertKeys.length === 0) return null;
    const plans = [...parsed.values()]
      .map(({ attribute, values: given }) => ({ attribute, open: planValues([], given, attribute.isMultiselect, 'create').open }))
      .filter((plan) => plan.open.length > 0);
    if (plans.some(({ open }) => open.some((value) => value.refType === container.id))) return null;
    const claims: Array<{ attribute: Attribute; key: string }> = [];
    const links: Array<{ target: string; reverse: Attribute; forward: Attribute }> = [];
    for (const { attribute, open } of plans) {
      for (const value of uniqueClaims(attribute, { close: [], open }).claim) claims.push({ attribute, key: value.key });
      if (!attribute.relationshipAttributeId) continue;
      let reverse = reverses.get(attribute.relationshipAttributeId);
      if (!reverse) reverses.set(attribute.relationshipAttributeId, (reverse = this.attributes.findById(container.workspaceId, attribute.relationshipAttributeId)));
      const side = await reverse;
      if (!side) continue;
      if (!side.isMultiselect) return null;
      for (const target of mirroredLinks(attribute, { close: [], open }).linked) links.push({ target, reverse: side, forward: attribute });
    }
    return { item, recordId: newId(), plans, claims, assertKeys, links };
  }

  /**
   * Writes planned creates together, in a savepoint: a unique value another transaction claimed
   * meanwhile (or a value the database refuses) undoes them all, and they go one by one (the
   * single path answers the 409, or the 400 of the one item).
   */
  private async writeRun(who: WriteScope, run: readonly PlannedCreate[], sink: BatchCreateSink, written: WrittenRecords): Promise<void> {
    if (run.length === 0) return;
    // A value PostgreSQL refuses (out of its range) is one item's refusal: the single path names it.
    const inserted = await this.transactions.savepoint(() => this.insert(who, run)).catch((error: unknown) => {
      if (error instanceof ChangedMeanwhile || violatedUniqueConstraint(error) === 'unique_values_pkey' || isRefusal(error)) return null;
      throw error;
    });
    if (inserted) {
      written.records.push(...inserted.records);
      written.values.push(...inserted.values);
      for (const plan of run) sink.written(plan.item.index, plan.recordId);
      return;
    }
    for (const plan of run) await sink.oneByOne(plan.item);
  }

  /**
   * The new records, their values and claims first; then the linked records, locked in id order
   * as the single path locks them, gain their mirrored links and versions, and the events follow
   * in the single path's order (per item: the mirrored updates, then the created event), in one
   * statement. The linked records are locked last, and that statement (with its events' audit
   * entries) is built before they are, so that concurrent batches linking the same records (an
   * import's companies) queue only for the short end of each other's transactions.
   */
  private async insert(who: WriteScope, run: readonly PlannedCreate[]): Promise<WrittenRecords> {
    const { container } = who;
    const { workspaceId } = container;
    const values: NewValueRow[] = [];
    const claims: UniqueClaim[] = [];
    for (const { recordId, plans, claims: own } of run) {
      for (const { attribute, open } of plans) for (const value of open) values.push({ recordId, attributeId: attribute.id, value });
      for (const { attribute, key } of own) claims.push({ attributeId: attribute.id, key, recordId });
    }
    const { records, values: rows } = await this.store.insertRecords(
      workspaceId,
      container.id,
      who.actor,
      run.map((plan) => plan.recordId),
      values,
      claims,
    );

    const links: NewValueRow[] = [];
    const bumps = new Map<string, number>();
    const events: DomainEvent[] = [];
    for (const { recordId, links: mirrored } of run) {
      const changed = new Map<string, Set<string>>();
      const reverses = new Map<string, string>();
      for (const { target, reverse, forward } of mirrored) {
        links.push({ recordId: target, attributeId: reverse.id, value: { key: recordId, ref: recordId, refType: forward.containerId } });
        changed.set(target, (changed.get(target) ?? new Set()).add(reverse.id));
        reverses.set(target, reverse.containerId);
      }
      for (const [target, attributeIds] of changed) {
        bumps.set(target, (bumps.get(target) ?? 0) + 1);
        // The reverse attribute is one of the linked record's object.
        const objectId = reverses.get(target)!;
        for (const attributeId of attributeIds) {
          events.push({ eventType: 'record.updated', workspaceId, id: { workspace_id: workspaceId, object_id: objectId, record_id: target, attribute_id: attributeId }, actor: who.actor });
        }
      }
      events.push(containerEvent(container, 'created', who.actor, { recordId }));
    }
    const linked = this.store.linkStatement(workspaceId, who.actor, links, bumps, events);
    const locked = await this.store.lockRecords(workspaceId, [...bumps.keys()]);
    // A linked record deleted since the planning: the single path answers its 404.
    if (locked.size !== bumps.size) throw new ChangedMeanwhile();
    await this.store.run(linked);
    return { records, values: rows };
  }
}

/** A refusal of one item (a domain error, or a value or race PostgreSQL refused), as opposed to a fault that fails the request. */
export function isRefusal(error: unknown): boolean {
  if (error instanceof DomainError) return true;
  const failure = pgError(error);
  return failure !== null && (failure.isDataException || failure.isTransactionRollback);
}

/** A unique value claimed, or a linked record deleted, by another transaction between the batch's look-ups and its writes. */
class ChangedMeanwhile extends Error {}

function claimKey(attributeId: string, key: string): string {
  return `${attributeId}\u0000${key}`;
}

/** The record ids the items' record references name by `target_record_id`: looked up once for the batch. */
function referencedIds(attributes: readonly Attribute[], items: readonly BatchCreateItem[]): string[] {
  const references = attributes.filter((a) => a.type === 'record-reference');
  const ids = new Set<string>();
  for (const item of items) {
    for (const attribute of references) {
      const raw = item.values[attribute.slug] ?? item.values[attribute.id];
      for (const value of Array.isArray(raw) ? raw : [raw]) {
        if (isPlainObject(value) && isUuid(value.target_record_id)) ids.add(value.target_record_id);
      }
    }
  }
  return [...ids];
}
