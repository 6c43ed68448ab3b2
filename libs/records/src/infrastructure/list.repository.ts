import { Injectable } from '@nestjs/common';
import { isUuid } from '@workbase/shared/kernel';
import { TransactionRunner } from '@workbase/shared/persistence';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import type { Attribute } from '../domain/attribute';
import { attributesFromJson, containerAttributesJson } from './attribute.repository';
import { ListOrmEntity } from './orm-entities';

@Injectable()
export class ListRepository {
  constructor(private readonly transactions: TransactionRunner) {}

  private get repo() {
    return this.transactions.manager().getRepository(ListOrmEntity);
  }

  listInWorkspace(workspaceId: string): Promise<ListOrmEntity[]> {
    return this.repo.find({ where: { workspaceId }, order: { createdAt: 'ASC', apiSlug: 'ASC' } });
  }

  findBySlugOrId(workspaceId: string, slugOrId: string): Promise<ListOrmEntity | null> {
    return this.repo.findOneBy(isUuid(slugOrId) ? { workspaceId, id: slugOrId } : { workspaceId, apiSlug: slugOrId });
  }

  /**
   * `findBySlugOrId` plus the list's attributes (archived included) and its parent object's
   * api_slug (its id when no such object exists), in one statement.
   */
  async findWithAttributes(workspaceId: string, slugOrId: string): Promise<{ id: string; apiSlug: string; parentObjectSlug: string; attributes: Attribute[] } | null> {
    const rows: Array<{ id: string; api_slug: string; parent_object_slug: string; attributes: unknown }> = await this.transactions.manager().query(
      `SELECT l.id, l.api_slug,
              COALESCE((SELECT o.api_slug FROM objects o WHERE o.workspace_id = l.workspace_id AND o.id = l.parent_object_id), l.parent_object_id::text) AS parent_object_slug,
              ${containerAttributesJson('l.workspace_id', 'l.id')} AS attributes
         FROM lists l WHERE l.workspace_id = $1 AND ${isUuid(slugOrId) ? 'l.id = $2::uuid' : 'l.api_slug = $2'}`,
      [workspaceId, slugOrId],
    );
    const row = rows[0];
    return row ? { id: row.id, apiSlug: row.api_slug, parentObjectSlug: row.parent_object_slug, attributes: attributesFromJson(row.attributes) } : null;
  }

  async slugTaken(workspaceId: string, slug: string, exceptId?: string): Promise<boolean> {
    const found = await this.repo.findOneBy({ workspaceId, apiSlug: slug });
    return found !== null && found.id !== exceptId;
  }

  async insert(list: Omit<ListOrmEntity, 'createdAt'>): Promise<void> {
    await this.repo.insert(list as QueryDeepPartialEntity<ListOrmEntity>);
  }

  async update(workspaceId: string, id: string, changes: Partial<Pick<ListOrmEntity, 'apiSlug' | 'name' | 'workspaceAccess' | 'workspaceMemberAccess'>>): Promise<void> {
    await this.repo.update({ workspaceId, id }, changes as QueryDeepPartialEntity<ListOrmEntity>);
  }
}
