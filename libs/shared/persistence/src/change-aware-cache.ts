import type { CacheInvalidations, InvalidatedCache, InvalidationTopic } from './cache-invalidations';

export interface ChangeAwareCacheOptions<T> {
  /** The rows this cache holds change under this topic (see the invalidation triggers). */
  readonly topic: InvalidationTopic;
  /** The workspace whose changes drop a value. */
  readonly workspaceOf: (value: T) => string;
  /** A value never outlives this, in case a notice was somehow lost. */
  readonly ttlMs: number;
  /** Past this many values the oldest is dropped (the next lookup brings it back). */
  readonly maxEntries: number;
  /** When a value stops being valid by itself (e.g. a token's expiry), in epoch ms. */
  readonly validUntil?: (value: T) => number;
}

interface Entry<T> {
  readonly value: T;
  readonly workspaceId: string;
  readonly cachedAt: number;
}

/**
 * Values read from PostgreSQL, kept in this process and dropped when their workspace's rows of the
 * topic change in any process (CacheInvalidations). Only found values are kept: "not found" is
 * always asked again, so a row created elsewhere is seen at once. While the invalidation feed is
 * down every lookup goes to the database.
 */
export class ChangeAwareCache<T> implements InvalidatedCache {
  private readonly entries = new Map<string, Entry<T>>();
  /**
   * Bumped by every invalidation. A lookup that started before one must not store its result
   * after it: it may have read the rows as they were before the change.
   */
  private generation = 0;

  constructor(
    private readonly invalidations: CacheInvalidations,
    private readonly options: ChangeAwareCacheOptions<T>,
  ) {
    invalidations.register(options.topic, this);
  }

  async get(key: string, lookUp: () => Promise<T | null>): Promise<T | null> {
    if (!this.invalidations.isLive) return lookUp();
    const now = Date.now();
    const cached = this.entries.get(key);
    if (cached) {
      if (now - cached.cachedAt < this.options.ttlMs && now < (this.options.validUntil?.(cached.value) ?? Infinity)) return cached.value;
      this.entries.delete(key);
    }
    const generation = this.generation;
    const value = await lookUp();
    if (value !== null && generation === this.generation && this.invalidations.isLive) {
      if (this.entries.size >= this.options.maxEntries) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(key, { value, workspaceId: this.options.workspaceOf(value), cachedAt: now });
    }
    return value;
  }

  invalidate(workspaceId: string): void {
    this.generation += 1;
    for (const [key, entry] of this.entries) if (entry.workspaceId === workspaceId) this.entries.delete(key);
  }

  reset(): void {
    this.generation += 1;
    this.entries.clear();
  }
}
