import { applyDecorators, createParamDecorator, type ExecutionContext, SetMetadata, type Type } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiConflictResponse,
  ApiExtension,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  type ApiParamOptions,
  type ApiResponseNoStatusOptions,
  ApiSecurity,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { Scope } from '@workbase/shared/kernel';
import type { AuthContext } from './auth-context';
import { ApiErrorResponse } from './error-response';
import { ADMIN_ONLY_KEY, ANY_SCOPE_KEY, PUBLIC_ROUTE_KEY, REQUIRED_SCOPES_KEY, ROUTE_RATE_LIMIT_KEY } from './metadata';

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
    tokenAnswers(`Token lacks a required scope: ${scopes.join(', ') || 'none'}`),
  );
}

/** The 401/403/429 answers of a route that needs a token (`forbidden`: why a 403). */
function tokenAnswers(forbidden: string): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiUnauthorizedResponse({ type: ApiErrorResponse, description: 'Missing, invalid, revoked or expired token (`auth_error`, `unauthorized`)' }),
    ApiForbiddenResponse({ type: ApiErrorResponse, description: forbidden }),
    ApiTooManyRequestsResponse({ type: ApiErrorResponse, description: 'Rate limit exceeded; `Retry-After` holds an HTTP date' }),
  );
}

/**
 * A route the reference limits below the general read/write limits (record merge: 5 requests per
 * second). Counted by the same limiter, per token, in a budget of the route's own, on top of the
 * general limit; documented as `x-rate-limit` on the operation.
 */
export function RouteRateLimit(requestsPerSecond: number): MethodDecorator {
  return applyDecorators(SetMetadata(ROUTE_RATE_LIMIT_KEY, requestsPerSecond), ApiExtension('x-rate-limit', { requests: requestsPerSecond, per_seconds: 1 }));
}

/**
 * Declares scopes of which the token needs any one (a read that filters what it answers by the
 * token's scopes, such as the change feed), and documents them: `x-required-scopes` lists them,
 * `x-required-scopes-match: any` says one suffices, and each is an alternative OAuth 2.0 security
 * requirement (OpenAPI's "any of").
 */
export function RequireAnyScope(...scopes: Scope[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    SetMetadata(REQUIRED_SCOPES_KEY, scopes),
    SetMetadata(ANY_SCOPE_KEY, true),
    ApiBearerAuth('bearer'),
    ApiSecurity('basic'),
    ...scopes.map((scope) => ApiSecurity('oauth2', [scope])),
    ApiExtension('x-required-scopes', scopes),
    ApiExtension('x-required-scopes-match', 'any'),
    tokenAnswers(`Token has none of the scopes ${scopes.join(', ')}`),
  );
}

/**
 * A route anyone may call (health, OAuth endpoints, token introspection). Documented with the empty
 * security requirement (`{}`: no credentials needed), so that the document says so rather than
 * saying nothing; a route that also reads a credential adds its scheme after it (`/v2/self`, `/metrics`).
 * Its 429 has no schema: the body is the error shape of the route's area (`/v2`, `/oauth`).
 */
export function Public(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    SetMetadata(PUBLIC_ROUTE_KEY, true),
    ApiSecurity({}),
    // The rate limits count every route, a public one per client address.
    ApiTooManyRequestsResponse({ description: 'Rate limit exceeded; `Retry-After` holds an HTTP date' }),
  );
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

export interface ScopedOperationOptions {
  /** The scopes the token needs, all of them (see `RequireScopes`). */
  readonly scopes: readonly Scope[];
  readonly summary: string;
  readonly description?: string;
  /** The path parameters, in the order of the path. */
  readonly params?: readonly ApiParamOptions[];
  /** The 200 answer: its response class, or its options (a description, a schema). */
  readonly ok?: Type<unknown> | ApiResponseNoStatusOptions;
  /** `ApiStandardErrors()` (400 and 404); false where the handler documents its own. Default true. */
  readonly standardErrors?: boolean;
  /** Documents a 409 with this description (the conflict's code and cause). */
  readonly conflict?: string;
}

/**
 * A scoped operation in one decorator: `@RequireScopes(...scopes)`, its `ApiOperation`, path
 * parameters, 200 answer and standard errors (and a 409), as the stack of those decorators would.
 */
export function ScopedOperation(options: ScopedOperationOptions): MethodDecorator {
  const ok = typeof options.ok === 'function' ? { type: options.ok } : options.ok;
  return applyDecorators(
    RequireScopes(...options.scopes),
    ApiOperation({ summary: options.summary, description: options.description }),
    ...(options.params ?? []).map((param) => ApiParam(param)),
    ...(ok ? [ApiOkResponse(ok)] : []),
    ...(options.standardErrors === false ? [] : [ApiStandardErrors()]),
    ...(options.conflict === undefined ? [] : [ApiConflictResponse({ type: ApiErrorResponse, description: options.conflict })]),
  );
}

/** The grant of the request's token. Fails loudly on a public route, where there is none. */
export const CurrentAuth = createParamDecorator((_: unknown, ctx: ExecutionContext): AuthContext => {
  const auth = ctx.switchToHttp().getRequest<{ user?: AuthContext }>().user;
  if (!auth) throw new Error('CurrentAuth used on a route without authentication');
  return auth;
});
