import { Injectable } from '@nestjs/common';
import type { ObjectDefinition } from '../domain/object-definition';
import { ObjectRepository } from '../infrastructure/object.repository';

/** The objects of a workspace as other contexts read them (record references, filters by another object, slugs in responses). */
@Injectable()
export class ObjectDirectory {
  constructor(private readonly objects: ObjectRepository) {}

  /** An object of the workspace by api_slug or id, or null. */
  find(workspaceId: string, slugOrId: string): Promise<ObjectDefinition | null> {
    return this.objects.findBySlugOrId(workspaceId, slugOrId);
  }

  /** Every object's api_slug by id (the `object_slug` of a relationship, a reference's `target_object`). */
  async slugsById(workspaceId: string): Promise<ReadonlyMap<string, string>> {
    return new Map((await this.objects.listInWorkspace(workspaceId)).map((object) => [object.id, object.apiSlug]));
  }
}
