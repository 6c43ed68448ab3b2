import { Injectable } from '@nestjs/common';
import { TransactionRunner } from '@workbase/shared/persistence';

export type SignInFailureKind = 'email' | 'client';

/** A counter's key: what it counts (an email or a client address) and the SHA-256 of the value. */
export interface SignInFailureKey {
  readonly kind: SignInFailureKind;
  readonly hash: Buffer;
}

/** One recorded failure in this many (per process) also deletes finished windows: no timer, no job. */
const SWEEP_EVERY = 100;

/**
 * Failed sign-ins in PostgreSQL (`oauth_sign_in_failures`, unlogged), so that every API process
 * counts against the same lock, and a restart does not lift it.
 *
 * One row per key; its window starts at the first failure and lasts `windowSeconds`, on the
 * database's clock (one clock for every process). A failure inside the window adds one; a failure
 * after it starts a new window at 1, in the same upsert. Finished windows count as nothing even
 * before they are swept.
 */
@Injectable()
export class SignInFailureStore {
  private recordsSinceSweep = 0;

  constructor(private readonly transactions: TransactionRunner) {}

  /** The failures in the current window of each key (0 for a key without one), in one query. */
  async countInWindow(keys: readonly SignInFailureKey[], windowSeconds: number): Promise<Map<SignInFailureKey, number>> {
    const counts = new Map<SignInFailureKey, number>(keys.map((key) => [key, 0]));
    if (keys.length === 0) return counts;
    const rows: Array<{ kind: SignInFailureKind; key_hash: Buffer; failures: number }> = await this.transactions.query(
      `SELECT kind, key_hash, failures FROM oauth_sign_in_failures
        WHERE (kind, key_hash) IN (SELECT * FROM unnest($1::text[], $2::bytea[]))
          AND window_start > clock_timestamp() - make_interval(secs => $3)`,
      [keys.map((key) => key.kind), keys.map((key) => key.hash), windowSeconds],
    );
    for (const row of rows) {
      const key = keys.find((candidate) => candidate.kind === row.kind && candidate.hash.equals(row.key_hash));
      if (key) counts.set(key, row.failures);
    }
    return counts;
  }

  /** Counts one failure against each key, in one upsert. */
  async recordFailure(keys: readonly SignInFailureKey[], windowSeconds: number): Promise<void> {
    if (keys.length === 0) return;
    await this.transactions.query(
      `INSERT INTO oauth_sign_in_failures AS f (kind, key_hash, window_start, failures)
       SELECT kind, key_hash, clock_timestamp(), 1 FROM unnest($1::text[], $2::bytea[]) AS k (kind, key_hash)
       ON CONFLICT (kind, key_hash) DO UPDATE SET
         window_start = CASE WHEN f.window_start > clock_timestamp() - make_interval(secs => $3) THEN f.window_start ELSE excluded.window_start END,
         failures = CASE WHEN f.window_start > clock_timestamp() - make_interval(secs => $3) THEN f.failures + 1 ELSE 1 END`,
      [keys.map((key) => key.kind), keys.map((key) => key.hash), windowSeconds],
    );
    if (++this.recordsSinceSweep >= SWEEP_EVERY) {
      this.recordsSinceSweep = 0;
      await this.sweep(windowSeconds);
    }
  }

  /** Forgets the failures of a key (an email proven by a successful sign-in). */
  async clear(key: SignInFailureKey): Promise<void> {
    await this.transactions.query(`DELETE FROM oauth_sign_in_failures WHERE kind = $1 AND key_hash = $2`, [key.kind, key.hash]);
  }

  /** Deletes finished windows, in every process's name. */
  async sweep(windowSeconds: number): Promise<void> {
    await this.transactions.query(`DELETE FROM oauth_sign_in_failures WHERE window_start <= clock_timestamp() - make_interval(secs => $1)`, [windowSeconds]);
  }
}
