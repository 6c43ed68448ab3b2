import { Injectable } from '@nestjs/common';
import { isScope, type Scope } from '@workbase/shared/kernel';
import { type OAuthErrorCode } from '../domain/oauth.errors';
import { isValidS256Challenge } from '../domain/pkce';
import { type OAuthApp, OAuthAppRepository } from '../infrastructure/oauth-app.repository';

/** A validated authorization request (RFC 6749 §4.1.1 with RFC 7636). */
export interface AuthorizationRequest {
  readonly app: OAuthApp;
  readonly redirectUri: string;
  readonly redirectUriSent: boolean;
  readonly state: string | undefined;
  readonly scopes: readonly Scope[];
  readonly codeChallenge: string | null;
  readonly codeChallengeMethod: 'S256' | null;
  /** The query string it came from, carried through the sign-in and consent forms. */
  readonly query: string;
}

export type AuthorizationRequestCheck =
  /** Unknown client or unusable redirect URI: shown to the user, never redirected (§4.1.2.1). */
  | { readonly kind: 'error-page'; readonly message: string }
  /** Any other error: sent back to the client's redirect URI. */
  | { readonly kind: 'redirect-error'; readonly redirectUri: string; readonly error: OAuthErrorCode; readonly description: string; readonly state: string | undefined }
  | { readonly kind: 'valid'; readonly request: AuthorizationRequest };

const KNOWN = ['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method'];

@Injectable()
export class AuthorizationRequestValidator {
  constructor(private readonly apps: OAuthAppRepository) {}

  /** Validates the query string of an authorization request; the first problem wins. */
  async check(query: string): Promise<AuthorizationRequestCheck> {
    const params = new URLSearchParams(query);
    const repeated = KNOWN.filter((name) => params.getAll(name).length > 1);
    // §3.1: parameters without a value are treated as omitted.
    const get = (name: string) => params.get(name) || undefined;

    const clientId = get('client_id');
    if (!clientId) return { kind: 'error-page', message: 'The request has no client_id. Start again from the app you came from.' };
    if (repeated.includes('client_id')) return { kind: 'error-page', message: 'The request repeats client_id.' };
    const app = await this.apps.findByClientId(clientId);
    if (!app) return { kind: 'error-page', message: `No app is registered with the client_id "${clientId}".` };

    if (repeated.includes('redirect_uri')) return { kind: 'error-page', message: 'The request repeats redirect_uri.' };
    const sentRedirectUri = get('redirect_uri');
    let redirectUri: string;
    if (sentRedirectUri !== undefined) {
      if (!app.redirectUris.includes(sentRedirectUri)) {
        return { kind: 'error-page', message: `The redirect_uri "${sentRedirectUri}" is not registered for the app "${app.name}".` };
      }
      redirectUri = sentRedirectUri;
    } else if (app.redirectUris.length === 1) {
      redirectUri = app.redirectUris[0];
    } else {
      return { kind: 'error-page', message: `The request has no redirect_uri, and the app "${app.name}" registered several.` };
    }

    const state = repeated.includes('state') ? undefined : get('state');
    const fail = (error: OAuthErrorCode, description: string): AuthorizationRequestCheck => ({ kind: 'redirect-error', redirectUri, error, description, state });
    if (repeated.length > 0) return fail('invalid_request', `The request repeats the parameter ${repeated.join(', ')}.`);

    const responseType = get('response_type');
    if (!responseType) return fail('invalid_request', 'response_type is required and must be "code".');
    if (responseType !== 'code') return fail('unsupported_response_type', `response_type "${responseType}" is not supported; use "code".`);

    let scopes: Scope[];
    const scopeParam = get('scope');
    if (scopeParam === undefined || scopeParam.trim() === '') {
      scopes = app.scopes.filter(isScope);
    } else {
      const names = [...new Set(scopeParam.split(' ').filter(Boolean))];
      const unknown = names.filter((name) => !isScope(name));
      if (unknown.length > 0) return fail('invalid_scope', `Unknown scope${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}.`);
      const notAllowed = names.filter((name) => !app.scopes.includes(name));
      if (notAllowed.length > 0) return fail('invalid_scope', `The app may not be granted ${notAllowed.join(', ')}.`);
      scopes = names as Scope[];
    }

    const challenge = get('code_challenge');
    const method = get('code_challenge_method');
    if (challenge === undefined && method !== undefined) return fail('invalid_request', 'code_challenge_method was sent without code_challenge.');
    if (challenge !== undefined) {
      if (method !== 'S256') {
        return fail('invalid_request', method === undefined ? 'code_challenge_method is required; only "S256" is supported.' : `code_challenge_method "${method}" is not supported; use "S256".`);
      }
      if (!isValidS256Challenge(challenge)) return fail('invalid_request', 'code_challenge must be the 43-character base64url SHA-256 of the code verifier.');
    }

    return {
      kind: 'valid',
      request: {
        app,
        redirectUri,
        redirectUriSent: sentRedirectUri !== undefined,
        state,
        scopes,
        codeChallenge: challenge ?? null,
        codeChallengeMethod: challenge !== undefined ? 'S256' : null,
        query,
      },
    };
  }
}
