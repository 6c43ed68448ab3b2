import { DomainError } from '@workbase/shared/kernel';

/** The weak entity tag of a resource version (RFC 7644 §3.14): `W/"<version>"`, equal to `meta.version`. */
export function entityTag(version: string): string {
  return `W/"${version}"`;
}

/**
 * `If-Match` on a write: `*` or a list of tags, compared weakly (a `W/` prefix is ignored). A
 * mismatch is 412 and changes nothing; no header means no precondition.
 */
export function assertVersionMatches(ifMatch: string | undefined, version: string): void {
  if (ifMatch === undefined || ifMatch.trim() === '' || ifMatch.trim() === '*') return;
  const wanted = ifMatch.split(',').map((tag) => tag.trim().replace(/^W\//i, ''));
  if (!wanted.includes(`"${version}"`)) {
    throw new DomainError('precondition_failed', `If-Match ${ifMatch} does not match the current version ${entityTag(version)}: the resource has changed.`);
  }
}
