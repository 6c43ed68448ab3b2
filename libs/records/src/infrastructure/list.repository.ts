import { Injectable } from '@nestjs/common';
import { isUuid } from '@workbase/shared/kernel';
import { TransactionRunner } from '@workbase/shared/persistence';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
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
