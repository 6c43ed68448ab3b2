import { Injectable } from '@nestjs/common';
import { isUuid } from '@workbase/shared/kernel';
import { TransactionRunner } from '@workbase/shared/persistence';
import type { Attribute, DefaultValue, NewAttribute } from '../domain/attribute';
import type { AttributeConfig, AttributeType } from '../domain/attribute-type';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { AttributeOrmEntity } from './orm-entities';

export type { NewAttribute };

@Injectable()
export class AttributeRepository {
  constructor(private readonly transactions: TransactionRunner) {}

  private get repo() {
    return this.transactions.manager().getRepository(AttributeOrmEntity);
  }

  async listByContainer(workspaceId: string, containerId: string, options: { includeArchived?: boolean; limit?: number; offset?: number } = {}): Promise<Attribute[]> {
    const rows = await this.repo.find({
      where: { workspaceId, containerId, ...(options.includeArchived ? {} : { isArchived: false }) },
      order: { position: 'ASC', id: 'ASC' },
      take: options.limit,
      skip: options.offset,
    });
    return rows.map(toAttribute);
  }

  async findBySlugOrId(workspaceId: string, containerId: string, slugOrId: string): Promise<Attribute | null> {
    const row = await this.repo.findOneBy(isUuid(slugOrId) ? { workspaceId, containerId, id: slugOrId } : { workspaceId, containerId, apiSlug: slugOrId });
    return row ? toAttribute(row) : null;
  }

  async findById(workspaceId: string, attributeId: string): Promise<Attribute | null> {
    const row = await this.repo.findOneBy({ workspaceId, id: attributeId });
    return row ? toAttribute(row) : null;
  }

  async slugTaken(workspaceId: string, containerId: string, slug: string, exceptId?: string): Promise<boolean> {
    const found = await this.repo.findOneBy({ workspaceId, containerId, apiSlug: slug });
    return found !== null && found.id !== exceptId;
  }

  async nextPosition(workspaceId: string, containerId: string): Promise<number> {
    const [{ next }] = await this.transactions
      .manager()
      .query(`SELECT COALESCE(MAX(position), -1) + 1 AS next FROM attributes WHERE workspace_id = $1 AND container_id = $2`, [workspaceId, containerId]);
    return Number(next);
  }

  async insert(attributes: NewAttribute[]): Promise<void> {
    if (attributes.length === 0) return;
    await this.repo.insert(
      attributes.map((a) => ({
        workspaceId: a.workspaceId,
        id: a.id,
        containerKind: a.containerKind,
        containerId: a.containerId,
        apiSlug: a.slug,
        title: a.title,
        description: a.description,
        type: a.type,
        isSystem: a.isSystem,
        isWritable: a.isWritable,
        isRequired: a.isRequired,
        isUnique: a.isUnique,
        isMultiselect: a.isMultiselect,
        isArchived: a.isArchived,
        isInherited: a.isInherited,
        defaultValue: a.defaultValue as unknown,
        config: a.config as Record<string, unknown>,
        relationshipAttributeId: a.relationshipAttributeId,
        position: a.position ?? 0,
      })) as QueryDeepPartialEntity<AttributeOrmEntity>[],
    );
  }

  /** Deletes the attributes of a container that is being removed; their options and statuses cascade. */
  async deleteAllOfContainer(workspaceId: string, containerId: string): Promise<void> {
    await this.transactions.manager().query(`DELETE FROM attributes WHERE workspace_id = $1 AND container_id = $2`, [workspaceId, containerId]);
  }

  async update(
    workspaceId: string,
    attributeId: string,
    changes: Partial<Pick<Attribute, 'title' | 'description' | 'slug' | 'isRequired' | 'isUnique' | 'isArchived' | 'defaultValue' | 'config' | 'relationshipAttributeId'>>,
  ): Promise<void> {
    const { slug, defaultValue, config, ...rest } = changes;
    await this.repo.update(
      { workspaceId, id: attributeId },
      {
        ...rest,
        ...(slug !== undefined ? { apiSlug: slug } : {}),
        ...(defaultValue !== undefined ? { defaultValue: defaultValue as unknown } : {}),
        ...(config !== undefined ? { config: config as Record<string, unknown> } : {}),
      } as QueryDeepPartialEntity<AttributeOrmEntity>,
    );
  }
}

/**
 * A scalar subquery answering the attributes of a container as one JSON array (in `listByContainer`
 * order, archived included), so that a caller can read them in the same statement as the container
 * row itself. The expressions name the workspace and container ids in the caller's query.
 */
export function containerAttributesJson(workspaceIdSql: string, containerIdSql: string): string {
  return `(SELECT COALESCE(json_agg(json_build_object(
      'id', a.id, 'workspaceId', a.workspace_id, 'containerId', a.container_id, 'containerKind', a.container_kind,
      'slug', a.api_slug, 'title', a.title, 'description', a.description, 'type', a.type,
      'isSystem', a.is_system, 'isWritable', a.is_writable, 'isRequired', a.is_required, 'isUnique', a.is_unique,
      'isMultiselect', a.is_multiselect, 'isArchived', a.is_archived, 'isInherited', a.is_inherited,
      'defaultValue', a.default_value, 'config', a.config, 'relationshipAttributeId', a.relationship_attribute_id,
      'position', a.position, 'createdAt', to_char(a.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
      ORDER BY a.position, a.id), '[]'::json)
    FROM attributes a WHERE a.workspace_id = ${workspaceIdSql} AND a.container_id = ${containerIdSql})`;
}

/** The attributes `containerAttributesJson` answered (pg parses the JSON). */
export function attributesFromJson(json: unknown): Attribute[] {
  return (json as Attribute[]).map((a) => ({ ...a, defaultValue: a.defaultValue ?? null, config: a.config ?? {} }));
}

export function toAttribute(row: AttributeOrmEntity): Attribute {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    containerId: row.containerId,
    containerKind: row.containerKind,
    slug: row.apiSlug,
    title: row.title,
    description: row.description,
    type: row.type as AttributeType,
    isSystem: row.isSystem,
    isWritable: row.isWritable,
    isRequired: row.isRequired,
    isUnique: row.isUnique,
    isMultiselect: row.isMultiselect,
    isArchived: row.isArchived,
    isInherited: row.isInherited,
    defaultValue: (row.defaultValue as DefaultValue | null) ?? null,
    config: (row.config ?? {}) as AttributeConfig,
    relationshipAttributeId: row.relationshipAttributeId,
    position: row.position,
    createdAt: row.createdAt.toISOString(),
  };
}
