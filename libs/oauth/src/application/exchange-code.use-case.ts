import { Injectable } from '@nestjs/common';
import { IssueTokenUseCase, MemberDirectory, RevokeTokenUseCase } from '@workbase/access';
import { Clock, isScope, type Scope } from '@workbase/shared/kernel';
import { TransactionRunner } from '@workbase/shared/persistence';
import { OAuthError } from '../domain/oauth.errors';
import { verifierMatches } from '../domain/pkce';
import { looksLikeSecret, sha256 } from '../domain/secrets';
import { AuthorizationCodeRepository } from '../infrastructure/authorization-code.repository';
import type { OAuthApp } from '../infrastructure/oauth-app.repository';

export interface ExchangeCodeCommand {
  readonly app: OAuthApp;
  readonly code: string | undefined;
  readonly redirectUri: string | undefined;
  readonly codeVerifier: string | undefined;
}

export interface TokenResponseBody {
  readonly access_token: string;
  readonly token_type: 'Bearer';
  readonly scope: string;
}

/**
 * The authorization-code grant at the token endpoint (RFC 6749 §4.1.3, RFC 7636 §4.6). The code
 * row is locked while it is checked and spent, so two concurrent exchanges cannot both succeed;
 * a second use of a spent code fails and revokes the token the first one issued (§4.1.2).
 */
@Injectable()
export class ExchangeCodeUseCase {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly codes: AuthorizationCodeRepository,
    private readonly issueToken: IssueTokenUseCase,
    private readonly revokeToken: RevokeTokenUseCase,
    private readonly members: MemberDirectory,
    private readonly clock: Clock,
  ) {}

  async execute(command: ExchangeCodeCommand): Promise<TokenResponseBody> {
    if (!command.code) throw new OAuthError('invalid_request', 'code is required.');
    const code = command.code;
    const outcome = await this.transactions.run(async (): Promise<TokenResponseBody | OAuthError> => {
      const record = looksLikeSecret(code) ? await this.codes.findByHashForUpdate(sha256(code)) : null;
      if (!record || record.clientId !== command.app.clientId) {
        return new OAuthError('invalid_grant', 'The authorization code is invalid, or was issued to another client.');
      }
      if (record.usedAt) {
        // Committed by this transaction even though the request fails.
        if (record.issuedTokenId) await this.revokeToken.revokeByIds(record.workspaceId, [record.issuedTokenId]);
        return new OAuthError('invalid_grant', 'The authorization code was already used; the token issued from it has been revoked.');
      }
      if (this.clock.now().getTime() >= record.expiresAt.getTime()) return new OAuthError('invalid_grant', 'The authorization code has expired.');
      if (record.redirectUriSent ? command.redirectUri !== record.redirectUri : command.redirectUri !== undefined && command.redirectUri !== record.redirectUri) {
        return new OAuthError('invalid_grant', 'redirect_uri does not match the one of the authorization request.');
      }
      if (record.codeChallenge) {
        if (!command.codeVerifier) return new OAuthError('invalid_grant', 'code_verifier is required: the authorization request sent a code_challenge.');
        if (!verifierMatches(command.codeVerifier, record.codeChallenge)) return new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge.');
      } else if (command.codeVerifier !== undefined) {
        return new OAuthError('invalid_grant', 'code_verifier was sent, but the authorization request had no code_challenge.');
      }
      const notAllowed = record.scopes.filter((scope) => !command.app.scopes.includes(scope) || !isScope(scope));
      if (notAllowed.length > 0) return new OAuthError('invalid_scope', `The app may no longer be granted ${notAllowed.join(', ')}.`);

      if (!(await this.members.isActive(record.workspaceId, record.memberId))) return new OAuthError('invalid_grant', 'The member who approved the authorization no longer has access.');

      const issued = await this.issueToken.execute({
        workspaceId: record.workspaceId,
        scopes: record.scopes as Scope[],
        name: command.app.name,
        clientId: command.app.clientId,
        authorizedByMemberId: record.memberId,
      });
      await this.codes.markUsed(record.workspaceId, record.id, this.clock.now(), issued.tokenId);
      return { access_token: issued.accessToken, token_type: 'Bearer', scope: issued.scope };
    });
    if (outcome instanceof OAuthError) throw outcome;
    return outcome;
  }
}
