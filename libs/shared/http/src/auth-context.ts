import type { Actor } from '@workbase/shared/kernel';

/**
 * What a verified access token grants: the workspace every query is scoped to, the scopes, and
 * who is behind the token. Attached to the request by the access guard.
 */
export interface AuthContext {
  readonly tokenId: string;
  readonly workspaceId: string;
  readonly scopes: ReadonlySet<string>;
  readonly clientId: string | null;
  /**
   * `service`: a workspace API token (CLI `token:create`), a credential of the workspace itself
   * that no member change affects; `member`: a token a member granted (OAuth), which acts as them.
   */
  readonly kind: 'service' | 'member';
  /**
   * The member the token acts as: for a member token the member who granted it; for a service
   * token the workspace's longest-standing active admin, who stands in for the workspace where a
   * member is needed (a `current-user` default, `/v2/self`). A service token's validity and rights
   * never depend on that member.
   */
  readonly memberId: string;
  /** May do admin-only things: a service token, or a member token whose member is an admin now. */
  readonly isAdmin: boolean;
  readonly actor: Actor;
}

/**
 * The port the access context implements: turns a presented token into its grant, or null when
 * the token is unknown, revoked, expired, or its member no longer has access.
 */
export abstract class AccessTokenVerifier {
  abstract verify(token: string): Promise<AuthContext | null>;
}
