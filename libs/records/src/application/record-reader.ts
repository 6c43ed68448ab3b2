import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@workbase/shared/config';
import type { Actor } from '@workbase/shared/kernel';
import { type Attribute, AttributeDirectory, isRecordSystemAttribute, CODECS, type ReadContext, type OptionView, type StatusView, CONTAINER_EVENTS, type Container, ObjectDirectory } from '@workbase/schema';
import { type RecordRow, RecordRepository, type ValueRowWithRecord } from '../infrastructure/record.repository';

export type ValueEnvelope = Record<string, unknown>;

export interface RecordView {
  id: Record<string, string>;
  created_at: string;
  created_by: Actor;
  /** Set on list entries: the record the entry is about. */
  parent_record_id: string | null;
  web_url?: string;
  values: Record<string, ValueEnvelope[]>;
}

/**
 * Builds the wire shape of records: the composite id, `created_at`, `web_url` for object records,
 * and `values` keyed by every live attribute's slug (an empty array where there is none).
 * Loads everything a page of records needs in a fixed number of queries.
 */
@Injectable()
export class RecordReader {
  constructor(
    private readonly attributes: AttributeDirectory,
    private readonly store: RecordRepository,
    private readonly objects: ObjectDirectory,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * `attributes`: the container's (archived included) when the caller read them already in this
   * request; otherwise they are read here. The values come with the options, statuses and object
   * slugs they name, in one statement.
   */
  async read(container: Container, records: readonly RecordRow[], workspaceSlug?: string, attributes?: readonly Attribute[]): Promise<RecordView[]> {
    if (records.length === 0) return [];
    const live = await this.liveAttributes(container, attributes);
    const { values, context } = await this.store.currentValuesForRead(container.workspaceId, records.map((r) => r.id));
    return this.build(container, records, live, values, context, workspaceSlug);
  }

  /**
   * Records just written with their values as the write returned them (current values, in
   * record, attribute and id order, as `read` reads them): answered as `read` would.
   */
  async readWritten(container: Container, records: readonly RecordRow[], values: readonly ValueRowWithRecord[], attributes: readonly Attribute[], workspaceSlug?: string): Promise<RecordView[]> {
    if (records.length === 0) return [];
    const live = await this.liveAttributes(container, attributes);
    return this.build(container, records, live, values, await this.readContext(container.workspaceId, live), workspaceSlug);
  }

  /** One record of the container with its values (one statement), or null when there is none. */
  async readOne(container: Container, recordId: string, workspaceSlug?: string, attributes?: readonly Attribute[]): Promise<RecordView | null> {
    const found = await this.store.findRecordForRead(container.workspaceId, container.id, recordId);
    if (!found) return null;
    const live = await this.liveAttributes(container, attributes);
    return this.build(container, [found.record], live, found.read.values, found.read.context, workspaceSlug)[0];
  }

  private async liveAttributes(container: Container, attributes: readonly Attribute[] | undefined): Promise<readonly Attribute[]> {
    return attributes ? attributes.filter((a) => !a.isArchived) : this.attributes.ofContainer(container.workspaceId, container.id);
  }

  /**
   * The view of a record just created in this transaction, from what its insert returned: the
   * same rows `read` would select (nothing else writes an uncommitted record). `attributes` are
   * the container's as the write read them (archived ones included); `known` holds the options,
   * statuses and object slugs the write looked up, and is enough when it covers every value.
   */
  async readCreated(
    container: Container,
    record: RecordRow,
    values: readonly ValueRowWithRecord[],
    attributes: readonly Attribute[],
    known: ReadContext,
    workspaceSlug?: string,
  ): Promise<RecordView> {
    const live = attributes.filter((a) => !a.isArchived);
    const byId = new Map(live.map((a) => [a.id, a]));
    const covered = values.every((row) => {
      const type = byId.get(row.attributeId)?.type;
      if (type === 'select') return known.option(row.ref!) !== undefined;
      if (type === 'status') return known.status(row.ref!) !== undefined;
      if (type === 'record-reference') return known.objectSlug(row.refType!) !== undefined;
      return true;
    });
    const context = covered ? known : await this.readContext(container.workspaceId, live);
    return this.build(container, [record], live, values, context, workspaceSlug)[0];
  }

  private build(
    container: Container,
    records: readonly RecordRow[],
    attributes: readonly Attribute[],
    values: readonly ValueRowWithRecord[],
    context: ReadContext,
    workspaceSlug: string | undefined,
  ): RecordView[] {
    const byRecord = new Map<string, ValueRowWithRecord[]>();
    for (const value of values) {
      const own = byRecord.get(value.recordId);
      if (own) own.push(value);
      else byRecord.set(value.recordId, [value]);
    }
    const events = CONTAINER_EVENTS[container.kind];
    return records.map((record) => {
      const own = byRecord.get(record.id) ?? [];
      const view: RecordView = {
        id: { workspace_id: container.workspaceId, [events.idKey]: container.id, [events.recordKey]: record.id },
        created_at: record.createdAt,
        created_by: record.createdBy,
        parent_record_id: record.parentRecordId,
        values: {},
      };
      if (container.kind === 'object' && workspaceSlug) view.web_url = `${this.config.baseUrl}/${workspaceSlug}/${container.slug}/${record.id}`;
      for (const attribute of attributes) {
        view.values[attribute.slug] = isRecordSystemAttribute(attribute)
          ? [systemValue(attribute, record)]
          : own.filter((row) => row.attributeId === attribute.id).map((row) => envelope(attribute, row, context));
      }
      return view;
    });
  }

  /** The envelopes of one attribute's values (current or historic), oldest first. */
  async envelopes(container: Container, attribute: Attribute, rows: readonly ValueRowWithRecord[]): Promise<ValueEnvelope[]> {
    const context = await this.readContext(container.workspaceId, [attribute]);
    return rows.map((row) => envelope(attribute, row, context));
  }

  async readContext(workspaceId: string, attributes: readonly Attribute[]): Promise<ReadContext> {
    const selectIds = attributes.filter((a) => a.type === 'select').map((a) => a.id);
    const statusIds = attributes.filter((a) => a.type === 'status').map((a) => a.id);
    const needsObjects = attributes.some((a) => a.type === 'record-reference');
    const [options, statuses, slugById] = await Promise.all([
      this.attributes.optionsOf(workspaceId, selectIds),
      this.attributes.statusesOf(workspaceId, statusIds),
      needsObjects ? this.objects.slugsById(workspaceId) : Promise.resolve(new Map<string, string>()),
    ]);
    const optionById = new Map<string, OptionView>(options.map((o) => [o.id, { id: o.id, title: o.title, isArchived: o.isArchived }]));
    const statusById = new Map<string, StatusView>(
      statuses.map((s) => [s.id, { id: s.id, title: s.title, isArchived: s.isArchived, celebrationEnabled: s.celebrationEnabled, targetTimeInStatus: s.targetTimeInStatus }]),
    );
    return { option: (id) => optionById.get(id), status: (id) => statusById.get(id), objectSlug: (id) => slugById.get(id) };
  }
}

function envelope(attribute: Attribute, row: ValueRowWithRecord, context: ReadContext): ValueEnvelope {
  return {
    active_from: row.activeFromText,
    active_until: row.activeUntilText,
    created_by_actor: row.createdBy,
    ...CODECS[attribute.type].read(row, attribute, context),
    attribute_type: attribute.type,
  };
}

function systemValue(attribute: Attribute, record: RecordRow): ValueEnvelope {
  const base = { active_from: record.createdAt, active_until: null, created_by_actor: record.createdBy };
  switch (attribute.slug) {
    case 'record_id':
      return { ...base, value: record.id, attribute_type: 'text' };
    case 'created_at':
      return { ...base, value: record.createdAt, attribute_type: 'timestamp' };
    case 'updated_at':
      return { ...base, active_from: record.updatedAt, value: record.updatedAt, attribute_type: 'timestamp' };
    default:
      return { ...base, referenced_actor_type: record.createdBy.type, referenced_actor_id: record.createdBy.id, attribute_type: 'actor-reference' };
  }
}
