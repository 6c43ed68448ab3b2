import { Injectable } from '@nestjs/common';
import { Clock, newId } from '@workbase/shared/kernel';
import { AuditTrail, TransactionRunner } from '@workbase/shared/persistence';
import { AUTHORIZATION_CODE_PREFIX, generateSecret } from '../domain/secrets';
import { AuthorizationCodeRepository } from '../infrastructure/authorization-code.repository';
import type { AuthorizationRequest } from './authorization-request';

/** RFC 6749 §4.1.2 recommends at most 10 minutes. */
export const AUTHORIZATION_CODE_LIFETIME_SECONDS = 10 * 60;
/** Expired codes are kept this long, so that a replay within it still revokes the token issued. */
const EXPIRED_CODE_RETENTION_MS = 24 * 60 * 60 * 1000;

/** A member approved the request for one workspace: issue a single-use authorization code. */
@Injectable()
export class GrantAuthorizationUseCase {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly codes: AuthorizationCodeRepository,
    private readonly clock: Clock,
    private readonly audit: AuditTrail,
  ) {}

  async execute(request: AuthorizationRequest, membership: { workspaceId: string; memberId: string }): Promise<{ code: string }> {
    const code = generateSecret(AUTHORIZATION_CODE_PREFIX);
    const now = this.clock.now();
    await this.transactions.run(async () => {
      // Each grant also clears out codes long expired, so the table stays small without a job.
      await this.codes.purgeExpiredBefore(new Date(now.getTime() - EXPIRED_CODE_RETENTION_MS));
      await this.codes.insert({
        workspaceId: membership.workspaceId,
        id: newId(),
        codeHash: code.hash,
        clientId: request.app.clientId,
        memberId: membership.memberId,
        redirectUri: request.redirectUri,
        redirectUriSent: request.redirectUriSent,
        scopes: request.scopes,
        codeChallenge: request.codeChallenge,
        codeChallengeMethod: request.codeChallengeMethod,
        createdAt: now,
        expiresAt: new Date(now.getTime() + AUTHORIZATION_CODE_LIFETIME_SECONDS * 1000),
      });
      // The consent is the change an admin asks about later ("who let this app in"), not the token the code is exchanged for.
      await this.audit.record({
        workspaceId: membership.workspaceId,
        action: 'oauth.consent_granted',
        targetKind: 'oauth-app',
        targetId: request.app.clientId,
        target: { client_id: request.app.clientId, scopes: [...request.scopes] },
        actor: { type: 'workspace-member', id: membership.memberId, member_id: membership.memberId, app_id: request.app.clientId },
      });
    });
    return { code: code.value };
  }
}
