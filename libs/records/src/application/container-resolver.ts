import { Injectable } from '@nestjs/common';
import { NotFoundError } from '@workbase/shared/kernel';
import { ListRepository } from '../infrastructure/list.repository';
import { ObjectRepository } from '../infrastructure/object.repository';
import type { Attribute } from '../domain/attribute';
import type { Container } from './container';

/** Turns a path's `{object}` or `{list}` (slug or UUID) into a container of the caller's workspace, or a 404. */
@Injectable()
export class ContainerResolver {
  constructor(
    private readonly objects: ObjectRepository,
    private readonly lists: ListRepository,
  ) {}

  async object(workspaceId: string, slugOrId: string): Promise<Container> {
    const object = await this.objects.findBySlugOrId(workspaceId, slugOrId);
    if (!object) throw new NotFoundError(`Object with slug/ID "${slugOrId}" not found.`);
    return { kind: 'object', id: object.id, workspaceId, slug: object.apiSlug };
  }

  /** `object` plus its attributes (archived included), read in the same statement (record creates, reads and queries). */
  async objectWithAttributes(workspaceId: string, slugOrId: string): Promise<{ container: Container; attributes: Attribute[] }> {
    const object = await this.objects.findWithAttributes(workspaceId, slugOrId);
    if (!object) throw new NotFoundError(`Object with slug/ID "${slugOrId}" not found.`);
    return { container: { kind: 'object', id: object.id, workspaceId, slug: object.apiSlug }, attributes: object.attributes };
  }

  async list(workspaceId: string, slugOrId: string): Promise<Container> {
    const list = await this.lists.findBySlugOrId(workspaceId, slugOrId);
    if (!list) throw new NotFoundError(`List with slug/ID "${slugOrId}" not found.`);
    return { kind: 'list', id: list.id, workspaceId, slug: list.apiSlug };
  }

  /**
   * `list` plus its attributes (archived included) and the api_slug of its parent object (or the
   * parent's id if that object is gone), read in one statement, for entry reads and queries.
   */
  async listWithAttributes(workspaceId: string, slugOrId: string): Promise<{ container: Container; attributes: Attribute[]; parentObjectSlug: string }> {
    const list = await this.lists.findWithAttributes(workspaceId, slugOrId);
    if (!list) throw new NotFoundError(`List with slug/ID "${slugOrId}" not found.`);
    return { container: { kind: 'list', id: list.id, workspaceId, slug: list.apiSlug }, attributes: list.attributes, parentObjectSlug: list.parentObjectSlug };
  }
}
