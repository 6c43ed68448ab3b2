import { type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { ForbiddenError, grants, type Scope, UnauthenticatedError } from '@workbase/shared/kernel';
import { currentRequestContext } from '@workbase/shared/persistence';
import type { AuthContext } from './auth-context';
import { ADMIN_ONLY_KEY, ANY_SCOPE_KEY, PUBLIC_ROUTE_KEY, REQUIRED_SCOPES_KEY } from './metadata';

/**
 * The one guard that decides access to every route: public routes pass, undeclared routes are
 * denied, declared ones need a valid token (Bearer, or Basic with the token as username, as the
 * reference API accepts) that carries every declared scope (or one of them, with `RequireAnyScope`).
 */
@Injectable()
export class AccessGuard extends AuthGuard(['bearer', 'basic']) {
  constructor(private readonly reflector: Reflector) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE_KEY, targets)) return true;
    const required = this.reflector.getAllAndOverride<Scope[] | undefined>(REQUIRED_SCOPES_KEY, targets);
    if (!required) throw new ForbiddenError('This route declares no access rules and is closed.');

    await super.canActivate(context);
    const auth = context.switchToHttp().getRequest<{ user: AuthContext }>().user;
    const request = currentRequestContext();
    if (request) request.actor = { token_id: auth.tokenId, token_kind: auth.kind, member_id: auth.memberId, app_id: auth.clientId };
    const missing = required.filter((scope) => !grants(auth.scopes, scope));
    if (this.reflector.getAllAndOverride<boolean>(ANY_SCOPE_KEY, targets)) {
      if (missing.length === required.length) {
        throw new ForbiddenError(`You do not have the necessary permissions: this request needs one of the scopes ${required.join(', ')}.`, { missing_scopes: missing });
      }
    } else if (missing.length > 0) {
      throw new ForbiddenError(
        `You do not have the necessary permissions: this request needs the scope${missing.length > 1 ? 's' : ''} ${missing.join(', ')}.`,
        { missing_scopes: missing },
      );
    }
    if (this.reflector.getAllAndOverride<boolean>(ADMIN_ONLY_KEY, targets) && !auth.isAdmin) {
      throw new ForbiddenError(
        'You do not have the necessary permissions: this needs a workspace API token (service token) or a token granted by a workspace admin.',
      );
    }
    return true;
  }

  override handleRequest<T>(error: unknown, user: T | false, _info: unknown, context: ExecutionContext): T {
    if (error) throw error;
    if (!user) {
      const header = context.switchToHttp().getRequest<{ headers: Record<string, string | undefined> }>().headers.authorization;
      throw new UnauthenticatedError(
        header
          ? 'The access token is invalid, expired or revoked.'
          : 'The Authorization header was not provided. Send the token as "Authorization: Bearer <token>"; tokens in the URL or the body are not accepted.',
      );
    }
    return user;
  }
}
