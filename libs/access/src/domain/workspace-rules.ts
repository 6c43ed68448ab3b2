import { ValidationError } from '@workbase/shared/kernel';

const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export type AccessLevel = 'admin' | 'member';

export function assertWorkspaceSlug(slug: string): void {
  if (!SLUG.test(slug)) {
    throw new ValidationError(`slug "${slug}" must be 1-64 lowercase letters, digits or hyphens, not starting or ending with a hyphen`);
  }
}

export function normaliseEmail(email: string): string {
  const trimmed = email.trim();
  if (!EMAIL.test(trimmed)) throw new ValidationError(`email "${email}" is not a valid email address`);
  return trimmed;
}

export function assertAccessLevel(value: string): asserts value is AccessLevel {
  if (value !== 'admin' && value !== 'member') throw new ValidationError(`role "${value}" must be admin or member`);
}
