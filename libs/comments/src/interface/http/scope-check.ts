import type { AuthContext } from '@workbase/shared/http';
import { ForbiddenError, grants, type Scope } from '@workbase/shared/kernel';

/**
 * Scopes that depend on the request's subject (a comment on a record needs the record scopes, one
 * on an entry the list scopes), checked after the guard's static ones, in the guard's wording.
 */
export function requireSubjectScopes(auth: AuthContext, required: readonly Scope[]): void {
  const missing = required.filter((scope) => !grants(auth.scopes, scope));
  if (missing.length > 0) {
    throw new ForbiddenError(`You do not have the necessary permissions: this request needs the scope${missing.length > 1 ? 's' : ''} ${missing.join(', ')}.`, {
      missing_scopes: missing,
    });
  }
}
