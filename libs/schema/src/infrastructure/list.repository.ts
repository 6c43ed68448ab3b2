import { Injectable } from '@nestjs/common';
import { isUuid } from '@workbase/shared/kernel';
import { TransactionRunner } from '@workbase/shared/persistence';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import type { Attribute } from '../domain/attribute';
import { attributesFromJson, containerAttributesJson } from './attribute.repository';
import type { ListWithAccess, MemberAccessRow } from '../domain/list-definition';
import { ListOrmEntity } from './containers.orm-entities';

@Injectable()
export class ListRepository {
  constructor(private readonly transactions: TransactionRunner) {}

  private get repo() {
    return this.transactions.manager().getRepository(ListOrmEntity);
  }

  async listInWorkspace(workspaceId: string): Promise<ListWithAccess[]> {
    return this.withAccess(workspaceId, await this.repo.find({ where: { workspaceId }, order: { createdAt: 'ASC', apiSlug: 'ASC' } }));
  }

  async findBySlugOrId(workspaceId: string, slugOrId: string): Promise<ListWithAccess | null> {
    const list = await this.repo.findOneBy(isUuid(slugOrId) ? { workspaceId, id: slugOrId } : { workspaceId, apiSlug: slugOrId });
    return list ? (await this.withAccess(workspaceId, [list]))[0] : null;
  }

  /** Replaces the members granted access to a list by `grants`, in their order. */
  async replaceMemberAccess(workspaceId: string, listId: string, grants: readonly MemberAccessRow[]): Promise<void> {
    const manager = this.transactions.manager();
    await manager.query(`DELETE FROM list_member_access WHERE workspace_id = $1 AND list_id = $2`, [workspaceId, listId]);
    if (grants.length === 0) return;
    await manager.query(
      `INSERT INTO list_member_access (workspace_id, list_id, workspace_member_id, level, position)
       SELECT $1, $2, grant_row.member_id, grant_row.level, grant_row.position::int
         FROM unnest($3::uuid[], $4::text[]) WITH ORDINALITY AS grant_row (member_id, level, position)`,
      [workspaceId, listId, grants.map((g) => g.workspace_member_id), grants.map((g) => g.level)],
    );
  }

  private async withAccess(workspaceId: string, lists: ListOrmEntity[]): Promise<ListWithAccess[]> {
    if (lists.length === 0) return [];
    const rows: Array<MemberAccessRow & { list_id: string }> = await this.transactions.manager().query(
      `SELECT list_id, workspace_member_id, level FROM list_member_access
        WHERE workspace_id = $1 AND list_id = ANY ($2::uuid[]) ORDER BY list_id, position`,
      [workspaceId, lists.map((list) => list.id)],
    );
    return lists.map((list) => ({
      workspaceId: list.workspaceId,
      id: list.id,
      apiSlug: list.apiSlug,
      name: list.name,
      parentObjectId: list.parentObjectId,
      workspaceAccess: list.workspaceAccess,
      createdBy: list.createdBy,
      createdAt: list.createdAt,
      workspaceMemberAccess: rows.filter((row) => row.list_id === list.id).map(({ workspace_member_id, level }) => ({ workspace_member_id, level })),
    }));
  }

  /**
   * `findBySlugOrId` plus the list's attributes (archived included) and its parent object's
   * api_slug (its id when no such object exists), in one statement.
   */
  async findWithAttributes(workspaceId: string, slugOrId: string): Promise<{ id: string; apiSlug: string; parentObjectSlug: string; attributes: Attribute[] } | null> {
    const [row] = await this.transactions.query<{ id: string; api_slug: string; parent_object_slug: string; attributes: unknown }>(
      `SELECT l.id, l.api_slug,
              COALESCE((SELECT o.api_slug FROM objects o WHERE o.workspace_id = l.workspace_id AND o.id = l.parent_object_id), l.parent_object_id::text) AS parent_object_slug,
              ${containerAttributesJson('l.workspace_id', 'l.id')} AS attributes
         FROM lists l WHERE l.workspace_id = $1 AND ${isUuid(slugOrId) ? 'l.id = $2::uuid' : 'l.api_slug = $2'}`,
      [workspaceId, slugOrId],
    );
    return row ? { id: row.id, apiSlug: row.api_slug, parentObjectSlug: row.parent_object_slug, attributes: attributesFromJson(row.attributes) } : null;
  }

  async slugTaken(workspaceId: string, slug: string, exceptId?: string): Promise<boolean> {
    const found = await this.repo.findOneBy({ workspaceId, apiSlug: slug });
    return found !== null && found.id !== exceptId;
  }

  async insert(list: Omit<ListOrmEntity, 'createdAt'>): Promise<void> {
    await this.repo.insert(list as QueryDeepPartialEntity<ListOrmEntity>);
  }

  async update(workspaceId: string, id: string, changes: Partial<Pick<ListOrmEntity, 'apiSlug' | 'name' | 'workspaceAccess'>>): Promise<void> {
    const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
    if (Object.keys(defined).length === 0) return;
    await this.repo.update({ workspaceId, id }, defined as QueryDeepPartialEntity<ListOrmEntity>);
  }
}
