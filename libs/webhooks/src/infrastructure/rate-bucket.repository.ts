import { Injectable } from '@nestjs/common';
import { TransactionRunner } from '@workbase/shared/persistence';

/** The per-target token buckets of the rate limit (`webhook_target_rate_buckets`, across workspaces). */
@Injectable()
export class RateBucketRepository {
  constructor(private readonly transactions: TransactionRunner) {}

  /**
   * Takes one token from the target's bucket (capacity `burst`, refilled at `rate` per second),
   * atomically across every worker and every webhook posting to that target (`target` is
   * `rateTargetKey` of its URL). Returns 0 when taken, else the seconds until one is available.
   */
  async takeRateToken(target: Buffer, rate: number, burst: number): Promise<number> {
    const taken = await this.transactions.query<{ tokens: number }>(
      `INSERT INTO webhook_target_rate_buckets AS b (target_hash, tokens, refilled_at)
       VALUES ($1, $2::float8 - 1, clock_timestamp())
       ON CONFLICT (target_hash) DO UPDATE SET
         tokens = LEAST($2::float8, b.tokens + EXTRACT(EPOCH FROM clock_timestamp() - b.refilled_at)::float8 * $3::float8) - 1,
         refilled_at = clock_timestamp()
       WHERE LEAST($2::float8, b.tokens + EXTRACT(EPOCH FROM clock_timestamp() - b.refilled_at)::float8 * $3::float8) >= 1
       RETURNING tokens`,
      [target, burst, rate],
    );
    if (taken.length > 0) return 0;
    const [row] = await this.transactions.query<{ available: number }>(
      `SELECT LEAST($2::float8, tokens + EXTRACT(EPOCH FROM clock_timestamp() - refilled_at)::float8 * $3::float8) AS available
       FROM webhook_target_rate_buckets WHERE target_hash = $1`,
      [target, burst, rate],
    );
    const available = row ? Number(row.available) : 0;
    return Math.max(0.001, (1 - available) / rate);
  }

  /**
   * Deletes buckets idle long enough to be full again (a full bucket and no row are the same), so
   * targets no webhook uses any more do not pile up. A bucket taken from meanwhile is kept: the
   * DELETE re-checks `refilled_at` on the row it locks.
   */
  async deleteFullRateBuckets(rate: number, burst: number): Promise<number> {
    const rows = await this.transactions.query<{ refilled_at: Date }>(
      `DELETE FROM webhook_target_rate_buckets WHERE refilled_at < clock_timestamp() - make_interval(secs => $1) RETURNING refilled_at`,
      [burst / rate + 1],
    );
    return rows.length;
  }
}
