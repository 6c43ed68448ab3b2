import { DomainError } from '@workbase/shared/kernel';

/** The error codes of RFC 6749 §4.1.2.1 and §5.2 (and RFC 7009 §2.2.1) that this server sends. */
export const OAUTH_ERROR_CODES = [
  'invalid_request',
  'invalid_client',
  'invalid_token',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'unsupported_response_type',
  'invalid_scope',
  'access_denied',
  'server_error',
] as const;

export type OAuthErrorCode = (typeof OAUTH_ERROR_CODES)[number];

/**
 * A failure at an OAuth endpoint. The exception filter writes it as an RFC 6749 body
 * (`{error, error_description}`) because it carries `details.oauth_error`; `invalid_client` (and
 * `invalid_token` of RFC 6750) is a 401, everything else a 400.
 */
export class OAuthError extends DomainError {
  constructor(
    readonly oauthError: OAuthErrorCode,
    description: string,
  ) {
    super(oauthError === 'invalid_client' || oauthError === 'invalid_token' ? 'unauthorized' : oauthError === 'server_error' ? 'internal_error' : 'validation_type', description, {
      oauth_error: oauthError,
    });
  }
}
