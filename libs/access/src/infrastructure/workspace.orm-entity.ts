import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'workspaces' })
export class WorkspaceOrmEntity {
  @PrimaryColumn('uuid') id!: string;
  @Column('text') name!: string;
  @Column('text') slug!: string;
  @Column('text', { name: 'logo_url', nullable: true }) logoUrl!: string | null;
  @Column('text', { name: 'verified_email_domains', array: true, default: () => "'{}'" }) verifiedEmailDomains!: string[];
  @Column('timestamptz', { name: 'created_at', default: () => 'now()' }) createdAt!: Date;
}
