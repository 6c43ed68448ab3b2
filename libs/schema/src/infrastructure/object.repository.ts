import { Injectable } from '@nestjs/common';
import { isUuid } from '@workbase/shared/kernel';
import { TransactionRunner } from '@workbase/shared/persistence';
import type { Attribute } from '../domain/attribute';
import { attributesFromJson, containerAttributesJson } from './attribute.repository';
import type { ObjectDefinition } from '../domain/object-definition';
import { ObjectOrmEntity } from './containers.orm-entities';

@Injectable()
export class ObjectRepository {
  constructor(private readonly transactions: TransactionRunner) {}

  private get repo() {
    return this.transactions.manager().getRepository(ObjectOrmEntity);
  }

  async listInWorkspace(workspaceId: string): Promise<ObjectDefinition[]> {
    return (await this.repo.find({ where: { workspaceId }, order: { createdAt: 'ASC', apiSlug: 'ASC' } })).map(toObjectDefinition);
  }

  async findBySlugOrId(workspaceId: string, slugOrId: string): Promise<ObjectDefinition | null> {
    const row = await this.repo.findOneBy(isUuid(slugOrId) ? { workspaceId, id: slugOrId } : { workspaceId, apiSlug: slugOrId });
    return row ? toObjectDefinition(row) : null;
  }

  /** `findBySlugOrId` plus the object's attributes (archived included), in one statement. */
  async findWithAttributes(workspaceId: string, slugOrId: string): Promise<{ id: string; apiSlug: string; attributes: Attribute[] } | null> {
    const [row] = await this.transactions.query<{ id: string; api_slug: string; attributes: unknown }>(
      `SELECT o.id, o.api_slug, ${containerAttributesJson('o.workspace_id', 'o.id')} AS attributes
         FROM objects o WHERE o.workspace_id = $1 AND ${isUuid(slugOrId) ? 'o.id = $2::uuid' : 'o.api_slug = $2'}`,
      [workspaceId, slugOrId],
    );
    return row ? { id: row.id, apiSlug: row.api_slug, attributes: attributesFromJson(row.attributes) } : null;
  }

  async slugTaken(workspaceId: string, slug: string, exceptId?: string): Promise<boolean> {
    const found = await this.repo.findOneBy({ workspaceId, apiSlug: slug });
    return found !== null && found.id !== exceptId;
  }

  async insert(objects: Array<Omit<ObjectOrmEntity, 'createdAt'>>): Promise<void> {
    if (objects.length > 0) await this.repo.insert(objects);
  }

  async update(workspaceId: string, id: string, changes: Partial<Pick<ObjectOrmEntity, 'apiSlug' | 'singularNoun' | 'pluralNoun'>>): Promise<void> {
    await this.repo.update({ workspaceId, id }, changes);
  }
}

/** Plain data out of the ORM entity: entities stay in this layer. */
function toObjectDefinition(row: ObjectOrmEntity): ObjectDefinition {
  return { workspaceId: row.workspaceId, id: row.id, apiSlug: row.apiSlug, singularNoun: row.singularNoun, pluralNoun: row.pluralNoun, isStandard: row.isStandard, createdAt: row.createdAt };
}
