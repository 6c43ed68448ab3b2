import type { ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';
import { DataSource } from 'typeorm';

/** One increment in this many also deletes finished windows: no timer, no extra process. */
const SWEEP_EVERY = 500;

/**
 * Request counters in PostgreSQL, so that every API process counts against the same limit
 * (in-process counters would give each of N replicas its own budget, N times the limit).
 *
 * Fixed windows aligned on the database clock: one upsert per request, on a row keyed by the
 * hashed tracker and the window's start. A window is blocked once its hits pass the limit, until
 * the window ends; `Retry-After` is the time left in it. A fixed window lets a client spend up to
 * twice the limit across a window boundary, the usual price for O(1) state.
 */
export class PostgresRateLimitStore implements ThrottlerStorage {
  private incrementsSinceSweep = 0;

  constructor(private readonly dataSource: DataSource) {}

  async increment(key: string, ttlMs: number, limit: number): Promise<ThrottlerStorageRecord> {
    if (++this.incrementsSinceSweep >= SWEEP_EVERY) {
      this.incrementsSinceSweep = 0;
      void this.sweep();
    }
    const rows: { hits: number; ms_left: number }[] = await this.dataSource.query(
      `WITH window_of_now AS (
         SELECT to_timestamp(floor(extract(epoch FROM clock_timestamp()) * 1000 / $2) * $2 / 1000.0) AS start
       )
       INSERT INTO request_rate_windows AS w (key, window_start, hits)
       SELECT $1, start, 1 FROM window_of_now
       ON CONFLICT (key, window_start) DO UPDATE SET hits = w.hits + 1
       RETURNING w.hits, greatest(0, extract(epoch FROM w.window_start - clock_timestamp()) * 1000 + $2)::float8 AS ms_left`,
      [key, ttlMs],
    );
    const { hits, ms_left: msLeft } = rows[0];
    const secondsLeft = Math.max(1, Math.ceil(msLeft / 1000));
    const isBlocked = hits > limit;
    return { totalHits: hits, timeToExpire: secondsLeft, isBlocked, timeToBlockExpire: isBlocked ? secondsLeft : 0 };
  }

  private async sweep(): Promise<void> {
    // Windows are at most a few seconds long; anything a minute old is finished everywhere.
    await this.dataSource.query(`DELETE FROM request_rate_windows WHERE window_start < now() - interval '1 minute'`).catch(() => undefined);
  }
}
