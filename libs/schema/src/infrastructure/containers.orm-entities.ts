import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'objects' })
export class ObjectOrmEntity {
  @PrimaryColumn('uuid', { name: 'workspace_id' }) workspaceId!: string;
  @PrimaryColumn('uuid') id!: string;
  @Column('text', { name: 'api_slug' }) apiSlug!: string;
  @Column('text', { name: 'singular_noun' }) singularNoun!: string;
  @Column('text', { name: 'plural_noun' }) pluralNoun!: string;
  @Column('boolean', { name: 'is_standard', default: false }) isStandard!: boolean;
  @Column('timestamptz', { name: 'created_at', default: () => 'now()' }) createdAt!: Date;
}

@Entity({ name: 'lists' })
export class ListOrmEntity {
  @PrimaryColumn('uuid', { name: 'workspace_id' }) workspaceId!: string;
  @PrimaryColumn('uuid') id!: string;
  @Column('text', { name: 'api_slug' }) apiSlug!: string;
  @Column('text') name!: string;
  @Column('uuid', { name: 'parent_object_id' }) parentObjectId!: string;
  @Column('text', { name: 'workspace_access', nullable: true }) workspaceAccess!: string | null;
  @Column('jsonb', { name: 'created_by' }) createdBy!: { type: string; id: string | null };
  @Column('timestamptz', { name: 'created_at', default: () => 'now()' }) createdAt!: Date;
}

export const CONTAINERS_ORM_ENTITIES = [ObjectOrmEntity, ListOrmEntity];
