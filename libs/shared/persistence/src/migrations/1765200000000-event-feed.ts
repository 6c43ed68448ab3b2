import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The change feed (libs/events): a page of one workspace's events in commit order is a range scan
 * of `(workspace_id, tx_id, id)`, and `event_feed_retention` remembers, per workspace, the last
 * event the retention sweep deleted, so that a cursor (or `since`) before it is told 410
 * `cursor_expired` instead of silently skipping what was deleted.
 */
export class EventFeed1765200000000 implements MigrationInterface {
  name = 'EventFeed1765200000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE INDEX event_outbox_workspace_commit_order ON event_outbox (workspace_id, tx_id, id)`);
    await db.query(`
      CREATE TABLE event_feed_retention (
        workspace_id uuid PRIMARY KEY,
        pruned_tx_id xid8 NOT NULL,
        pruned_event_id bigint NOT NULL,
        pruned_until timestamptz NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE event_feed_retention`);
    await db.query(`DROP INDEX event_outbox_workspace_commit_order`);
  }
}
