import { Injectable } from '@nestjs/common';
import { newId, NotFoundError, type Scope, ValidationError } from '@workbase/shared/kernel';
import { TransactionRunner } from '@workbase/shared/persistence';
import { generateAccessToken } from '../domain/access-token';
import { ApiTokenRepository } from '../infrastructure/api-token.repository';
import { WorkspaceMemberRepository } from '../infrastructure/workspace-member.repository';
import { WorkspaceRepository } from '../infrastructure/workspace.repository';

export interface IssueTokenCommand {
  readonly workspaceId: string;
  readonly scopes: readonly Scope[];
  readonly name?: string | null;
  /** The OAuth client the token was issued to; null for workspace API tokens. */
  readonly clientId?: string | null;
  /**
   * The member who grants it (OAuth consent): the token acts as that member and stops working when
   * they lose access. Without one and without a client, the token is a **service token** of the
   * workspace (CLI `token:create`), which no member change affects.
   */
  readonly authorizedByMemberId?: string | null;
  readonly expiresAt?: Date | null;
}

export interface IssuedToken {
  readonly tokenId: string;
  readonly kind: 'service' | 'member';
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
    private readonly workspaces: WorkspaceRepository,
  ) {}

  async execute(command: IssueTokenCommand): Promise<IssuedToken> {
    if (command.expiresAt && command.expiresAt.getTime() <= Date.now()) throw new ValidationError('expires_at must be in the future');
    return this.transactions.run(async () => {
      const service = !command.authorizedByMemberId && !command.clientId;
      // An OAuth client without a named member is a legacy path (tests); it acts as the first admin.
      const memberId = service ? null : (command.authorizedByMemberId ?? (await this.members.findFirstActiveAdmin(command.workspaceId))?.id);
      if (!service && (!memberId || !(await this.members.findById(command.workspaceId, memberId)))) {
        throw new NotFoundError('No workspace member to authorize the token.');
      }
      if (service && !(await this.workspaces.findById(command.workspaceId))) throw new NotFoundError(`Workspace "${command.workspaceId}" not found.`);
      const { token, hash } = generateAccessToken();
      const tokenId = newId();
      await this.tokens.insert({
        workspaceId: command.workspaceId,
        id: tokenId,
        tokenHash: hash,
        name: command.name ?? null,
        clientId: command.clientId ?? null,
        kind: service ? 'service' : 'member',
        authorizedByMemberId: memberId ?? null,
        scopes: [...command.scopes],
        expiresAt: command.expiresAt ?? null,
      });
      return { tokenId, kind: service ? 'service' : 'member', accessToken: token, scope: command.scopes.join(' '), expiresAt: command.expiresAt ?? null };
    });
  }
}
