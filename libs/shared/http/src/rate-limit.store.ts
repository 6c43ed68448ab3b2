import type { ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';
import { DataSource } from 'typeorm';

/** One lease in this many also deletes finished windows: no timer, no extra process. */
const SWEEP_EVERY = 500;

/**
 * The share of a window's limit one process takes from PostgreSQL at a time. Smaller slices
 * waste less of the budget when a window ends with hits still leased but unspent (at most one
 * slice per process), larger ones cost fewer round trips; a twentieth keeps both near 5 %.
 */
const LEASE_FRACTION = 1 / 20;

/** What one process holds of one key's current window. */
interface Lease {
  /** Local clock time (ms) at which the window ends; the database clock decided it. */
  readonly expiresAt: number;
  /** Hits granted to this process in the window and not spent yet. */
  remaining: number;
  /** The window's hits across every process up to the end of this grant. */
  readonly totalHitsAtLease: number;
  /** Set when the database answered that the window has nothing left to lease. */
  readonly exhausted: boolean;
}

interface LeaseRow {
  readonly hits: number;
  readonly ms_left: number;
}

/**
 * Request counters in PostgreSQL, so that every API process counts against the same limit
 * (in-process counters would give each of N replicas its own budget, N times the limit).
 *
 * Fixed windows aligned on the database clock, one row per hashed tracker and window start. A
 * process does not write that row on every request: it leases a slice of the window's budget in
 * one upsert (never more than the limit leaves), spends it in memory, and comes back when it is
 * gone. So N replicas together never grant more than the limit, a window costs a process about
 * `1 / LEASE_FRACTION` round trips at most however busy the token, and a blocked window is
 * answered from memory until it ends. The price: hits leased but unspent when a window ends are
 * lost to it (at most one slice per process), and a fixed window lets a client spend up to twice
 * the limit across a window boundary, as any fixed window does.
 */
export class PostgresRateLimitStore implements ThrottlerStorage {
  private leasesSinceSweep = 0;
  private readonly leases = new Map<string, Lease>();
  /** Lease requests in flight, so that concurrent requests of one key wait for one round trip. */
  private readonly pending = new Map<string, Promise<Lease>>();

  constructor(private readonly dataSource: DataSource) {}

  async increment(key: string, ttlMs: number, limit: number): Promise<ThrottlerStorageRecord> {
    for (;;) {
      const lease = this.currentLease(key) ?? (await this.leaseOnce(key, ttlMs, limit));
      const secondsLeft = Math.max(1, Math.ceil((lease.expiresAt - Date.now()) / 1000));
      if (lease.remaining > 0) {
        lease.remaining -= 1;
        return { totalHits: Math.min(limit, lease.totalHitsAtLease - lease.remaining), timeToExpire: secondsLeft, isBlocked: false, timeToBlockExpire: 0 };
      }
      if (lease.exhausted) {
        return { totalHits: limit + 1, timeToExpire: secondsLeft, isBlocked: true, timeToBlockExpire: secondsLeft };
      }
      // The slice is spent (by concurrent requests of this process): forget it and lease anew.
      if (this.leases.get(key) === lease) this.leases.delete(key);
    }
  }

  private currentLease(key: string): Lease | undefined {
    const lease = this.leases.get(key);
    if (!lease) return undefined;
    if (lease.expiresAt <= Date.now()) {
      this.leases.delete(key);
      return undefined;
    }
    return lease.remaining > 0 || lease.exhausted ? lease : undefined;
  }

  private leaseOnce(key: string, ttlMs: number, limit: number): Promise<Lease> {
    const inFlight = this.pending.get(key);
    if (inFlight) return inFlight;
    const leasing = this.lease(key, ttlMs, limit).finally(() => this.pending.delete(key));
    this.pending.set(key, leasing);
    return leasing;
  }

  private async lease(key: string, ttlMs: number, limit: number): Promise<Lease> {
    if (++this.leasesSinceSweep >= SWEEP_EVERY) {
      this.leasesSinceSweep = 0;
      void this.sweep();
    }
    const slice = Math.max(1, Math.floor(limit * LEASE_FRACTION));
    // Every lease adds a whole slice to `hits` under the row lock the upsert takes, so the count
    // before this lease is exactly `hits - slice` and concurrent leases never overlap; what the
    // limit has left of the slice is granted. Past the limit a process leases once more per
    // window, learns it is exhausted and answers from memory until the window ends.
    // The window's end is counted from before the round trip, so that a slow answer never makes a
    // lease outlive its window (the next lease then finds the window the database is in).
    const askedAt = Date.now();
    const rows: LeaseRow[] = await this.dataSource.query(
      `WITH window_of_now AS (
         SELECT to_timestamp(floor(extract(epoch FROM clock_timestamp()) * 1000 / $2) * $2 / 1000.0) AS start
       )
       INSERT INTO request_rate_windows AS w (key, window_start, hits)
       SELECT $1, start, $3::int FROM window_of_now
       ON CONFLICT (key, window_start) DO UPDATE SET hits = w.hits + $3::int
       RETURNING w.hits, greatest(0, extract(epoch FROM w.window_start - clock_timestamp()) * 1000 + $2)::float8 AS ms_left`,
      [key, ttlMs, slice],
    );
    const hits = Number(rows[0].hits);
    const granted = Math.max(0, Math.min(slice, limit - (hits - slice)));
    const lease: Lease = { expiresAt: askedAt + rows[0].ms_left, remaining: granted, totalHitsAtLease: hits - slice + granted, exhausted: granted === 0 };
    this.leases.set(key, lease);
    return lease;
  }

  private async sweep(): Promise<void> {
    const now = Date.now();
    for (const [key, lease] of this.leases) if (lease.expiresAt <= now) this.leases.delete(key);
    // Windows are at most a few seconds long; anything a minute old is finished everywhere.
    await this.dataSource.query(`DELETE FROM request_rate_windows WHERE window_start < now() - interval '1 minute'`).catch(() => undefined);
  }
}
