import { Injectable } from '@nestjs/common';
import { TransactionRunner } from '@workbase/shared/persistence';
import { IsNull } from 'typeorm';
import { WorkspaceMemberOrmEntity } from './workspace-member.orm-entity';

@Injectable()
export class WorkspaceMemberRepository {
  constructor(private readonly transactions: TransactionRunner) {}

  private get repo() {
    return this.transactions.manager().getRepository(WorkspaceMemberOrmEntity);
  }

  findById(workspaceId: string, memberId: string): Promise<WorkspaceMemberOrmEntity | null> {
    return this.repo.findOneBy({ workspaceId, id: memberId });
  }

  /** The member with this email who was not deleted through SCIM (a deleted one's address may be reused). */
  findByEmail(workspaceId: string, email: string): Promise<WorkspaceMemberOrmEntity | null> {
    return this.repo
      .createQueryBuilder('m')
      .where('m.workspace_id = :workspaceId AND lower(m.email) = lower(:email) AND m.deleted_at IS NULL', { workspaceId, email })
      .getOne();
  }

  listInWorkspace(workspaceId: string): Promise<WorkspaceMemberOrmEntity[]> {
    return this.repo.find({ where: { workspaceId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  findFirstActiveAdmin(workspaceId: string): Promise<WorkspaceMemberOrmEntity | null> {
    return this.repo.findOne({ where: { workspaceId, accessLevel: 'admin', state: 'active', deletedAt: IsNull() }, order: { createdAt: 'ASC' } });
  }

  async insert(
    member: Pick<WorkspaceMemberOrmEntity, 'workspaceId' | 'id' | 'email' | 'firstName' | 'lastName' | 'accessLevel'> & { userName?: string; passwordHash?: string | null },
  ): Promise<void> {
    await this.repo.insert({ ...member, userName: member.userName ?? member.email, passwordHash: member.passwordHash ?? null });
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
