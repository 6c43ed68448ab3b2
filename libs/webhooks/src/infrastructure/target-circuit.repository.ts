import { Injectable } from '@nestjs/common';
import { TransactionRunner } from '@workbase/shared/persistence';
import { ANSWERED_WITHIN_SECONDS, SLOW_AFTER_SECONDS } from '../domain/in-flight-policy';

export interface TargetCircuit {
  consecutive_failures: number;
  failing_since: string | null;
  open_until: string | null;
  open_seconds: number | null;
  /** Seconds until the circuit lets a probe through (<= 0: due); null when closed. */
  opens_in: number | null;
}

/**
 * Each target's circuit and in-flight count (`webhook_targets`, keyed by `rateTargetKey`, across
 * workspaces): whether an attempt may start, failures that open the circuit, answers that close it.
 */
@Injectable()
export class TargetCircuitRepository {
  constructor(private readonly transactions: TransactionRunner) {}

  /**
   * What decides whether an attempt may start on a target, in one round trip: its circuit (null
   * when it has no row: closed, no failures), its attempts in flight (started, unfinished, lease
   * running) that count against its cap (see `in-flight-policy.ts`) and all of them, with the
   * seconds until the first lease ends.
   */
  async targetState(target: Buffer): Promise<{ circuit: TargetCircuit | null; inFlight: number; totalInFlight: number; firstEndsIn: number }> {
    const [row] = await this.transactions.query<{ circuit: TargetCircuit | null; in_flight: number; total_in_flight: number; first_ends_in: number | null }>(
      `WITH t AS (SELECT * FROM webhook_targets WHERE target_hash = $1)
       SELECT
         (SELECT jsonb_build_object(
            'consecutive_failures', consecutive_failures, 'failing_since', failing_since, 'open_until', open_until, 'open_seconds', open_seconds,
            'opens_in', EXTRACT(EPOCH FROM open_until - clock_timestamp())::float8)
          FROM t) AS circuit,
         count(*) FILTER (WHERE a.started_at > clock_timestamp() - make_interval(secs => $2)
           OR NOT EXISTS (SELECT 1 FROM t WHERE t.answered_at >= clock_timestamp() - make_interval(secs => $3)))::int AS in_flight,
         count(*)::int AS total_in_flight,
         EXTRACT(EPOCH FROM min(a.lease_until) - clock_timestamp())::float8 AS first_ends_in
       FROM webhook_delivery_attempts a WHERE a.target_hash = $1 AND a.finished_at IS NULL AND a.lease_until > clock_timestamp()`,
      [target, SLOW_AFTER_SECONDS, ANSWERED_WITHIN_SECONDS],
    );
    return { circuit: row.circuit, inFlight: row.in_flight, totalInFlight: row.total_in_flight, firstEndsIn: Number(row.first_ends_in ?? 0) };
  }

  /**
   * One more failed attempt on a target (no answer, or a 5xx). A closed circuit opens once
   * `threshold` attempts in a row have had no answer and the first of them is at least
   * `failingSeconds` old (any answer restarts the count: a target that answers some of its
   * attempts never opens), for `openSeconds`. A failure while half-open (the open time is over:
   * the probes go out) opens it again for twice as long as the last time, up to `maxOpenSeconds`.
   * Either way never for longer than `retryInSeconds`, when the failed attempt's delivery is retried
   * (null: not retried, no bound). A failure while open (an attempt started before it opened) only
   * counts. Returns whether it is open now.
   */
  async recordTargetFailure(
    target: Buffer,
    policy: { threshold: number; failingSeconds: number; openSeconds: number; maxOpenSeconds: number; retryInSeconds: number | null },
  ): Promise<boolean> {
    const [row] = await this.transactions.query<{ open: boolean }>(
      // (LEAST ignores NULLs: no retry, no bound.)
      `INSERT INTO webhook_targets AS t (target_hash, consecutive_failures, failing_since)
       VALUES ($1, 1, clock_timestamp())
       ON CONFLICT (target_hash) DO UPDATE SET
         consecutive_failures = t.consecutive_failures + 1,
         failing_since = COALESCE(t.failing_since, clock_timestamp()),
         open_seconds = CASE
           WHEN t.open_until IS NULL AND t.consecutive_failures + 1 >= $2 AND t.failing_since <= clock_timestamp() - make_interval(secs => $3) THEN $4::float8
           WHEN t.open_until <= clock_timestamp() THEN LEAST($5::float8, COALESCE(t.open_seconds * 2, $4::float8))
           ELSE t.open_seconds END,
         open_until = CASE
           WHEN t.open_until IS NULL AND t.consecutive_failures + 1 >= $2 AND t.failing_since <= clock_timestamp() - make_interval(secs => $3)
             THEN clock_timestamp() + make_interval(secs => LEAST($4::float8, $6::float8))
           WHEN t.open_until <= clock_timestamp()
             THEN clock_timestamp() + make_interval(secs => LEAST($5::float8, COALESCE(t.open_seconds * 2, $4::float8), $6::float8))
           ELSE t.open_until END,
         updated_at = clock_timestamp()
       RETURNING COALESCE(open_until > clock_timestamp(), false) AS open`,
      [target, policy.threshold, policy.failingSeconds, policy.openSeconds, policy.maxOpenSeconds, policy.retryInSeconds],
    );
    return row.open;
  }

  /**
   * The target answered (a 2xx, or a 4xx: anything but a 5xx): its circuit closes and its failure
   * count restarts. Returns whether the circuit was open or half-open (see `pullForwardTarget`).
   */
  async recordTargetAnswered(target: Buffer): Promise<boolean> {
    const rows = await this.transactions.query<{ was_open: boolean }>(
      `WITH was AS (SELECT open_until IS NOT NULL AS was_open FROM webhook_targets WHERE target_hash = $1)
       UPDATE webhook_targets SET consecutive_failures = 0, failing_since = NULL, open_until = NULL, open_seconds = NULL, probe_started_at = NULL,
         answered_at = clock_timestamp(), updated_at = clock_timestamp()
       WHERE target_hash = $1
       RETURNING (SELECT was_open FROM was) AS was_open`,
      [target],
    );
    return rows[0]?.was_open ?? false;
  }

  /** Targets with nothing to remember (closed, not failing, pacing clock behind): no row is the same. */
  async deleteIdleTargets(): Promise<number> {
    const rows = await this.transactions.query<{ n: number }>(
      `DELETE FROM webhook_targets WHERE consecutive_failures = 0 AND open_until IS NULL
         AND (paced_until IS NULL OR paced_until < clock_timestamp() - interval '1 minute') RETURNING 1 AS n`,
    );
    return rows.length;
  }
}
