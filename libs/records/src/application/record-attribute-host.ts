import { Injectable } from '@nestjs/common';
import type { Attribute, AttributeHost, ObjectRef, WriteLookups } from '@workbase/schema';
import { ObjectRepository } from '../infrastructure/object.repository';
import { RecordRepository } from '../infrastructure/record.repository';
import { WriteLookupsFactory } from './write-lookups';

/** The record engine as the attribute catalogue's host: its objects, its write lookups, its unique-value claims. */
@Injectable()
export class RecordAttributeHost implements AttributeHost {
  constructor(
    private readonly objects: ObjectRepository,
    private readonly lookups: WriteLookupsFactory,
    private readonly store: RecordRepository,
  ) {}

  async findObject(workspaceId: string, slugOrId: string): Promise<ObjectRef | null> {
    const object = await this.objects.findBySlugOrId(workspaceId, slugOrId);
    return object && { id: object.id, apiSlug: object.apiSlug };
  }

  async objectSlugs(workspaceId: string): Promise<ReadonlyMap<string, string>> {
    return new Map((await this.objects.listInWorkspace(workspaceId)).map((object) => [object.id, object.apiSlug]));
  }

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
