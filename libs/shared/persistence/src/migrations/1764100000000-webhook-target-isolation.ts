import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhook targets isolated from each other (libs/webhooks/README.md, "Isolation"):
 *
 * - `webhook_delivery_attempts` rows are written when an attempt starts, before the request is
 *   sent (`finished_at` null until it ends), with the target's key and a lease (`lease_until`:
 *   start + attempt timeout + slack). Unfinished rows of a target whose lease runs are its attempts
 *   in flight (capped per target, across workers); an unfinished row whose lease has passed was cut
 *   short by a crash and reads as `interrupted`. Rows written before keep their outcome
 *   (`finished_at` = start + duration).
 * - `webhook_targets`: per target (the SHA-256 of the normalised URL, as the rate buckets), the
 *   circuit (consecutive failures, open until, probe) and the fan-out pacing clock. Not keyed by
 *   workspace: a receiver belongs to none, and its health is the same for every webhook posting to
 *   it. UNLOGGED: a crash closes every circuit and resets pacing, which only costs a probe.
 * - `webhook_deliveries.waiting_reason`: why a pending delivery waits (open circuit, target busy,
 *   rate limit), shown in the delivery log; a partial index counts a workspace's pending
 *   deliveries for fair-share ordering at fan-out.
 */
export class WebhookTargetIsolation1764100000000 implements MigrationInterface {
  name = 'WebhookTargetIsolation1764100000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE webhook_delivery_attempts
        ADD COLUMN target_hash bytea,
        ADD COLUMN lease_until timestamptz,
        ADD COLUMN finished_at timestamptz,
        ADD COLUMN interrupted boolean NOT NULL DEFAULT false,
        ALTER COLUMN duration_ms DROP NOT NULL`);
    await db.query(`UPDATE webhook_delivery_attempts SET finished_at = started_at + duration_ms * interval '1 millisecond', lease_until = started_at`);
    await db.query(`CREATE INDEX webhook_delivery_attempts_in_flight ON webhook_delivery_attempts (target_hash, lease_until) WHERE finished_at IS NULL`);
    await db.query(`
      CREATE UNLOGGED TABLE webhook_targets (
        target_hash bytea PRIMARY KEY CHECK (octet_length(target_hash) = 32),
        consecutive_failures integer NOT NULL DEFAULT 0,
        failing_since timestamptz,
        open_until timestamptz,
        open_seconds double precision,
        probe_started_at timestamptz,
        paced_until timestamptz,
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await db.query(`ALTER TABLE webhook_deliveries ADD COLUMN waiting_reason text CHECK (waiting_reason IN ('circuit_open', 'target_busy', 'rate_limited'))`);
    await db.query(`CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (workspace_id) WHERE status = 'pending'`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX webhook_deliveries_pending`);
    await db.query(`ALTER TABLE webhook_deliveries DROP COLUMN waiting_reason`);
    await db.query(`DROP TABLE webhook_targets`);
    await db.query(`DROP INDEX webhook_delivery_attempts_in_flight`);
    await db.query(`DELETE FROM webhook_delivery_attempts WHERE finished_at IS NULL`);
    await db.query(`
      ALTER TABLE webhook_delivery_attempts
        ALTER COLUMN duration_ms SET NOT NULL,
        DROP COLUMN interrupted,
        DROP COLUMN finished_at,
        DROP COLUMN lease_until,
        DROP COLUMN target_hash`);
  }
}
