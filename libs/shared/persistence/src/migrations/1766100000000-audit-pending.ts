import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Audit entries are written into `audit_pending`, a narrow insert-only table with two btrees, and
 * the sealer moves them into `audit_log` once chained: a change pays one heap row and two btree
 * entries, each at the right edge of its index or of the workspace's range, for its audit entry
 * instead of five btree entries, a BRIN entry and a foreign-key check, and `audit_log` rows are inserted once, complete, instead of inserted and then updated
 * by the sealer (a non-HOT update that re-indexed every row and left a dead tuple).
 *
 * Measured on the activity-record create bench (bench/RESULTS.md, issue 31): the entry in
 * `audit_log` cost ≈ 10 % of a create's throughput.
 *
 * `entry_no` keeps numbering where `audit_log` stopped: an entry keeps its `(tx_id, entry_no)` when
 * it moves, and that pair is the chain's order. The workspaces of `audit_pending` are not a
 * foreign key (the check would be on the write path); the sealer only moves entries of existing
 * workspaces, and `audit_log` keeps its key.
 */
export class AuditPending1766100000000 implements MigrationInterface {
  name = 'AuditPending1766100000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE audit_pending (
        entry_no bigint GENERATED ALWAYS AS IDENTITY,
        workspace_id uuid NOT NULL,
        tx_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
        id uuid NOT NULL,
        occurred_at timestamptz NOT NULL,
        actor jsonb NOT NULL,
        actor_id text,
        request_id text,
        action text NOT NULL,
        target_kind text NOT NULL,
        target_id text NOT NULL,
        target jsonb NOT NULL,
        changes jsonb,
        content_hash text NOT NULL,
        CONSTRAINT audit_pending_key PRIMARY KEY (workspace_id, tx_id, entry_no)
      )`);
    // The sealer's order: transactions behind the commit horizon, oldest first, across workspaces.
    await db.query(`CREATE INDEX audit_pending_order ON audit_pending (tx_id, entry_no)`);
    await db.query(`
      INSERT INTO audit_pending (entry_no, workspace_id, tx_id, id, occurred_at, actor, actor_id, request_id, action, target_kind, target_id, target, changes, content_hash)
      OVERRIDING SYSTEM VALUE
      SELECT entry_no, workspace_id, tx_id, id, occurred_at, actor, actor_id, request_id, action, target_kind, target_id, target, changes, content_hash
        FROM audit_log WHERE seq IS NULL`);
    await db.query(`SELECT setval(pg_get_serial_sequence('audit_pending', 'entry_no'), coalesce((SELECT max(entry_no) FROM audit_log), 0) + 1, false)`);
    await db.query(`DELETE FROM audit_log WHERE seq IS NULL`);
    await db.query(`DROP INDEX audit_log_unsealed`);
    await db.query(`DROP INDEX audit_log_chain`);
    await db.query(`ALTER TABLE audit_log ALTER COLUMN entry_no DROP IDENTITY`);
    await db.query(`ALTER TABLE audit_log ALTER COLUMN seq SET NOT NULL, ALTER COLUMN prev_hash SET NOT NULL, ALTER COLUMN hash SET NOT NULL`);
    await db.query(`CREATE UNIQUE INDEX audit_log_chain ON audit_log (workspace_id, seq)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX audit_log_chain`);
    await db.query(`ALTER TABLE audit_log ALTER COLUMN seq DROP NOT NULL, ALTER COLUMN prev_hash DROP NOT NULL, ALTER COLUMN hash DROP NOT NULL`);
    await db.query(`
      INSERT INTO audit_log (entry_no, workspace_id, tx_id, id, occurred_at, actor, actor_id, request_id, action, target_kind, target_id, target, changes, content_hash)
      SELECT entry_no, workspace_id, tx_id, id, occurred_at, actor, actor_id, request_id, action, target_kind, target_id, target, changes, content_hash
        FROM audit_pending`);
    await db.query(`ALTER TABLE audit_log ALTER COLUMN entry_no ADD GENERATED ALWAYS AS IDENTITY`);
    await db.query(`SELECT setval(pg_get_serial_sequence('audit_log', 'entry_no'), coalesce((SELECT max(entry_no) FROM audit_log), 0) + 1, false)`);
    await db.query(`CREATE UNIQUE INDEX audit_log_chain ON audit_log (workspace_id, seq) WHERE seq IS NOT NULL`);
    await db.query(`CREATE INDEX audit_log_unsealed ON audit_log (tx_id, entry_no) WHERE seq IS NULL`);
    await db.query(`DROP TABLE audit_pending`);
  }
}
