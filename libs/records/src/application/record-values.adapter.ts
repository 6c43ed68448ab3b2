import { Injectable } from '@nestjs/common';
import type { Attribute, RecordValues, WriteLookups } from '@workbase/schema';
import { RecordRepository } from '../infrastructure/record.repository';
import { WriteLookupsFactory } from './write-lookups';

/** The record engine's values as the schema asks for them (RECORD_VALUES): write lookups and unique-value claims. */
@Injectable()
export class RecordValuesAdapter implements RecordValues {
  constructor(
    private readonly lookups: WriteLookupsFactory,
    private readonly store: RecordRepository,
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
}
