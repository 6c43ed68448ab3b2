import { Injectable } from '@nestjs/common';
import { NotFoundError, ValidationError } from '@workbase/shared/kernel';
import { TransactionRunner } from '@workbase/shared/persistence';
import { hashPassword, MIN_PASSWORD_LENGTH } from '../domain/password';
import { WorkspaceMemberRepository } from '../infrastructure/workspace-member.repository';

@Injectable()
export class SetMemberPasswordUseCase {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly members: WorkspaceMemberRepository,
  ) {}

  async execute(workspaceId: string, email: string, password: string): Promise<{ memberId: string }> {
    if (password.length < MIN_PASSWORD_LENGTH) throw new ValidationError(`password must be at least ${MIN_PASSWORD_LENGTH} characters`);
    const passwordHash = await hashPassword(password);
    return this.transactions.run(async () => {
      const member = await this.members.findByEmail(workspaceId, email);
      if (!member) throw new NotFoundError(`No workspace member with email "${email}".`);
      await this.members.setPasswordHash(workspaceId, member.id, passwordHash);
      return { memberId: member.id };
    });
  }
}
