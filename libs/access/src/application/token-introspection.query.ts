import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@workbase/shared/config';
import { AccessTokenVerifier, type AuthContext } from '@workbase/shared/http';
import { hashAccessToken, looksLikeAccessToken } from '../domain/access-token';
import { ApiTokenRepository, type TokenGrantRow } from '../infrastructure/api-token.repository';
import { TokenGrantCache } from '../infrastructure/token-grant.cache';

/** RFC 7662 introspection, extended with the workspace fields of the reference API's `/v2/self`. */
export type Introspection =
  | { active: false }
  | {
      active: true;
      scope: string;
      client_id: string;
      token_type: 'Bearer';
      exp: number | null;
      iat: number;
      sub: string;
      aud: string;
      iss: string;
      authorized_by_workspace_member_id: string;
      workspace_id: string;
      workspace_name: string;
      workspace_slug: string;
      workspace_logo_url: string | null;
    };

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

@Injectable()
export class TokenIntrospectionQuery implements AccessTokenVerifier {
  constructor(
    private readonly tokens: ApiTokenRepository,
    private readonly grants: TokenGrantCache,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async verify(token: string): Promise<AuthContext | null> {
    const grant = await this.findGrant(token);
    if (!grant) return null;
    return {
      tokenId: grant.id,
      workspaceId: grant.workspace_id,
      scopes: new Set(grant.scopes),
      clientId: grant.client_id,
      kind: grant.kind,
      memberId: grant.reported_member_id,
      // A service token stands for the workspace itself, so it may do what an admin may.
      isAdmin: grant.kind === 'service' || grant.access_level === 'admin',
      actor: grant.client_id ? { type: 'app', id: grant.client_id } : { type: 'api-token', id: grant.id },
    };
  }

  async introspect(token: string): Promise<Introspection> {
    const grant = await this.findGrant(token);
    if (!grant) return { active: false };
    // Workspace API tokens are their own client: their id stands where an OAuth app's would.
    const clientId = grant.client_id ?? grant.id;
    return {
      active: true,
      scope: grant.scopes.join(' '),
      client_id: clientId,
      token_type: 'Bearer',
      exp: grant.expires_at ? seconds(grant.expires_at) : null,
      iat: seconds(grant.issued_at),
      sub: grant.workspace_id,
      aud: clientId,
      // One issuer everywhere: the OAuth metadata's `issuer` is BASE_URL too.
      iss: this.config.baseUrl,
      authorized_by_workspace_member_id: grant.reported_member_id,
      workspace_id: grant.workspace_id,
      workspace_name: grant.workspace_name,
      workspace_slug: grant.workspace_slug,
      workspace_logo_url: grant.workspace_logo_url,
    };
  }

  private findGrant(token: string): Promise<TokenGrantRow | null> {
    if (!looksLikeAccessToken(token)) return Promise.resolve(null);
    const hash = hashAccessToken(token);
    return this.grants.grantOf(hash, () => this.tokens.findLiveGrantByHash(hash));
  }
}
