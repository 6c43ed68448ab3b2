import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'attributes' })
export class AttributeOrmEntity {
  @PrimaryColumn('uuid', { name: 'workspace_id' }) workspaceId!: string;
  @PrimaryColumn('uuid') id!: string;
  @Column('text', { name: 'container_kind' }) containerKind!: 'object' | 'list' | 'activity';
  @Column('uuid', { name: 'container_id' }) containerId!: string;
  @Column('text', { name: 'api_slug' }) apiSlug!: string;
  @Column('text') title!: string;
  @Column('text', { nullable: true }) description!: string | null;
  @Column('text') type!: string;
  @Column('boolean', { name: 'is_system' }) isSystem!: boolean;
  @Column('boolean', { name: 'is_writable' }) isWritable!: boolean;
  @Column('boolean', { name: 'is_required' }) isRequired!: boolean;
  @Column('boolean', { name: 'is_unique' }) isUnique!: boolean;
  @Column('boolean', { name: 'is_multiselect' }) isMultiselect!: boolean;
  @Column('boolean', { name: 'is_archived' }) isArchived!: boolean;
  @Column('boolean', { name: 'is_inherited' }) isInherited!: boolean;
  @Column('jsonb', { name: 'default_value', nullable: true }) defaultValue!: unknown;
  @Column('jsonb') config!: Record<string, unknown>;
  @Column('uuid', { name: 'relationship_attribute_id', nullable: true }) relationshipAttributeId!: string | null;
  @Column('integer') position!: number;
  @Column('timestamptz', { name: 'created_at', default: () => 'now()' }) createdAt!: Date;
}

@Entity({ name: 'select_options' })
export class SelectOptionOrmEntity {
  @PrimaryColumn('uuid', { name: 'workspace_id' }) workspaceId!: string;
  @PrimaryColumn('uuid') id!: string;
  @Column('uuid', { name: 'attribute_id' }) attributeId!: string;
  @Column('text') title!: string;
  @Column('boolean', { name: 'is_archived' }) isArchived!: boolean;
  @Column('integer') position!: number;
  @Column('timestamptz', { name: 'created_at', default: () => 'now()' }) createdAt!: Date;
}

@Entity({ name: 'statuses' })
export class StatusOrmEntity {
  @PrimaryColumn('uuid', { name: 'workspace_id' }) workspaceId!: string;
  @PrimaryColumn('uuid') id!: string;
  @Column('uuid', { name: 'attribute_id' }) attributeId!: string;
  @Column('text') title!: string;
  @Column('boolean', { name: 'is_archived' }) isArchived!: boolean;
  @Column('boolean', { name: 'celebration_enabled' }) celebrationEnabled!: boolean;
  @Column('text', { name: 'target_time_in_status', nullable: true }) targetTimeInStatus!: string | null;
  @Column('integer') position!: number;
  @Column('timestamptz', { name: 'created_at', default: () => 'now()' }) createdAt!: Date;
}

export const ATTRIBUTES_ORM_ENTITIES = [AttributeOrmEntity, SelectOptionOrmEntity, StatusOrmEntity];
