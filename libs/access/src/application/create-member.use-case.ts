import { Injectable } from '@nestjs/common';
import { type Actor, ConflictError, newId, SYSTEM_ACTOR, ValidationError } from '@workbase/shared/kernel';
import { EventOutbox, TransactionRunner } from '@workbase/shared/persistence';
import { hashPassword, MIN_PASSWORD_LENGTH } from '../domain/password';
import { type AccessLevel, normaliseEmail } from '../domain/workspace-rules';
import { WorkspaceMemberRepository } from '../infrastructure/workspace-member.repository';

export interface CreateMemberCommand {
  readonly workspaceId: string;
  readonly email: string;
  /** The SCIM userName when it is not the email. */
  readonly userName?: string;
  readonly firstName?: string | null;
  readonly lastName?: string | null;
  readonly accessLevel: AccessLevel;
  readonly password?: string | null;
  readonly actor?: Actor;
}

@Injectable()
export class CreateMemberUseCase {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly members: WorkspaceMemberRepository,
    private readonly outbox: EventOutbox,
  ) {}

  async execute(command: CreateMemberCommand): Promise<{ memberId: string }> {
    const email = normaliseEmail(command.email);
    if (command.password != null && command.password.length < MIN_PASSWORD_LENGTH) {
      throw new ValidationError(`password must be at least ${MIN_PASSWORD_LENGTH} characters`);
    }
    const passwordHash = command.password != null ? await hashPassword(command.password) : null;
    return this.transactions.run(async () => {
      if (await this.members.findByEmail(command.workspaceId, email)) {
        throw new ConflictError('uniqueness_conflict', `A workspace member with email "${email}" already exists.`);
      }
      const memberId = newId();
      await this.members.insert({
        workspaceId: command.workspaceId,
        id: memberId,
        email,
        userName: command.userName ?? email,
        firstName: command.firstName ?? null,
        lastName: command.lastName ?? null,
        accessLevel: command.accessLevel,
        passwordHash,
      });
      await this.outbox.record({
        eventType: 'workspace-member.created',
        workspaceId: command.workspaceId,
        id: { workspace_id: command.workspaceId, workspace_member_id: memberId },
        actor: command.actor ?? SYSTEM_ACTOR,
      });
      return { memberId };
    });
  }
}
