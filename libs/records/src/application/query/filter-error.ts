import { DomainError } from '@workbase/shared/kernel';

/** A malformed filter or sort: 400 `filter_error`, naming what is wrong. */
export function filterError(message: string): DomainError {
  return new DomainError('filter_error', message);
}
