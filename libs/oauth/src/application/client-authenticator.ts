import { Injectable } from '@nestjs/common';
import { OAuthError } from '../domain/oauth.errors';
import { looksLikeSecret, sameHash, sha256 } from '../domain/secrets';
import { type OAuthApp, OAuthAppRepository } from '../infrastructure/oauth-app.repository';

export type ClientAuthMethod = 'client_secret_basic' | 'client_secret_post';

export interface ClientCredentialsInput {
  /** The request's Authorization header, if any. */
  readonly authorization?: string;
  /** `client_id` and `client_secret` from the body, if any. */
  readonly bodyClientId?: string;
  readonly bodyClientSecret?: string;
}

export interface AuthenticatedClient {
  readonly app: OAuthApp;
  readonly method: ClientAuthMethod;
}

/**
 * Client authentication at the token, introspection and revocation endpoints (RFC 6749 §2.3):
 * `client_secret_basic` (credentials form-urlencoded, then base64, as §2.3.1 requires) or
 * `client_secret_post`. Using both at once is `invalid_request`; anything else that fails is
 * `invalid_client`, without telling an unknown client from a wrong secret.
 */
@Injectable()
export class ClientAuthenticator {
  constructor(private readonly apps: OAuthAppRepository) {}

  async authenticate(input: ClientCredentialsInput): Promise<AuthenticatedClient> {
    const basic = parseBasic(input.authorization);
    if (basic && input.bodyClientSecret !== undefined) {
      throw new OAuthError('invalid_request', 'The client authenticated with more than one method (Authorization header and client_secret in the body).');
    }
    if (basic) {
      if (input.bodyClientId !== undefined && input.bodyClientId !== basic.clientId) {
        throw new OAuthError('invalid_request', 'client_id in the body does not match the client in the Authorization header.');
      }
      return { app: await this.verify(basic.clientId, basic.clientSecret), method: 'client_secret_basic' };
    }
    if (input.bodyClientId !== undefined && input.bodyClientSecret !== undefined) {
      return { app: await this.verify(input.bodyClientId, input.bodyClientSecret), method: 'client_secret_post' };
    }
    throw new OAuthError('invalid_client', 'Client authentication is required: send client_id and client_secret with HTTP Basic or in the body.');
  }

  private async verify(clientId: string, clientSecret: string): Promise<OAuthApp> {
    const app = looksLikeSecret(clientSecret) ? await this.apps.findByClientId(clientId) : null;
    if (!app || !sameHash(app.clientSecretHash, sha256(clientSecret))) {
      throw new OAuthError('invalid_client', 'Client authentication failed: unknown client_id or wrong client_secret.');
    }
    return app;
  }
}

/** `Basic base64(urlencode(id) ":" urlencode(secret))`; null when the header is not Basic. */
function parseBasic(authorization: string | undefined): { clientId: string; clientSecret: string } | null {
  if (!authorization) return null;
  const match = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(authorization.trim());
  if (!match) {
    if (/^Basic\b/i.test(authorization.trim())) throw new OAuthError('invalid_client', 'The Basic credentials are malformed.');
    return null;
  }
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw new OAuthError('invalid_client', 'The Basic credentials are malformed: no ":" between client_id and client_secret.');
  try {
    return { clientId: formDecode(decoded.slice(0, colon)), clientSecret: formDecode(decoded.slice(colon + 1)) };
  } catch {
    throw new OAuthError('invalid_client', 'The Basic credentials are not correctly form-urlencoded.');
  }
}

function formDecode(value: string): string {
  return decodeURIComponent(value.replace(/\+/g, ' '));
}
