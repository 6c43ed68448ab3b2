import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'api_tokens' })
export class ApiTokenOrmEntity {
  @PrimaryColumn('uuid', { name: 'workspace_id' }) workspaceId!: string;
  @PrimaryColumn('uuid') id!: string;
  @Column('bytea', { name: 'token_hash', select: false }) tokenHash!: Buffer;
  @Column('text', { nullable: true }) name!: string | null;
  @Column('text', { name: 'client_id', nullable: true }) clientId!: string | null;
  /** `service`: a credential of the workspace itself (CLI `token:create`); `member`: granted by a member (OAuth). */
  @Column('text') kind!: 'service' | 'member';
  /** The member who granted a member token; null for a service token. */
  @Column('uuid', { name: 'authorized_by_member_id', nullable: true }) authorizedByMemberId!: string | null;
  @Column('text', { array: true }) scopes!: string[];
  @Column('timestamptz', { name: 'issued_at', default: () => 'now()' }) issuedAt!: Date;
  @Column('timestamptz', { name: 'expires_at', nullable: true }) expiresAt!: Date | null;
  @Column('timestamptz', { name: 'revoked_at', nullable: true }) revokedAt!: Date | null;
}
