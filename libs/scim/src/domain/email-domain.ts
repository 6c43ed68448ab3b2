import { ValidationError } from '@workbase/shared/kernel';

const HOSTNAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/**
 * An email domain a workspace may verify (`Example.COM` → `example.com`). Users created over SCIM
 * whose userName is at a verified domain become active members at once instead of invites.
 */
export function normaliseEmailDomain(raw: string): string {
  const domain = raw.trim().replace(/^@/, '').replace(/\.$/, '').toLowerCase();
  if (!HOSTNAME.test(domain)) throw new ValidationError(`domain "${raw}" is not a domain name such as example.com`);
  return domain;
}
