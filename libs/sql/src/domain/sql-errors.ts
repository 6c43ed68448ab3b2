import { DomainError, ForbiddenError } from '@workbase/shared/kernel';

/** A statement the endpoint refuses or PostgreSQL rejected: 400 `filter_error`, as the reference API. */
export class SqlStatementError extends DomainError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super('filter_error', message, details);
  }
}

/** A table the token's scopes do not cover: 403. */
export function tableForbidden(table: string, missing: readonly string[]): ForbiddenError {
  return new ForbiddenError(
    `You do not have the necessary permissions to read table "${table}": it needs the scope${missing.length > 1 ? 's' : ''} ${missing.join(', ')}.`,
    { missing_scopes: [...missing], table },
  );
}
