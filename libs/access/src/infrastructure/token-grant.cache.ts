import { Injectable } from '@nestjs/common';
import { CacheInvalidations, type InvalidatedCache } from '@workbase/shared/persistence';
import type { TokenGrantRow } from './api-token.repository';

/** A backstop: even a change whose notice was somehow lost is seen within this time. */
const TTL_MS = 60_000;
/** Bounds memory: past it the oldest grant is dropped (a lookup brings it back). */
const MAX_GRANTS = 10_000;

interface CachedGrant {
  readonly grant: TokenGrantRow;
  readonly cachedAt: number;
}

/**
 * Live token grants by token hash, so that a request does not look its token up in PostgreSQL
 * every time. Only live grants are kept (never "no such token": a token issued by another replica
 * must work at once). Any change to tokens, members or workspaces, in any process, empties it
 * (see CacheInvalidations: before the changing request answers in this process, within
 * milliseconds in the others); while that feed is down, nothing is served from here.
 */
@Injectable()
export class TokenGrantCache implements InvalidatedCache {
  private readonly grants = new Map<string, CachedGrant>();
  /** Bumped by every invalidation: a lookup that started before one must not be cached after it. */
  private generation = 0;

  constructor(private readonly invalidations: CacheInvalidations) {
    invalidations.register('auth', this);
  }

  async grantOf(hash: Buffer, lookUp: () => Promise<TokenGrantRow | null>): Promise<TokenGrantRow | null> {
    if (!this.invalidations.isLive) return lookUp();
    const key = hash.toString('base64');
    const now = Date.now();
    const cached = this.grants.get(key);
    if (cached) {
      const expiresAt = cached.grant.expires_at?.getTime() ?? Infinity;
      if (now - cached.cachedAt < TTL_MS && now < expiresAt) return cached.grant;
      this.grants.delete(key);
    }
    const generation = this.generation;
    const grant = await lookUp();
    if (grant && generation === this.generation && this.invalidations.isLive) {
      if (this.grants.size >= MAX_GRANTS) this.grants.delete(this.grants.keys().next().value!);
      this.grants.set(key, { grant, cachedAt: now });
    }
    return grant;
  }

  /** Any auth change empties the cache: such changes are rare, and a token's workspace is only known once looked up. */
  invalidate(): void {
    this.generation += 1;
    this.grants.clear();
  }

  reset(): void {
    this.invalidate();
  }
}
