import { Injectable } from '@nestjs/common';
import { MemberDirectory } from '@workbase/access';
import { ValidationError } from '@workbase/shared/kernel';
import { type Attribute, isRecordSystemAttribute, AttributeCatalog, type Container, type ReadContext } from '@workbase/schema';
import { recordNotFound } from '../domain/record-errors';
import { RecordEntriesRepository, type RecordEntryRow } from '../infrastructure/record-entries.repository';
import { RecordRepository, type RecordRow, type ValueRowWithRecord } from '../infrastructure/record.repository';
import { RecordReader, type RecordView, type ValueEnvelope } from './record-reader';

/** A record just created, as its insert returned it, with what a response needs besides. */
export interface CreatedRecord {
  readonly record: RecordRow;
  readonly values: ValueRowWithRecord[];
  /** The container's attributes as the write read them, archived ones included. */
  readonly attributes: readonly Attribute[];
  /** Options, statuses and object slugs the write looked up. */
  readonly known: ReadContext;
}

/** An entry of a list whose parent is a record: the list, the entry, when it was made. */
export type RecordEntry = RecordEntryRow;

/**
 * The reads of records every container shares: one record, the values of one of its attributes
 * (current or historic), and a record just created as a read would answer it.
 */
@Injectable()
export class RecordQueries {
  constructor(
    private readonly reader: RecordReader,
    private readonly store: RecordRepository,
    private readonly entries: RecordEntriesRepository,
    private readonly attributes: AttributeCatalog,
    private readonly workspaces: MemberDirectory,
  ) {}

  /** A record just created, built from what its insert returned (no second read). */
  async created(container: Container, created: CreatedRecord): Promise<RecordView> {
    return this.reader.readCreated(container, created.record, created.values, created.attributes, created.known, await this.workspaceSlug(container));
  }

  /** `attributes`: the container's (archived included), when the caller read them with the container. */
  async get(container: Container, recordId: string, options: { attributes?: readonly Attribute[] } = {}): Promise<RecordView> {
    const view = await this.reader.readOne(container, recordId, await this.workspaceSlug(container), options.attributes);
    if (!view) throw recordNotFound(container, recordId);
    return view;
  }

  /** The values of one attribute, oldest first; only the current ones unless `showHistoric`. */
  async values(container: Container, recordId: string, attributeKey: string, options: { showHistoric: boolean; limit?: number; offset?: number }): Promise<ValueEnvelope[]> {
    const record = await this.store.findRecord(container.workspaceId, container.id, recordId);
    if (!record) throw recordNotFound(container, recordId);
    const attribute = await this.attributes.get(container, attributeKey);
    if (isRecordSystemAttribute(attribute)) {
      const [view] = await this.reader.read(container, [record]);
      return view.values[attribute.slug] ?? [];
    }
    if (options.showHistoric && attribute.type === 'interaction') {
      throw new ValidationError(`Historic values are not available for interaction attribute "${attribute.slug}".`);
    }
    const rows = options.showHistoric
      ? await this.store.valueHistory(container.workspaceId, recordId, attribute.id, options)
      : (await this.store.currentValues(container.workspaceId, [recordId], [attribute.id])).slice(options.offset ?? 0, options.limit === undefined ? undefined : (options.offset ?? 0) + options.limit);
    return this.reader.envelopes(container, attribute, rows);
  }

  /** The list entries whose parent is the record, oldest first; unknown record: 404. */
  async entriesOf(container: Container, recordId: string, page: { limit: number; offset: number }): Promise<RecordEntry[]> {
    if (!(await this.store.findRecord(container.workspaceId, container.id, recordId))) throw recordNotFound(container, recordId);
    return this.entries.entriesOf(container.workspaceId, recordId, page);
  }

  /** For `web_url`. Workspace slugs never change, so each is read once per process. */
  async workspaceSlug(container: Container): Promise<string | undefined> {
    if (container.kind !== 'object') return undefined;
    let slug = this.slugs.get(container.workspaceId);
    if (slug === undefined) {
      slug = (await this.workspaces.workspaceSlug(container.workspaceId)) ?? undefined;
      if (slug !== undefined) this.slugs.set(container.workspaceId, slug);
    }
    return slug;
  }

  private readonly slugs = new Map<string, string>();
}
