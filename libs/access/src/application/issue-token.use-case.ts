import { Injectable } from '@nestjs/common';
import { newId, NotFoundError, type Scope, ValidationError } from '@workbase/shared/kernel';
import { TransactionRunner } from '@workbase/shared/persistence';
import { generateAccessToken } from '../domain/access-token';
import { ApiTokenRepository } from '../infrastructure/api-token.repository';
import { WorkspaceMemberRepository } from '../infrastructure/workspace-member.repository';

export interface IssueTokenCommand {
  readonly workspaceId: string;
  readonly scopes: readonly Scope[];
  readonly name?: string | null;
  /** The OAuth client the token was issued to; null for workspace API tokens. */
  readonly clientId?: string | null;
  /** Who authorized it; defaults to the workspace's first admin for CLI-issued tokens. */
  readonly authorizedByMemberId?: string | null;
  readonly expiresAt?: Date | null;
}

export interface IssuedToken {
  readonly tokenId: string;
  readonly accessToken: string;
  readonly scope: string;
  readonly expiresAt: Date | null;
}

@Injectable()
export class IssueTokenUseCase {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly tokens: ApiTokenRepository,
    private readonly members: WorkspaceMemberRepository,
  ) {}

  async execute(command: IssueTokenCommand): Promise<IssuedToken> {
    if (command.expiresAt && command.expiresAt.getTime() <= Date.now()) throw new ValidationError('expires_at must be in the future');
    return this.transactions.run(async () => {
      const memberId = command.authorizedByMemberId ?? (await this.members.findFirstActiveAdmin(command.workspaceId))?.id;
      if (!memberId || !(await this.members.findById(command.workspaceId, memberId))) {
        throw new NotFoundError('No workspace member to authorize the token.');
      }
      const { token, hash } = generateAccessToken();
      const tokenId = newId();
      await this.tokens.insert({
        workspaceId: command.workspaceId,
        id: tokenId,
        tokenHash: hash,
        name: command.name ?? null,
        clientId: command.clientId ?? null,
        authorizedByMemberId: memberId,
        scopes: [...command.scopes],
        expiresAt: command.expiresAt ?? null,
      });
      return { tokenId, accessToken: token, scope: command.scopes.join(' '), expiresAt: command.expiresAt ?? null };
    });
  }
}
