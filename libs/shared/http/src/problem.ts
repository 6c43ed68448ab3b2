import { HttpException, HttpStatus } from '@nestjs/common';
import { DomainError, type ErrorCode, RateLimitedError } from '@workbase/shared/kernel';
import { DatabaseUnavailableError, pgError } from '@workbase/shared/persistence';
import { ERROR_STATUS } from './error-status.map';

/** Any failure, normalised before it is written in the error dialect of the route. */
export interface Problem {
  readonly status: number;
  readonly code: ErrorCode;
  readonly message: string;
  readonly details: Readonly<Record<string, unknown>>;
  readonly retryAfterSeconds?: number;
  /** True when nothing about it may be shown to the caller (an unexpected failure). */
  readonly unexpected: boolean;
}

const STATUS_CODES: Partial<Record<number, ErrorCode>> = {
  400: 'validation_type',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'uniqueness_conflict',
  413: 'payload_too_large',
  429: 'rate_limit_exceeded',
  503: 'service_unavailable',
};

export function toProblem(error: unknown): Problem {
  const unavailable = DatabaseUnavailableError.from(error);
  if (unavailable) return databaseUnavailableProblem(unavailable);
  if (error instanceof DomainError) {
    return {
      status: ERROR_STATUS[error.code],
      code: error.code,
      message: error.message,
      details: error.details,
      retryAfterSeconds: error instanceof RateLimitedError ? error.retryAfterSeconds : undefined,
      unexpected: false,
    };
  }
  if (error instanceof HttpException) {
    // Nest wraps body-parser failures in an HttpException; the cause says what really went wrong.
    const bodyProblem = bodyParserProblem(error.cause);
    if (bodyProblem) return bodyProblem;
    const status = error.getStatus();
    if (status === HttpStatus.NOT_FOUND) {
      return { status, code: 'not_found', message: error.message.replace(/^Cannot /, 'No route for '), details: {}, unexpected: false };
    }
    return httpProblem(status, error.message);
  }
  return (
    bodyParserProblem(error) ??
    databaseDataProblem(error) ??
    transactionRollbackProblem(error) ?? { status: 500, code: 'internal_error', message: 'An unexpected error occurred.', details: {}, unexpected: true }
  );
}

/** How long a client should wait before sending again while the database is away: failovers and restarts take seconds. */
const DATABASE_RETRY_AFTER_SECONDS = 1;

/**
 * The database is away (lost connection, restart, failover, read-only, no connection in time):
 * the request may succeed when sent again, so it is a 503 with Retry-After, not a 500.
 */
function databaseUnavailableProblem(error: DatabaseUnavailableError): Problem {
  return {
    status: 503,
    code: 'database_unavailable',
    message: error.message,
    details: { reason: error.reason, mayHaveApplied: error.mayHaveApplied },
    retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS,
    unexpected: false,
  };
}

/**
 * PostgreSQL rolled the transaction back to settle a race with another one (SQLSTATE class 40:
 * a deadlock between crossing writes, a serialization failure). Nothing was written; the caller
 * may simply retry, which is what 409 concurrent_write_conflict tells it.
 */
function transactionRollbackProblem(error: unknown): Problem | undefined {
  const failure = pgError(error);
  if (!failure?.isTransactionRollback) return undefined;
  const sqlState = failure.code;
  return {
    status: 409,
    code: 'concurrent_write_conflict',
    message: 'This write collided with a concurrent write to the same records and changed nothing; retry it.',
    details: { sqlState },
    unexpected: false,
  };
}

/**
 * A safety net, not a validation strategy: PostgreSQL refuses a value the edge should have
 * refused (SQLSTATE class 22, "data exception": a NUL character, a number out of range, a
 * malformed literal). The value came from the request, so it is the caller's 400, never a 500;
 * `missedValidation` makes the filter log it so that the edge check gets written.
 */
function databaseDataProblem(error: unknown): Problem | undefined {
  const failure = pgError(error);
  if (!failure?.isDataException) return undefined;
  const sqlState = failure.code;
  const unstorable = failure.kind === 'characterNotInRepertoire' || failure.kind === 'untranslatableCharacter';
  const reason = unstorable ? 'a value contains a character that cannot be stored (such as U+0000)' : failure.message;
  return {
    status: 400,
    code: 'validation_type',
    message: `The request holds an invalid value: ${reason}.`,
    details: { missedValidation: sqlState },
    unexpected: false,
  };
}

/** body-parser and other express middleware signal client errors with a status/type pair. */
function bodyParserProblem(error: unknown): Problem | undefined {
  const candidate = error as { status?: unknown; statusCode?: unknown; type?: unknown; expose?: unknown; message?: unknown } | undefined;
  const status = Number(candidate?.status ?? candidate?.statusCode);
  if (!candidate || candidate.expose !== true || !(status >= 400 && status < 500)) return undefined;
  if (candidate.type === 'entity.parse.failed') {
    // scimType: how the SCIM error body (RFC 7644 §3.12) names a body that is not valid JSON.
    return { ...httpProblem(400, `The request body is not valid JSON: ${String(candidate.message)}.`), details: { scimType: 'invalidSyntax' } };
  }
  if (candidate.type === 'entity.too.large') return httpProblem(413, 'The request body is larger than the service accepts.');
  return httpProblem(status, String(candidate.message ?? 'Bad request'));
}

function httpProblem(status: number, message: string): Problem {
  // A 503 is said on purpose (a drain, a dependency away), not a failure to hide and log.
  return { status, code: STATUS_CODES[status] ?? (status >= 500 ? 'internal_error' : 'validation_type'), message, details: {}, unexpected: status >= 500 && status !== 503 };
}
