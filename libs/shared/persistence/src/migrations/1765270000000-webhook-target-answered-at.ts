import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `webhook_targets.answered_at`: when a target that has failed (it has a row) last answered an
 * attempt, kept to the second. A target that answered within the last seconds is not dead: its
 * attempts that wait long for an answer stop counting against its in-flight cap (up to a hard
 * limit), so a receiver that hangs on some requests does not stall the rest
 * (libs/webhooks/README.md, "Isolation"). A target that never answered keeps the strict cap.
 */
export class WebhookTargetAnsweredAt1765270000000 implements MigrationInterface {
  name = 'WebhookTargetAnsweredAt1765270000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE webhook_targets ADD COLUMN answered_at timestamptz`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE webhook_targets DROP COLUMN answered_at`);
  }
}
