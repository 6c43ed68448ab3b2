import { Injectable } from '@nestjs/common';
import { type Introspection, RevokeTokenUseCase, TokenIntrospectionQuery } from '@workbase/access';
import { AuditTrail, TransactionRunner } from '@workbase/shared/persistence';
import { OAuthError } from '../domain/oauth.errors';

/** Who calls introspection: an OAuth client (by its credentials) or the holder of an access token. */
export type IntrospectionCaller = { readonly kind: 'client'; readonly clientId: string } | { readonly kind: 'token'; readonly workspaceId: string };

/**
 * Introspection (RFC 7662) and revocation (RFC 7009). A client sees and revokes only the tokens
 * issued to it; a token holder sees the tokens of its own workspace. Anything else is
 * `{"active": false}`, so that neither endpoint helps to scan for other parties' tokens.
 */
@Injectable()
export class TokenEndpointsService {
  constructor(
    private readonly introspection: TokenIntrospectionQuery,
    private readonly revocation: RevokeTokenUseCase,
    private readonly transactions: TransactionRunner,
    private readonly audit: AuditTrail,
  ) {}

  async introspect(caller: IntrospectionCaller, token: string): Promise<Introspection> {
    const result = await this.introspection.introspect(token);
    if (!result.active) return { active: false };
    const visible = caller.kind === 'client' ? result.client_id === caller.clientId : result.workspace_id === caller.workspaceId;
    return visible ? result : { active: false };
  }

  /** Revokes a token issued to the client; unknown and already inactive tokens are not an error. */
  async revoke(clientId: string, token: string): Promise<void> {
    const result = await this.introspection.introspect(token);
    if (!result.active) return;
    if (result.client_id !== clientId) throw new OAuthError('unauthorized_client', 'The token was not issued to this client, which may not revoke it.');
    await this.transactions.run(async () => {
      const revoked = await this.revocation.execute(token);
      if (revoked) {
        await this.audit.record({
          workspaceId: revoked.workspaceId,
          action: 'oauth.token_revoked',
          targetKind: 'token',
          targetId: revoked.tokenId,
          actor: { type: 'app', id: clientId, app_id: clientId },
        });
      }
    });
  }
}
