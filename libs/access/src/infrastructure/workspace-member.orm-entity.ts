import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'workspace_members' })
export class WorkspaceMemberOrmEntity {
  @PrimaryColumn('uuid', { name: 'workspace_id' }) workspaceId!: string;
  @PrimaryColumn('uuid') id!: string;
  @Column('text') email!: string;
  /** The SCIM userName: any string, unique case-insensitively among live members; the email for members made outside SCIM. */
  @Column('text', { name: 'user_name' }) userName!: string;
  @Column('text', { name: 'first_name', nullable: true }) firstName!: string | null;
  @Column('text', { name: 'last_name', nullable: true }) lastName!: string | null;
  /** Made without a first or a last name, and not written by SCIM since: SCIM shows names made from the email (libs/scim/README.md). */
  @Column('boolean', { name: 'never_named', default: false }) neverNamed!: boolean;
  @Column('text', { name: 'avatar_url', nullable: true }) avatarUrl!: string | null;
  @Column('text', { name: 'access_level' }) accessLevel!: 'admin' | 'member';
  @Column('text', { default: 'active' }) state!: 'active' | 'suspended' | 'deprovisioned';
  @Column('text', { name: 'password_hash', nullable: true, select: false }) passwordHash!: string | null;
  @Column('timestamptz', { name: 'created_at', default: () => 'now()' }) createdAt!: Date;
  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' }) updatedAt!: Date;
  /** Set by a SCIM DELETE: gone for SCIM, kept so that references to the member still resolve. */
  @Column('timestamptz', { name: 'deleted_at', nullable: true }) deletedAt!: Date | null;
}
