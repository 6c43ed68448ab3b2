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
  readonly memberId: string;
  readonly memberIsAdmin: boolean;
  readonly actor: Actor;
}

/**
 * The port the access context implements: turns a presented token into its grant, or null when
 * the token is unknown, revoked, expired, or its member no longer has access.
 */
export abstract class AccessTokenVerifier {
  abstract verify(token: string): Promise<AuthContext | null>;
}
