import { Injectable } from '@nestjs/common';
import { NotFoundError } from '@workbase/shared/kernel';
import { CacheInvalidations, ChangeAwareCache, TransactionRunner } from '@workbase/shared/persistence';
import { ListRepository } from '../infrastructure/list.repository';
import { ObjectRepository } from '../infrastructure/object.repository';
import type { Attribute } from '../domain/attribute';
import type { Container } from '../domain/container';

type ObjectSchema = { readonly container: Container; readonly attributes: readonly Attribute[] };
type ListSchema = ObjectSchema & { readonly parentObjectSlug: string };

/** Containers and attributes change rarely and are read by every record request. */
const SCHEMA_CACHE = { topic: 'schema', workspaceOf: (schema: ObjectSchema) => schema.container.workspaceId, ttlMs: 60_000, maxEntries: 10_000 } as const;

/**
 * Turns a path's `{object}` or `{list}` (slug or UUID) into a container of the caller's workspace,
 * or a 404. Containers with their attributes are kept in memory and dropped, in every process, at
 * the commit of any change to the workspace's objects, lists or attributes (CacheInvalidations).
 * Inside a transaction they are always read from the database: the transaction may itself have
 * changed them, and its changes are announced only when it commits.
 */
@Injectable()
export class ContainerResolver {
  private readonly objectSchemas: ChangeAwareCache<ObjectSchema>;
  private readonly listSchemas: ChangeAwareCache<ListSchema>;

  constructor(
    private readonly objects: ObjectRepository,
    private readonly lists: ListRepository,
    private readonly transactions: TransactionRunner,
    invalidations: CacheInvalidations,
  ) {
    this.objectSchemas = new ChangeAwareCache(invalidations, SCHEMA_CACHE);
    this.listSchemas = new ChangeAwareCache<ListSchema>(invalidations, SCHEMA_CACHE);
  }

  async object(workspaceId: string, slugOrId: string): Promise<Container> {
    if (!this.transactions.inTransaction()) return (await this.objectWithAttributes(workspaceId, slugOrId)).container;
    const object = await this.objects.findBySlugOrId(workspaceId, slugOrId);
    if (!object) throw new NotFoundError(`Object with slug/ID "${slugOrId}" not found.`);
    return { kind: 'object', id: object.id, workspaceId, slug: object.apiSlug };
  }

  /** `object` plus its attributes (archived included), read in the same statement (record creates, reads and queries). */
  async objectWithAttributes(workspaceId: string, slugOrId: string): Promise<{ container: Container; attributes: Attribute[] }> {
    const lookUp = async (): Promise<ObjectSchema | null> => {
      const object = await this.objects.findWithAttributes(workspaceId, slugOrId);
      return object && { container: { kind: 'object', id: object.id, workspaceId, slug: object.apiSlug }, attributes: object.attributes };
    };
    const schema = this.transactions.inTransaction() ? await lookUp() : await this.objectSchemas.get(`${workspaceId}:${slugOrId}`, lookUp);
    if (!schema) throw new NotFoundError(`Object with slug/ID "${slugOrId}" not found.`);
    return { container: schema.container, attributes: [...schema.attributes] };
  }

  async list(workspaceId: string, slugOrId: string): Promise<Container> {
    if (!this.transactions.inTransaction()) return (await this.listWithAttributes(workspaceId, slugOrId)).container;
    const list = await this.lists.findBySlugOrId(workspaceId, slugOrId);
    if (!list) throw new NotFoundError(`List with slug/ID "${slugOrId}" not found.`);
    return { kind: 'list', id: list.id, workspaceId, slug: list.apiSlug };
  }

  /**
   * `list` plus its attributes (archived included) and the api_slug of its parent object (or the
   * parent's id if that object is gone), read in one statement, for entry reads and queries.
   */
  async listWithAttributes(workspaceId: string, slugOrId: string): Promise<{ container: Container; attributes: Attribute[]; parentObjectSlug: string }> {
    const lookUp = async (): Promise<ListSchema | null> => {
      const list = await this.lists.findWithAttributes(workspaceId, slugOrId);
      return list && { container: { kind: 'list', id: list.id, workspaceId, slug: list.apiSlug }, attributes: list.attributes, parentObjectSlug: list.parentObjectSlug };
    };
    const schema = this.transactions.inTransaction() ? await lookUp() : await this.listSchemas.get(`${workspaceId}:${slugOrId}`, lookUp);
    if (!schema) throw new NotFoundError(`List with slug/ID "${slugOrId}" not found.`);
    return { container: schema.container, attributes: [...schema.attributes], parentObjectSlug: schema.parentObjectSlug };
  }

  /** The object a list's entries are records of: its id, and its api_slug (its id when that object is gone). */
  async parentObjectOf(list: Container): Promise<{ id: string; slug: string }> {
    const row = await this.lists.findBySlugOrId(list.workspaceId, list.id);
    if (!row) throw new NotFoundError(`List with slug/ID "${list.id}" not found.`);
    const object = await this.objects.findBySlugOrId(list.workspaceId, row.parentObjectId);
    return { id: row.parentObjectId, slug: object?.apiSlug ?? row.parentObjectId };
  }
}
