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
  if (ifMatch === undefined || ifMatch.trim() === '') return;
  if (!namesVersion(ifMatch, version)) {
    throw new DomainError('precondition_failed', `If-Match ${ifMatch} does not match the current version ${entityTag(version)}: the resource has changed.`);
  }
}

/**
 * `If-None-Match` on a read names the current version (`*`, or a list of tags compared weakly):
 * the answer is 304 without a body. Decided here rather than by Express's freshness check, which
 * answers 200 to a request that also says `Cache-Control: no-cache` (a directive for caches, not
 * for the origin: RFC 9110 §13.1.2 has the origin evaluate If-None-Match regardless).
 */
export function isNotModified(ifNoneMatch: string | undefined, version: string): boolean {
  return ifNoneMatch !== undefined && ifNoneMatch.trim() !== '' && namesVersion(ifNoneMatch, version);
}

function namesVersion(tags: string, version: string): boolean {
  if (tags.trim() === '*') return true;
  return tags.split(',').map((tag) => tag.trim().replace(/^W\//i, '')).includes(`"${version}"`);
}
