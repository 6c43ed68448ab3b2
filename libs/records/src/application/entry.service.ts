import { Injectable } from '@nestjs/common';
import { DomainError, isUuid, ValidationError } from '@workbase/shared/kernel';
import { TransactionRunner } from '@workbase/shared/persistence';
import { type Attribute, type Container, ContainerResolver, ObjectDirectory } from '@workbase/schema';
import { RecordRepository } from '../infrastructure/record.repository';
import { type RecordQuery, RecordQueryService } from './query/record-query.service';
import { RecordReader, type RecordView } from './record-reader';
import { recordNotFound } from '../domain/record-errors';
import type { WriteScope } from '../domain/write-scope';
import { CreateRecordUseCase } from './create-record.use-case';
import { UpdateRecordUseCase } from './update-record.use-case';
import type { ValuesInput } from './value-writer';

export interface EntryView {
  readonly view: RecordView;
  readonly parentObjectSlug: string;
}

/** What `ContainerResolver.listWithAttributes` read with the list. */
export interface KnownList {
  readonly attributes: readonly Attribute[];
  readonly parentObjectSlug: string;
}

export interface EntryParent {
  readonly parentRecordId: string;
  readonly parentObject: string;
}

/**
 * List entries: records of a list container that point at a parent record of the list's
 * object. The same parent may be entered more than once; assert-by-parent refuses then.
 */
@Injectable()
export class EntryService {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly containers: ContainerResolver,
    private readonly objects: ObjectDirectory,
    private readonly store: RecordRepository,
    private readonly creates: CreateRecordUseCase,
    private readonly updates: UpdateRecordUseCase,
    private readonly reader: RecordReader,
    private readonly queries: RecordQueryService,
  ) {}

  async create(who: WriteScope, parent: EntryParent, values: ValuesInput): Promise<EntryView> {
    return this.get(who.container, await this.write(who, parent, values));
  }

  /** The create itself, in the caller's transaction when there is one (batches); answers the entry's id. */
  write(who: WriteScope, parent: EntryParent, values: ValuesInput, attributes?: readonly Attribute[]): Promise<string> {
    return this.transactions.run(async () => {
      const parentRecordId = await this.validParent(who.container, parent);
      return (await this.creates.write(who, values, { parentRecordId, attributes })).record.id;
    });
  }

  /** Updates the entry of this parent, or creates one; several entries of the parent: 400. */
  async assertByParent(who: WriteScope, parent: EntryParent, values: ValuesInput): Promise<EntryView> {
    return this.get(who.container, await this.assertWrite(who, parent, values));
  }

  /** The assert itself, in the caller's transaction when there is one (batches); answers the entry's id. */
  assertWrite(who: WriteScope, parent: EntryParent, values: ValuesInput, attributes?: readonly Attribute[]): Promise<string> {
    const { container: list } = who;
    return this.transactions.run(async () => {
      const parentRecordId = await this.validParent(list, parent);
      await this.store.lockWriteKeys(list.workspaceId, list.id, [parentRecordId]);
      const existing = await this.store.findEntriesOfParent(list.workspaceId, list.id, parentRecordId, 2);
      if (existing.length > 1) throw new DomainError('multiple_match_results', `Record ${parentRecordId} has several entries in list "${list.slug}"; update one by its entry_id.`);
      if (existing.length === 0) return (await this.creates.write(who, values, { parentRecordId, attributes })).record.id;
      await this.updates.write(who, existing[0], values, 'overwrite', { attributes });
      return existing[0];
    });
  }

  /** `known`: the list's attributes (archived included) and parent slug, when the caller read them with the list. */
  async get(list: Container, entryId: string, known?: KnownList): Promise<EntryView> {
    const view = await this.reader.readOne(list, entryId, undefined, known?.attributes);
    if (!view) throw recordNotFound(list, entryId);
    return { view, parentObjectSlug: known?.parentObjectSlug ?? (await this.parentSlug(list)) };
  }

  async update(who: WriteScope, entryId: string, values: ValuesInput, mode: 'append' | 'overwrite'): Promise<EntryView> {
    const { container: list } = who;
    const changed = await this.updates.write(who, entryId, values, mode);
    if (changed === null) throw recordNotFound(list, entryId);
    return this.get(list, entryId);
  }

  async query(list: Container, query: RecordQuery, known?: KnownList): Promise<EntryView[]> {
    const views = await this.queries.query(list, query, undefined, known?.attributes);
    const slug = known?.parentObjectSlug ?? (await this.parentSlug(list));
    return views.map((view) => ({ view, parentObjectSlug: slug }));
  }

  private async validParent(list: Container, parent: EntryParent): Promise<string> {
    const object = await this.objects.find(list.workspaceId, parent.parentObject);
    if (!object || object.id !== (await this.containers.parentObjectOf(list)).id) {
      throw new ValidationError(`data.parent_object "${parent.parentObject}" is not the parent object of list "${list.slug}".`);
    }
    if (!isUuid(parent.parentRecordId) || !(await this.store.existingIds(list.workspaceId, object.id, [parent.parentRecordId])).has(parent.parentRecordId)) {
      throw new DomainError('value_not_found', `data.parent_record_id "${parent.parentRecordId}" is not a ${object.apiSlug} record.`);
    }
    return parent.parentRecordId;
  }

  private async parentSlug(list: Container): Promise<string> {
    return (await this.containers.parentObjectOf(list)).slug;
  }
}
