import { Inject, Injectable, Optional } from '@nestjs/common';
import { MemberDirectory } from '@workbase/access';
import { NotFoundError, ValidationError } from '@workbase/shared/kernel';
import { EventOutbox, TransactionRunner } from '@workbase/shared/persistence';
import { type Attribute, isRecordSystemAttribute, AttributeCatalog, type Container, containerEvent } from '@workbase/schema';
import { RecordRepository } from '../infrastructure/record.repository';
import { RECORD_DELETION_LISTENERS, type RecordDeletionListener } from './record-deletion-listener';
import { RecordReader, type RecordView, type ValueEnvelope } from './record-reader';
import { RecordWriter, type ValuesInput } from './record-writer';
import { type WriteScope, writeScope } from '../domain/write-scope';

/** Record use cases shared by every container: create, read, update (PATCH/PUT), delete, history. */
@Injectable()
export class RecordService {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly writer: RecordWriter,
    private readonly reader: RecordReader,
    private readonly store: RecordRepository,
    private readonly attributes: AttributeCatalog,
    private readonly workspaces: MemberDirectory,
    private readonly outbox: EventOutbox,
    @Optional() @Inject(RECORD_DELETION_LISTENERS) private readonly deletionListeners: RecordDeletionListener[] = [],
  ) {}

  /**
   * Creates a record and answers it as `get` would read it, built from what the insert returned.
   * `attributes`: the container's (archived included), when the caller read them in its transaction.
   */
  async create(who: WriteScope, values: ValuesInput, options: { attributes?: readonly Attribute[] } = {}): Promise<RecordView> {
    const { container } = who;
    const created = await this.writer.createRecord(who, values, options);
    return this.reader.readCreated(container, created.record, created.values, created.attributes, created.known, await this.workspaceSlug(container));
  }

  /** `attributes`: the container's (archived included), when the caller read them with the container. */
  async get(container: Container, recordId: string, options: { attributes?: readonly Attribute[] } = {}): Promise<RecordView> {
    const view = await this.reader.readOne(container, recordId, await this.workspaceSlug(container), options.attributes);
    if (!view) throw recordNotFound(container, recordId);
    return view;
  }

  async update(who: WriteScope, recordId: string, values: ValuesInput, mode: 'append' | 'overwrite'): Promise<RecordView> {
    const { container } = who;
    const changed = await this.writer.update(who, recordId, values, mode);
    if (changed === null) throw recordNotFound(container, recordId);
    return this.get(container, recordId);
  }

  async delete(who: WriteScope, recordId: string): Promise<void> {
    const { container } = who;
    await this.transactions.run(async () => {
      if (!(await this.store.lockRecord(container.workspaceId, container.id, recordId))) throw recordNotFound(container, recordId);
      // A record's list entries go with it, as the reference API does: each as an entry delete
      // would go (its listeners, then its event).
      if (container.kind === 'object') {
        for (const entry of await this.store.lockEntriesOf(container.workspaceId, recordId)) {
          const list: Container = { kind: 'list', id: entry.listId, workspaceId: container.workspaceId, slug: entry.listSlug };
          await this.deleteLocked(writeScope(who, list), entry.entryId);
        }
      }
      await this.deleteLocked(who, recordId);
    });
  }

  /** Deletes a record its caller has locked, in the caller's transaction: listeners, the row, references to it, the event. */
  private async deleteLocked(who: WriteScope, recordId: string): Promise<void> {
    const { container } = who;
    for (const listener of this.deletionListeners) await listener.recordsDeleting(container.workspaceId, container, [recordId], who.actor);
    if (!(await this.store.deleteRecord(container.workspaceId, container.id, recordId))) throw recordNotFound(container, recordId);
    await this.store.closeReferencesTo(container.workspaceId, recordId);
    await this.outbox.record(containerEvent(container, 'deleted', who.actor, { recordId }));
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

export function recordNotFound(container: Container, recordId: string): NotFoundError {
  const noun = container.kind === 'list' ? 'Entry' : 'Record';
  return new NotFoundError(`${noun} with ID "${recordId}" not found in ${container.kind} "${container.slug}".`);
}
