import { applyDecorators, createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiExtension,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiSecurity,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { Scope } from '@workbase/shared/kernel';
import type { AuthContext } from './auth-context';
import { ApiErrorResponse } from './error-response';
import { ADMIN_ONLY_KEY, PUBLIC_ROUTE_KEY, REQUIRED_SCOPES_KEY } from './metadata';

/**
 * Declares the scopes a handler needs (all of them) and documents them in OpenAPI. The global
 * access guard denies any route that carries neither this nor `@Public()`.
 */
export function RequireScopes(...scopes: Scope[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    SetMetadata(REQUIRED_SCOPES_KEY, scopes),
    ApiBearerAuth('bearer'),
    ApiSecurity('basic'),
    ApiSecurity('oauth2', scopes),
    ApiExtension('x-required-scopes', scopes),
    ApiUnauthorizedResponse({ type: ApiErrorResponse, description: 'Missing, invalid, revoked or expired token (`auth_error`, `unauthorized`)' }),
    ApiForbiddenResponse({ type: ApiErrorResponse, description: `Token lacks a required scope: ${scopes.join(', ') || 'none'}` }),
    ApiTooManyRequestsResponse({ type: ApiErrorResponse, description: 'Rate limit exceeded; `Retry-After` holds an HTTP date' }),
  );
}

/** A route anyone may call (health, OAuth endpoints, token introspection). */
export function Public(): MethodDecorator & ClassDecorator {
  return SetMetadata(PUBLIC_ROUTE_KEY, true);
}

/**
 * Admin-only (on top of the scopes): the token must be a workspace service token or granted by a
 * member who is an admin at the time of the request. Every SCIM write and every change of access
 * level carries it.
 */
export function RequireAdminMember(): MethodDecorator & ClassDecorator {
  return applyDecorators(SetMetadata(ADMIN_ONLY_KEY, true), ApiExtension('x-requires-admin-member', true));
}

/** Standard error responses of a handler that validates input and looks things up by id. */
export function ApiStandardErrors(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiBadRequestResponse({ type: ApiErrorResponse, description: 'Invalid input; the message names the field' }),
    ApiNotFoundResponse({ type: ApiErrorResponse, description: 'Unknown id or slug in this workspace' }),
  );
}

/** The grant of the request's token. Fails loudly on a public route, where there is none. */
export const CurrentAuth = createParamDecorator((_: unknown, ctx: ExecutionContext): AuthContext => {
  const auth = ctx.switchToHttp().getRequest<{ user?: AuthContext }>().user;
  if (!auth) throw new Error('CurrentAuth used on a route without authentication');
  return auth;
});
