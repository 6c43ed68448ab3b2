import { Injectable } from '@nestjs/common';
import { TransactionRunner } from '@workbase/shared/persistence';
import { IsNull } from 'typeorm';
import type { ActiveMembership, WorkspaceMember } from '../domain/workspace';
import { WorkspaceMemberOrmEntity } from './workspace-member.orm-entity';

@Injectable()
export class WorkspaceMemberRepository {
  constructor(private readonly transactions: TransactionRunner) {}

  private get repo() {
    return this.transactions.manager().getRepository(WorkspaceMemberOrmEntity);
  }

  async findById(workspaceId: string, memberId: string): Promise<WorkspaceMember | null> {
    return toWorkspaceMember(await this.repo.findOneBy({ workspaceId, id: memberId }));
  }

  /** The member with this email who was not deleted through SCIM (a deleted one's address may be reused). */
  async findByEmail(workspaceId: string, email: string): Promise<WorkspaceMember | null> {
    return toWorkspaceMember(
      await this.repo
        .createQueryBuilder('m')
        .where('m.workspace_id = :workspaceId AND lower(m.email) = lower(:email) AND m.deleted_at IS NULL', { workspaceId, email })
        .getOne(),
    );
  }

  async listInWorkspace(workspaceId: string): Promise<WorkspaceMember[]> {
    return (await this.repo.find({ where: { workspaceId }, order: { createdAt: 'ASC', id: 'ASC' } })).map((row) => toWorkspaceMember(row)!);
  }

  async findFirstActiveAdmin(workspaceId: string): Promise<WorkspaceMember | null> {
    return toWorkspaceMember(await this.repo.findOne({ where: { workspaceId, accessLevel: 'admin', state: 'active', deletedAt: IsNull() }, order: { createdAt: 'ASC' } }));
  }

  async insert(
    member: Pick<WorkspaceMemberOrmEntity, 'workspaceId' | 'id' | 'email' | 'firstName' | 'lastName' | 'accessLevel'> & { userName?: string; passwordHash?: string | null },
  ): Promise<void> {
    await this.repo.insert({
      ...member,
      userName: member.userName ?? member.email,
      passwordHash: member.passwordHash ?? null,
      neverNamed: !member.firstName?.trim() && !member.lastName?.trim(),
    });
  }

  /** Which of `memberIds` are members of the workspace that were not deleted through SCIM. */
  async existingIds(workspaceId: string, memberIds: readonly string[]): Promise<Set<string>> {
    if (memberIds.length === 0) return new Set();
    const rows = await this.transactions.query<{ id: string }>(
      `SELECT id FROM workspace_members WHERE workspace_id = $1 AND id = ANY ($2::uuid[]) AND deleted_at IS NULL`,
      [workspaceId, memberIds],
    );
    return new Set(rows.map((row) => row.id));
  }

  /** Of these (workspace, member) pairs, the active members with their email and workspace, by workspace name then slug. */
  async activeMemberships(pairs: ReadonlyArray<{ workspaceId: string; memberId: string }>): Promise<ActiveMembership[]> {
    if (pairs.length === 0) return [];
    const rows = await this.transactions.query<{ workspace_id: string; workspace_name: string; workspace_slug: string; member_id: string; email: string }>(
      `SELECT m.workspace_id, w.name AS workspace_name, w.slug AS workspace_slug, m.id AS member_id, m.email
         FROM unnest($1::uuid[], $2::uuid[]) AS p(workspace_id, member_id)
         JOIN workspace_members m ON m.workspace_id = p.workspace_id AND m.id = p.member_id
         JOIN workspaces w ON w.id = m.workspace_id
        WHERE m.state = 'active'
        ORDER BY w.name, w.slug`,
      [pairs.map((p) => p.workspaceId), pairs.map((p) => p.memberId)],
    );
    return rows.map((row) => ({ workspaceId: row.workspace_id, workspaceName: row.workspace_name, workspaceSlug: row.workspace_slug, memberId: row.member_id, email: row.email }));
  }

  /** The active members with this email in every workspace (at most 50, oldest first), with their password hashes. */
  async activeCredentialsByEmail(email: string): Promise<Array<{ workspaceId: string; memberId: string; passwordHash: string | null }>> {
    const rows: Array<{ workspace_id: string; id: string; password_hash: string | null }> = await this.transactions
      .manager()
      .query(`SELECT workspace_id, id, password_hash FROM workspace_members WHERE lower(email) = lower($1) AND state = 'active' ORDER BY created_at LIMIT 50`, [email]);
    return rows.map((row) => ({ workspaceId: row.workspace_id, memberId: row.id, passwordHash: row.password_hash }));
  }

  async lockForUpdate(workspaceId: string, memberId: string): Promise<void> {
    await this.transactions.manager().query(`SELECT 1 FROM workspace_members WHERE workspace_id = $1 AND id = $2 FOR UPDATE`, [workspaceId, memberId]);
  }

  /** Writes the fields an identity provider owns. The names are then the provider's, removed ones included: never_named no more. */
  async updateProvisioned(
    workspaceId: string,
    memberId: string,
    fields: { userName: string; email: string; firstName: string | null; lastName: string | null; externalId: string | null; accessLevel: string; state: string; scimProfile: Readonly<Record<string, unknown>> },
  ): Promise<void> {
    await this.transactions.manager().query(
      `UPDATE workspace_members SET user_name = $3, email = $4, first_name = $5, last_name = $6, external_id = $7, access_level = $8, state = $9,
              scim_profile = $10, never_named = false, updated_at = clock_timestamp()
        WHERE workspace_id = $1 AND id = $2`,
      [workspaceId, memberId, fields.userName, fields.email, fields.firstName, fields.lastName, fields.externalId, fields.accessLevel, fields.state, fields.scimProfile],
    );
  }

  /** Deleted by the identity provider: suspended if active, out of SCIM; the row stays for actor references. */
  async markDeleted(workspaceId: string, memberId: string): Promise<void> {
    await this.transactions.manager().query(
      `UPDATE workspace_members SET deleted_at = clock_timestamp(), state = CASE WHEN state = 'active' THEN 'suspended' ELSE state END, updated_at = clock_timestamp()
        WHERE workspace_id = $1 AND id = $2`,
      [workspaceId, memberId],
    );
  }

  async setPasswordHash(workspaceId: string, memberId: string, passwordHash: string): Promise<void> {
    await this.repo.update({ workspaceId, id: memberId }, { passwordHash, updatedAt: () => 'now()' });
  }

  /**
   * Replaces a hash of the same password made with an older cost (see `needsRehash`), only while
   * the member still has `previousHash`: a password set meanwhile is never overwritten. Not a
   * change of the member, so `updated_at` stays. False when the hash had changed.
   */
  async upgradePasswordHash(workspaceId: string, memberId: string, previousHash: string, passwordHash: string): Promise<boolean> {
    const result = await this.repo.update({ workspaceId, id: memberId, passwordHash: previousHash }, { passwordHash });
    return (result.affected ?? 0) > 0;
  }
}

/** Plain data out of the ORM entity (the password hash is never selected here): entities stay in this layer. */
function toWorkspaceMember(row: WorkspaceMemberOrmEntity | null): WorkspaceMember | null {
  return (
    row && {
      workspaceId: row.workspaceId,
      id: row.id,
      email: row.email,
      userName: row.userName,
      firstName: row.firstName,
      lastName: row.lastName,
      avatarUrl: row.avatarUrl,
      accessLevel: row.accessLevel,
      state: row.state,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      deletedAt: row.deletedAt,
    }
  );
}
