import type { Container } from '@workbase/schema';
import { NotFoundError } from '@workbase/shared/kernel';

/** An unknown record (an unknown entry, in a list) of the container: 404, naming both. */
export function recordNotFound(container: Container, recordId: string): NotFoundError {
  const noun = container.kind === 'list' ? 'Entry' : 'Record';
  return new NotFoundError(`${noun} with ID "${recordId}" not found in ${container.kind} "${container.slug}".`);
}
