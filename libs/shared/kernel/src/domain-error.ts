import type { ErrorCode } from './error-code';

/**
 * Every failure the domain knows about. It carries the wire code and a message written for the
 * integrator (naming the field or value at fault); the HTTP layer maps the code to a status once.
 */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends DomainError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super('validation_type', message, details);
  }
}

export class NotFoundError extends DomainError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super('not_found', message, details);
  }
}

export class ConflictError extends DomainError {
  constructor(code: 'slug_conflict' | 'uniqueness_conflict' | 'concurrent_write_conflict', message: string, details: Record<string, unknown> = {}) {
    super(code, message, details);
  }
}

export class UnauthenticatedError extends DomainError {
  constructor(message: string) {
    super('unauthorized', message);
  }
}

export class ForbiddenError extends DomainError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super('forbidden', message, details);
  }
}

export class RateLimitedError extends DomainError {
  constructor(readonly retryAfterSeconds: number) {
    super('rate_limit_exceeded', 'Rate limit exceeded, please try again later', { retryAfterSeconds });
  }
}
