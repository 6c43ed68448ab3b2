import { Injectable } from '@nestjs/common';
import { type Attribute, type Container, ContainerResolver } from '@workbase/schema';
import { RecordRepository } from '../infrastructure/record.repository';
import type { WriteScope } from '../domain/write-scope';
import { AssertRecordUseCase } from './assert-record.use-case';
import { CreateRecordUseCase } from './create-record.use-case';
import { DeleteRecordUseCase } from './delete-record.use-case';
import { type RecordQuery, RecordQueryService } from './query/record-query.service';
import { RecordQueries } from './record.queries';
import type { RecordView } from './record-reader';
import { UpdateRecordUseCase } from './update-record.use-case';
import type { ValuesInput } from './value-writer';

/** The container's attributes (archived included) when the caller read them already in this request. */
export interface KnownAttributes {
  readonly attributes?: readonly Attribute[];
}

/** Writes that answer 409 `concurrent_write_conflict` on a record another request is writing, instead of waiting for it. */
export interface FailFast {
  readonly failOnConcurrentWrite?: boolean;
}

/** An entry of a list as other contexts see it: its id and the record it is about. */
export interface EntryRef {
  readonly id: string;
  readonly parentRecordId: string | null;
}

/** A record as other contexts name it: its object and its id. */
export interface RecordRef {
  readonly objectId: string;
  readonly recordId: string;
}

/**
 * The record engine's front door for other contexts (activities, notes, comments, tasks,
 * meetings): resolve a container, then write, read, query, assert and delete its records. The
 * engine's stores, SQL and HTTP helpers stay inside `libs/records`.
 */
@Injectable()
export class RecordEngine {
  constructor(
    private readonly containers: ContainerResolver,
    private readonly creates: CreateRecordUseCase,
    private readonly updates: UpdateRecordUseCase,
    private readonly asserts: AssertRecordUseCase,
    private readonly deletes: DeleteRecordUseCase,
    private readonly reads: RecordQueries,
    private readonly queries: RecordQueryService,
    private readonly store: RecordRepository,
  ) {}

  /** An object of the workspace by slug or id; unknown: 404. */
  object(workspaceId: string, slugOrId: string): Promise<Container> {
    return this.containers.object(workspaceId, slugOrId);
  }

  /** A list of the workspace by slug or id; unknown: 404. */
  list(workspaceId: string, slugOrId: string): Promise<Container> {
    return this.containers.list(workspaceId, slugOrId);
  }

  create(who: WriteScope, values: ValuesInput, options: KnownAttributes = {}): Promise<RecordView> {
    return this.creates.execute(who, values, options);
  }

  /** PATCH (`append`) or PUT (`overwrite`) of a record's values; answers the record as read after the write. */
  update(who: WriteScope, recordId: string, values: ValuesInput, mode: 'append' | 'overwrite', options: FailFast = {}): Promise<RecordView> {
    return this.updates.execute(who, recordId, values, mode, options);
  }

  /** Creates the record whose unique `matchingAttribute` holds the given value, or updates the one that does. */
  assert(who: WriteScope, matchingAttribute: string, values: ValuesInput, options: FailFast = {}): Promise<{ recordId: string; created: boolean }> {
    return this.asserts.execute(who, matchingAttribute, values, options);
  }

  read(container: Container, recordId: string, options: KnownAttributes = {}): Promise<RecordView> {
    return this.reads.get(container, recordId, options);
  }

  query(container: Container, query: RecordQuery, options: KnownAttributes = {}): Promise<RecordView[]> {
    return this.queries.query(container, query, undefined, options.attributes);
  }

  /** Deletes a record with what hangs off it (entries, references, listeners' data) and records its event. */
  delete(who: WriteScope, recordId: string, options: FailFast = {}): Promise<void> {
    return this.deletes.execute(who, recordId, options);
  }

  /** Removes every record of a container that is itself being removed (its values and unique claims cascade); no events. */
  async deleteAllOf(container: Container): Promise<void> {
    await this.store.deleteAllOfContainer(container.workspaceId, container.id);
  }

  /** Which of `recordIds` are records of the container (an object's id, a list's id). */
  existingIds(workspaceId: string, containerId: string, recordIds: readonly string[]): Promise<Set<string>> {
    return this.store.existingIds(workspaceId, containerId, recordIds);
  }

  /** An entry of the list, or null. */
  async entry(list: Container, entryId: string): Promise<EntryRef | null> {
    const row = await this.store.findRecord(list.workspaceId, list.id, entryId);
    return row && { id: row.id, parentRecordId: row.parentRecordId };
  }

  /** The object and id of any record of the workspace, or null. */
  async recordById(workspaceId: string, recordId: string): Promise<RecordRef | null> {
    const row = await this.store.findRecordById(workspaceId, recordId);
    return row && { objectId: row.containerId, recordId: row.id };
  }

  /** Records of the container holding the given current values of a unique attribute (by value key), or none if it is not unique. */
  async findByUniqueValues(container: Container, attribute: Attribute, keys: readonly string[]): Promise<Array<{ key: string; recordId: string }>> {
    if (!attribute.isUnique || attribute.containerId !== container.id) return [];
    return this.store.findByUniqueKeys(container.workspaceId, attribute.id, keys);
  }
}

