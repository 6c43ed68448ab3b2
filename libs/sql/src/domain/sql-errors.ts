import { DomainError, ForbiddenError, RateLimitedError } from '@workbase/shared/kernel';

/** A statement the endpoint refuses or PostgreSQL rejected: 400 `filter_error`, as the reference API. */
export class SqlStatementError extends DomainError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super('filter_error', message, details);
  }
}

/** An answer whose rows add up to more than SQL_MAX_RESULT_BYTES: 400 `result_too_large`, before any of them leaves the database. */
export class SqlResultTooLargeError extends DomainError {
  constructor(maxBytes: number) {
    super(
      'result_too_large',
      `The query's answer is larger than the limit of ${maxBytes} bytes (SQL_MAX_RESULT_BYTES): select fewer rows (LIMIT, WHERE) or fewer or shorter columns.`,
      { max_result_bytes: maxBytes },
    );
  }
}

/** A table the token's scopes do not cover: 403. */
export function tableForbidden(table: string, missing: readonly string[]): ForbiddenError {
  return new ForbiddenError(
    `You do not have the necessary permissions to read table "${table}": it needs the scope${missing.length > 1 ? 's' : ''} ${missing.join(', ')}.`,
    { missing_scopes: [...missing], table },
  );
}

/**
 * Too many statements at once (the workspace's slots, or the process's SQL connections, are all
 * busy): 429 `rate_limit_error` with `Retry-After`, and a message saying which limit was hit.
 */
export class SqlBusyError extends RateLimitedError {
  constructor(message: string, retryAfterSeconds: number) {
    super(retryAfterSeconds);
    this.message = message;
  }
}
