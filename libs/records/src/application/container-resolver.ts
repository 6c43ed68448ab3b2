import { Injectable } from '@nestjs/common';
import { NotFoundError } from '@workbase/shared/kernel';
import { ObjectRepository } from '../infrastructure/object.repository';
import type { Container } from './container';

/** Turns a path's `{object}` (slug or UUID) into a container of the caller's workspace, or a 404. */
@Injectable()
export class ContainerResolver {
  constructor(private readonly objects: ObjectRepository) {}

  async object(workspaceId: string, slugOrId: string): Promise<Container> {
    const object = await this.objects.findBySlugOrId(workspaceId, slugOrId);
    if (!object) throw new NotFoundError(`Object with slug/ID "${slugOrId}" not found.`);
    return { kind: 'object', id: object.id, workspaceId, slug: object.apiSlug };
  }
}
