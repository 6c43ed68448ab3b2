import { Injectable } from '@nestjs/common';
import { CacheInvalidations, ChangeAwareCache } from '@workbase/shared/persistence';
import type { TokenGrantRow } from './api-token.repository';

/**
 * Live token grants by token hash, so that a request does not look its token up in PostgreSQL
 * every time. A change to the workspace's tokens, members or workspace row, in any process, drops
 * its grants (before the changing request answers in this process, within milliseconds in the
 * others); "no such token" is never cached, so a token issued by another replica works at once.
 */
@Injectable()
export class TokenGrantCache {
  private readonly grants: ChangeAwareCache<TokenGrantRow>;

  constructor(invalidations: CacheInvalidations) {
    this.grants = new ChangeAwareCache(invalidations, {
      topic: 'auth',
      workspaceOf: (grant) => grant.workspace_id,
      validUntil: (grant) => grant.expires_at?.getTime() ?? Infinity,
      ttlMs: 60_000,
      maxEntries: 10_000,
    });
  }

  grantOf(hash: Buffer, lookUp: () => Promise<TokenGrantRow | null>): Promise<TokenGrantRow | null> {
    return this.grants.get(hash.toString('base64'), lookUp);
  }
}
