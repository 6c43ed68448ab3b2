import { Injectable } from '@nestjs/common';
import type { Attribute, Container, RecordValues, WriteLookups } from '@workbase/schema';
import { RecordRepository } from '../infrastructure/record.repository';
import { RecordQueryService } from './query/record-query.service';
import { WriteLookupsFactory } from './write-lookups';

/** The record engine's values as the schema asks for them (RECORD_VALUES): write lookups, unique-value claims, and a view's query checked by the query compiler. */
@Injectable()
export class RecordValuesAdapter implements RecordValues {
  constructor(
    private readonly lookups: WriteLookupsFactory,
    private readonly store: RecordRepository,
    private readonly queries: RecordQueryService,
  ) {}

  writeLookups(workspaceId: string): WriteLookups {
    return this.lookups.forWorkspace(workspaceId);
  }

  claimUniqueValues(attribute: Attribute): Promise<'claimed' | 'duplicates'> {
    return this.store.claimAllUniqueValues(attribute.workspaceId, attribute.id);
  }

  releaseUniqueValues(attribute: Attribute): Promise<void> {
    return this.store.releaseAllUniqueValues(attribute.workspaceId, attribute.id);
  }

  async checkQuery(container: Container, query: { readonly filter?: unknown; readonly sorts?: unknown }): Promise<void> {
    // Compiling is the check: the compiler refuses what a query would (unknown attributes, operators, shapes).
    await this.queries.compile(container, { filter: query.filter ?? undefined, sorts: query.sorts });
  }
}
